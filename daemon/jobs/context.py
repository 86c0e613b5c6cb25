"""The boundary around one job run: claim, track, run the kind's handler, close the row — and map every error.

The only place job code's errors are caught: a :class:`~core.app.messages.sentences.CodedError` becomes its message code
and values on the row (``transient`` decides the retry), anything else ``internal_error`` unless
:func:`daemon.jobs.failures.known_failure` names it. A stop (:class:`~core.app.messages.sentences.StoppedOnRequest`,
caught before every other coded error), a cancel, a lost claim or a shutdown is no failure. Runs on the job's event
loop. Details: docs/design/worker.md.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import logging
import math
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from core.app.documents.counters import Counter
from core.app.logs import job_logging
from core.app.messages.sentences import CodedError, StoppedOnRequest
from core.app.storage.schema import Job
from core.errors import JobAlreadyFinishedError, StageInterruptedError
from core.progress import PhasePlan
from core.status import JobStatus
from core.stored_messages import encode
from core.tracker import Estimate, ProgressTracker
from core.types import utcnow
from daemon.jobs.failures import known_failure
from daemon.runtime import RunningJob, Runtime

__all__ = ["PROGRESS_INTERVAL", "Handler", "JobContext", "UserFacingError", "run_job"]

log = logging.getLogger(__name__)
T = TypeVar("T")

PROGRESS_INTERVAL = 0.3
"""Seconds between a phase's progress writes — and so between its cancel checks."""

SHUTDOWN_THREAD_WAIT = 5.0
"""How long a graceful stop waits for a job's thread before leaving the claim to expire instead."""


class UserFacingError(CodedError):
    """A permanent (or, with ``transient=True``, transient) failure the daemon itself detects."""


@dataclass
class JobContext:
    """What a handler gets: the claimed row, the runtime, and helpers that respect the job's stop event."""

    runtime: Runtime
    job: Job
    running: RunningJob
    loop: asyncio.AbstractEventLoop
    futures: list[concurrent.futures.Future[Any]] = field(default_factory=list)
    done_message: str = ""
    """What the row's message says once the job is done (a stored sentence, :meth:`text`); empty by default."""
    _threads: concurrent.futures.ThreadPoolExecutor | None = None

    def shutdown_threads(self) -> None:
        """Let the job's thread end once its current call returns; queued calls are dropped."""
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)

    @property
    def stop_event(self) -> Any:
        return self.running.stop_event

    def text(self, code: str, **values: Any) -> str:
        """The stored form of a user-facing sentence (:func:`core.stored_messages.encode`); screens translate it."""
        return encode(code, **values)

    def tracker(
        self, plan: PhasePlan, sizes: Mapping[str, int | None] | None = None, estimate: Estimate | None = None
    ) -> ProgressTracker:
        """The job's progress tracker; ``sizes`` (input characters per phase) lays the bar out for this input;
        ``estimate`` gives the time left written with each write (default: the plan's expected times)."""
        return ProgressTracker(
            self.runtime.store,
            self.job.id,
            plan=plan,
            interval=PROGRESS_INTERVAL,
            attempt=self.job.attempts,
            sizes=sizes,
            detail=self.job.detail,
            estimate=estimate,
        )

    async def in_thread(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run blocking work on this job's thread; a shutdown waits for it before handing the claim back.

        The work runs in a copy of the caller's context, so what it logs is tagged with the job's id.
        """
        if self._threads is None:  # made on first use: a job that never blocks starts no thread
            prefix = f"studyjobs-{self.running.kind}"
            self._threads = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix=prefix)
        future = self._threads.submit(contextvars.copy_context().run, fn, *args, **kwargs)
        self.futures.append(future)
        return await asyncio.wrap_future(future)

    def counter(
        self,
        tracker: ProgressTracker,
        phase: str,
        code: str,
        unit: Counter,
        *,
        every: float = 0.25,
        share: float = 1.0,
    ) -> Callable[[int, int], None]:
        """A thread-safe ``on_progress(done, total)`` that records a real count (at most every ``every`` s) for the
        tracker's next tick to write (:meth:`ProgressTracker.count`): message ``code`` and ``unit``'s detail keys.

        ``share`` is the part of the phase's time the counted work takes when more work follows its last count (a
        reader's work after its last page): the whole count then fills that share of the phase's bar, and the
        tracker moves the bar on at the counts' pace, below the phase's ceiling, until the phase ends."""
        last = [0.0]

        def report(done: int, total: int) -> None:
            now = time.monotonic()
            if now - last[0] < every and done < total:
                return
            last[0] = now
            detail = {**self.job.detail, **unit.values(done, total)}
            text = self.text(code, done=done, total=total)
            tracker.count(phase, done=share * done / total if total else 0.0, message=text, detail=detail)

        return report


Handler = Callable[[JobContext], Awaitable[uuid.UUID | None]]


async def run_job(runtime: Runtime, kind: str, job_id: uuid.UUID, handler: Handler) -> None:
    """Claim ``job_id`` and run ``handler`` on it; every outcome ends on the row. Never raises for job errors.

    Every line logged meanwhile (by this task and the job's thread) is tagged with the job's id.
    """
    with job_logging(job_id):
        await _claim_and_run(runtime, kind, job_id, handler)


async def _claim_and_run(runtime: Runtime, kind: str, job_id: uuid.UUID, handler: Handler) -> None:
    if not runtime.taking_jobs():
        return  # stopping, paused or restarting: the row stays queued and its message is sent again later
    await runtime.start()
    store = runtime.store
    job = await store.claim(job_id, worker_id=runtime.worker_id)
    if job is None:
        return  # not ours: a duplicate message, a cancel, or a retry whose time has not come
    running = RunningJob(job_id=job.id, kind=kind, attempt=job.attempts, task=asyncio.current_task())
    runtime.track(running)
    if runtime.stopping.is_set():  # a graceful stop began during the claim, after stop_all() looked at the jobs
        runtime.untrack(job.id)
        await store.release(job.id, attempt=job.attempts)
        return
    context = JobContext(runtime, job, running, asyncio.get_running_loop())
    log.debug("running %s job %s (attempt %d of %d)", kind, job.id, job.attempts, job.max_attempts)
    try:
        result_id = await handler(context)
        await store.succeed_without_row(job.id, result_id=result_id, attempt=job.attempts, message=context.done_message)
        # Routine, and on the row already: a line per finished job would cost a short job a tenth of its time.
        log.debug("%s job %s done (attempt %d of %d)", kind, job.id, job.attempts, job.max_attempts)
    except asyncio.CancelledError:
        if not running.shutdown and running.limited_at is None:
            raise
        current = asyncio.current_task()
        if current is not None:
            current.uncancel()
        if running.shutdown:
            await _hand_back(runtime, running, context)
        else:
            await _fail_at_limit(runtime, job, running)
    except (StageInterruptedError, StoppedOnRequest, JobAlreadyFinishedError):  # a stop first: it is a CodedError too
        if running.limited_at is not None and not running.shutdown:
            await _fail_at_limit(runtime, job, running)
        elif running.shutdown:
            await _hand_back(runtime, running, context)
        else:
            log.info("%s job %s stopped: cancelled, or no longer ours", kind, job.id)
    except CodedError as error:  # the reader's, the model's, a download's or the worker's own
        detail = error.detail  # the server's or library's own words, for the log only
        log.warning(
            "%s job %s failed: %s (%s)%s", kind, job.id, error.code, error, f"; detail: {detail}" if detail else ""
        )
        await _fail(runtime, job, error.stored(), transient=error.transient)
    except Exception as error:
        known = known_failure(error, output_dir=runtime.settings.output_dir)
        if known is None:
            log.exception("%s job %s failed unexpectedly", kind, job.id)
            await _fail(runtime, job, encode("internal_error"), transient=False)
        else:
            log.warning("%s job %s failed: %s", kind, job.id, known.code, exc_info=True)
            await _fail(runtime, job, encode(known.code, **known.values), transient=known.transient)
    finally:
        running.stop_event.set()
        context.shutdown_threads()
        runtime.untrack(job.id)
        if running.limited_at is not None and not all(f.done() for f in context.futures):
            runtime.linger(running, list(context.futures))  # a thread that ignores its stop: watched until it ends


async def _fail_at_limit(runtime: Runtime, job: Job, running: RunningJob) -> None:
    """Fail a job its time limit stopped: ``time_limit`` (or ``time_limit_server``, transient, for a model server)."""
    minutes = max(1, math.ceil(running.limit_seconds / 60))
    code = "time_limit_server" if running.limit_transient else "time_limit"
    log.warning("%s job %s failed: %s (%.0f s)", running.kind, job.id, code, running.limit_seconds)
    await _fail(runtime, job, encode(code, minutes=minutes), transient=running.limit_transient)


async def _fail(runtime: Runtime, job: Job, reason: str, *, transient: bool) -> None:
    try:
        row = await runtime.store.fail(job.id, reason, transient=transient, attempt=job.attempts)
    except JobAlreadyFinishedError:
        return
    except Exception as error:  # the database itself failed (full, unreachable): the lease will expire instead
        if known_failure(error) is None:
            raise
        log.error("could not record the failure of job %s; its lease will expire", job.id, exc_info=True)
        return
    if row.status == JobStatus.QUEUED and row.run_after is not None:
        delay = max((row.run_after - utcnow()).total_seconds(), 0.0)
        try:
            runtime.send(row.kind, row.id, delay)
        except Exception:  # the broker is unreachable: the row is queued, and the sweep sends its message later
            log.warning("could not send the retry of job %s to the broker; the sweep will", row.id, exc_info=True)


async def _hand_back(runtime: Runtime, running: RunningJob, context: JobContext) -> None:
    """Graceful stop: wait for the job's thread work, then return the claim without spending an attempt."""
    context.shutdown_threads()
    _, pending = await asyncio.to_thread(concurrent.futures.wait, context.futures, SHUTDOWN_THREAD_WAIT)
    if not pending:
        await runtime.store.release(running.job_id, attempt=running.attempt)
        log.info("handed job %s back to the queue", running.job_id)
    else:
        log.warning("job %s did not stop in time; its lease will expire", running.job_id)

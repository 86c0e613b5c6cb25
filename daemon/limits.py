"""Time limits of the jobs one worker runs (see :mod:`core.app.settings.limits` for the settings and how a limit is
set).

A soft limit fails the job with ``time_limit``; a hard limit (or no progress) fails it as transient ``job_stuck``
and ends the worker process. Threading: :meth:`LimitWatch.check` runs on the supervisor's event loop, reads the
running jobs through the runtime's lock and reaches a job's task only through ``call_soon_threadsafe``.
"""

from __future__ import annotations

import logging
import math
import os
import sys
import time
import uuid
from typing import Any, NoReturn

from sqlalchemy import select

from core.app.exit_codes import EXIT_JOB_STUCK
from core.app.settings.limits import LimitSettings, expected_seconds
from core.app.storage.schema import Job
from core.errors import JobAlreadyFinishedError
from core.status import JobStatus
from core.store import JobStore
from core.stored_messages import encode
from core.types import utcnow
from daemon.runtime import RunningJob, Runtime
from daemon.watchdog import ENV_WATCHED

__all__ = ["LimitWatch", "end_worker_process", "minutes"]

log = logging.getLogger(__name__)


def minutes(seconds: float) -> int:
    """A limit in whole minutes for a sentence (at least 1)."""
    return max(1, math.ceil(seconds / 60))


class LimitWatch:
    """Applies the time limits of ``limits`` to the jobs ``runtime`` runs.

    Args:
        runtime: The daemon's runtime.
        limits: The settings' ``[limits]``.
        end_process: Ends this worker process; by default :func:`end_worker_process`.
    """

    def __init__(self, runtime: Runtime, limits: LimitSettings, end_process: Any = None) -> None:
        self.runtime = runtime
        self.limits = limits
        self.end_process = end_process or end_worker_process

    async def check(self, store: JobStore[Job]) -> None:
        """Look at every running job once: stop those past their soft limit, end the process for a hard one."""
        now = time.monotonic()
        for job in self.runtime.lingering():
            if job.limited_at is not None and now - job.limited_at >= self.limits.grace_seconds:
                await self._hard(store, job, "its work did not stop after its time limit", fail=False)
        running = self.runtime.running()
        if not running:
            return
        rows = await _rows(store, [job.job_id for job in running])
        wall = utcnow()
        for job in running:
            row = rows.get(job.job_id)
            if row is None or row.status != JobStatus.RUNNING or row.attempts != job.attempt:
                continue  # no longer this attempt's: the heartbeat stops it
            silent = (wall - row.updated_at).total_seconds() if row.updated_at is not None else 0.0
            if silent >= self.limits.no_progress_seconds:
                await self._hard(store, job, f"it wrote no progress for {silent:.0f} s")
            elif job.limited_at is not None:
                if now - job.limited_at >= self.limits.grace_seconds:
                    await self._hard(store, job, "it did not stop at its time limit")
            else:
                soft = self.limits.soft_limit(job.kind, expected_seconds(row.phases, row.detail))
                if now - job.started >= soft:
                    self._soft(job, soft)

    def _soft(self, job: RunningJob, soft: float) -> None:
        job.limit_seconds = soft
        job.limit_transient = job.kind == "generate" and self.runtime.settings.model.kind == "http"
        job.limited_at = time.monotonic()
        log.warning("%s job %s passed its time limit of %.0f s: stopping it", job.kind, job.job_id, soft)
        job.stop_event.set()
        task = job.task
        if task is not None:
            task.get_loop().call_soon_threadsafe(task.cancel)

    async def _hard(self, store: JobStore[Job], job: RunningJob, why: str, *, fail: bool = True) -> None:
        log.error("%s job %s is stuck (%s): ending this worker process for a new one", job.kind, job.job_id, why)
        if fail:
            try:
                await store.fail(job.job_id, encode("job_stuck"), transient=True, attempt=job.attempt)
            except JobAlreadyFinishedError:
                pass
            except Exception:  # the process ends anyway: the next worker reclaims the job as its worker's is gone
                log.warning("could not record why job %s ended", job.job_id, exc_info=True)
        self.end_process()


async def _rows(store: JobStore[Job], job_ids: list[uuid.UUID]) -> dict[uuid.UUID, Any]:
    """The columns the limits need of the rows ``job_ids``."""
    m = store.model
    stmt = select(m.id, m.status, m.attempts, m.updated_at, m.phases, m.detail).where(m.id.in_(job_ids))
    async with store.db.get_session_context() as session:
        return {row.id: row for row in (await session.execute(stmt)).all()}


def end_worker_process() -> NoReturn:
    """End this worker now, whatever its threads are doing: exit :data:`EXIT_JOB_STUCK` for the watchdog to start a
    new one, or — without a watchdog — become a new worker (``exec``), as a restart for new settings does."""
    for handler in logging.getLogger().handlers:
        handler.flush()
    sys.stdout.flush()
    if os.environ.get(ENV_WATCHED) == "1":
        os._exit(EXIT_JOB_STUCK)
    argv = [sys.executable, *sys.argv[1:]] if getattr(sys, "frozen", False) else list(sys.orig_argv)
    os.execv(sys.executable, argv)

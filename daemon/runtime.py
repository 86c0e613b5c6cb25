"""What one daemon process shares between its jobs: settings, the store, the model, and the jobs it runs now.

Threading: the database manager and the store belong to Dramatiq's asyncio event loop (the ``AsyncIO``
middleware's thread), where every actor runs; create them with :meth:`Runtime.start` on that loop. The registry of
running jobs is read by the supervisor thread (to renew leases) and written on the loop: it is guarded by a lock.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from core.app.models.api_keys import find_api_key
from core.app.models.catalog import CatalogError, CatalogModel, RunSettings
from core.app.models.library import catalog_entry_for, library_catalog, writes_summaries
from core.app.settings.config import Settings
from core.app.storage.database import make_app_store, open_app_database
from core.app.storage.schema import Job
from core.db import AsyncDatabaseManager
from core.store import JobStore
from daemon.llm import ModelChoice, create_generator
from daemon.llm.base import TextGenerator
from daemon.llm.local_model import loaded_models, model_loading, unload_all
from daemon.llm.sampling import SamplingSettings, catalog_sampling, sampling_from
from daemon.readers.sandbox.isolated import release_idle_readers

__all__ = ["RunningJob", "Runtime", "current", "install", "model_choice"]

log = logging.getLogger(__name__)


@dataclass
class RunningJob:
    """A job this process runs now: its claim token and the event that stops its thread.

    ``started`` is the attempt's start (``time.monotonic()``). ``limited_at`` is set (by the supervisor thread,
    :mod:`daemon.limits`) when the attempt passed its soft time limit of ``limit_seconds`` and was told to stop; the
    job then ends failed with that reason, transient when ``limit_transient``.
    """

    job_id: uuid.UUID
    kind: str
    attempt: int
    stop_event: threading.Event = field(default_factory=threading.Event)
    task: asyncio.Task[Any] | None = None
    shutdown: bool = False
    started: float = field(default_factory=time.monotonic)
    limited_at: float | None = None
    limit_seconds: float = 0.0
    limit_transient: bool = False


class Runtime:
    """The daemon's shared state (one per process).

    Args:
        settings: The user's settings.
        worker_id: This process's id in the ``workers`` table.
        backoff: The store's retry delays (seconds); shortened in tests.
        gave_back_by: The pid of the worker that gave its memory back and whose place this process takes (its
            row stands until this one's replaces it); ``None``: an ordinary start.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        worker_id: str | None = None,
        backoff: tuple[float, ...] | None = None,
        gave_back_by: int | None = None,
    ):
        self.settings = settings
        self.worker_id = worker_id or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.backoff = backoff
        self.db: AsyncDatabaseManager | None = None
        self._store: JobStore[Job] | None = None
        self._running: dict[uuid.UUID, RunningJob] = {}
        self._lock = threading.Lock()
        self._generator: TextGenerator | None = None
        self._generator_lock: asyncio.Lock | None = None
        self._start_lock: asyncio.Lock | None = None
        self.stopping = threading.Event()
        self.paused = threading.Event()
        """Set while the queue is paused (``app_controls``, read by the supervisor): no new job is claimed."""
        self.restart: str | None = None
        """A restart asked of this worker (``"idle"`` or ``"now"``, :mod:`core.app.workers.controls`), seen by the
        supervisor; from then on no new job is claimed, and the process exits for its watchdog to start it again."""
        self.dispatch: Callable[[str, uuid.UUID, float], None] = _no_dispatch
        self.dispatch_many: Callable[[list[tuple[str, uuid.UUID]]], None] = self._dispatch_each
        self.rows_are_messages = False
        """Set when the broker is the job table itself (:mod:`daemon.brokers.jobs`): a queued row needs no message,
        the supervisor sends none, and :meth:`send` only wakes the consumers."""
        self.wake_queue: Callable[[], None] = _nothing
        """Wakes the job table's consumers (called when PostgreSQL notifies a queued row)."""
        self._sent_at: dict[uuid.UUID, float] = {}
        self._idle_since: float | None = time.monotonic()
        """When the last job ended (monotonic); ``None`` while a job runs or once the memory was given back."""
        self._lingering: dict[uuid.UUID, tuple[RunningJob, list[Any]]] = {}
        self._worked = False
        """Whether a job ran in this process (only then is there memory to give back)."""
        self.giving_back = threading.Event()
        """Set when this worker starts to give its memory back (:meth:`release_when_idle`): no new job is claimed."""
        self.gave_back = threading.Event()
        """Set once the model is unloaded and the reader processes ended: the process ends with ``EXIT_IDLE`` for a
        fresh one to take its place (:mod:`daemon.process`)."""
        self.gave_back_by = gave_back_by
        """The pid of the worker that gave its memory back whose row this one's replaces (``None``: none)."""
        self.replaces_idle = gave_back_by is not None
        """This process took the place of a worker that gave its memory back: it warms no reader process."""
        self.model_unloaded = self.replaces_idle and settings.model.kind != "http"
        """The local model is not in memory because a worker gave it back (this one, or the one before it): until a
        job loads it again, the worker's row says so (:meth:`model_state`). Never for a server's model."""

    @property
    def store(self) -> JobStore[Job]:
        """The job store (after :meth:`start`)."""
        if self._store is None:
            raise RuntimeError("the runtime has not been started")
        return self._store

    async def start(self) -> None:
        """Open the database (upgrading it) on the current loop — Dramatiq's event loop. Idempotent.

        The process calls it as soon as the loop exists, and every job awaits it too: a message consumed in the
        instant between the worker's start and that call must not find the store missing.
        """
        if self._store is not None:
            return  # every job calls this: no lock once the store is open
        if self._start_lock is None:
            self._start_lock = asyncio.Lock()
        async with self._start_lock:
            if self._store is None:
                await self._open()

    async def _open(self) -> None:
        self.db = await open_app_database(self.settings.database_url)
        kwargs: dict[str, Any] = {"stale_after": self.settings.stale_after}
        if self.backoff is not None:
            kwargs["backoff"] = self.backoff
        self._store = make_app_store(self.db, **kwargs)
        self._generator_lock = asyncio.Lock()

    async def close(self) -> None:
        """Dispose of the engine and the model's resources."""
        closer = getattr(self._generator, "close", None)
        if closer is not None:
            result = closer()
            if asyncio.iscoroutine(result):
                await result
        if self.db is not None:
            await self.db.dispose()

    @functools.cached_property
    def summaries(self) -> bool:
        """Whether the model in the settings writes each section's summary
        (:func:`core.app.models.library.writes_summaries`), decided
        once per process: the settings do not change while it runs (a changed model restarts the worker)."""
        return writes_summaries(self.settings)

    async def generator(self) -> TextGenerator:
        """The model chosen in the settings, created once per process (loading happens on first use)."""
        assert self._generator_lock is not None
        async with self._generator_lock:
            if self._generator is None:
                api_key = await asyncio.to_thread(self._api_key)  # the keyring may wait on D-Bus
                choice = model_choice(self.settings, api_key)
                self._generator = _wrapped_for_tests(create_generator(choice))
            return self._generator

    def _api_key(self) -> str | None:
        """The server's API key (``STUDYJOBS_API_KEY``, the keyring, or a key no keyring could take from the file)."""
        model = self.settings.model
        if model.kind != "http":
            return None
        found = find_api_key(model.endpoint, settings_path=self.settings.settings_path)
        return found.key if found is not None else None

    def taking_jobs(self) -> bool:
        """Whether a message may claim its job now: not stopping, the queue not paused, no restart pending.

        A message consumed while this is false leaves its row queued (no attempt spent); the supervisor sends it
        again once jobs are taken again (the job table's consumers deliver nothing meanwhile and read it again).
        """
        return not (
            self.stopping.is_set() or self.paused.is_set() or self.restart is not None or self.giving_back.is_set()
        )

    # -- broker messages ---------------------------------------------------------------------------------

    def send(self, kind: str, job_id: uuid.UUID, delay: float = 0.0) -> None:
        """Send the broker message of ``job_id`` and remember when, so the sweep does not send it a second one.

        When the job table is the queue the row is the message: this only wakes the consumers, and remembers nothing.
        """
        self.dispatch(kind, job_id, delay)
        if self.rows_are_messages:
            return
        with self._lock:
            self._sent_at[job_id] = time.monotonic() + delay

    def _dispatch_each(self, jobs: list[tuple[str, uuid.UUID]]) -> None:
        for kind, job_id in jobs:
            self.dispatch(kind, job_id, 0.0)

    def sent_within(self, job_id: uuid.UUID, seconds: float) -> bool:
        """Whether this process sent (or scheduled) a message for ``job_id`` less than ``seconds`` ago."""
        with self._lock:
            sent = self._sent_at.get(job_id)
        return sent is not None and time.monotonic() - sent < seconds

    def forget_all_sent(self) -> None:
        """Forget every message sent (their jobs were left queued while no job was taken: send them again)."""
        with self._lock:
            self._sent_at.clear()

    def forget_sent(self, older_than: float) -> None:
        """Drop the memory of messages sent more than ``older_than`` seconds ago."""
        cutoff = time.monotonic() - older_than
        with self._lock:
            for job_id in [j for j, at in self._sent_at.items() if at < cutoff]:
                del self._sent_at[job_id]

    # -- the jobs running now ---------------------------------------------------------------------------

    def track(self, job: RunningJob) -> None:
        with self._lock:
            self._running[job.job_id] = job
            self._idle_since = None
            self._worked = True

    def untrack(self, job_id: uuid.UUID) -> None:
        with self._lock:
            self._running.pop(job_id, None)
            if not self._running:
                self._idle_since = time.monotonic()

    def idle_for(self) -> float | None:
        """Seconds since the last job ended with none running since; ``None`` while a job runs, or once the
        memory was given back (:meth:`release_when_idle`) until the next job."""
        with self._lock:
            return None if self._idle_since is None else time.monotonic() - self._idle_since

    async def release_when_idle(self) -> bool:
        """Give the memory back after the ``model.unload_after_minutes`` setting's minutes without a job (``0``:
        never): unload the local model, end the idle reader processes, and (when a job ran here) set
        :attr:`gave_back`, which stops the claiming of jobs and ends the process for a fresh one (its Python heap
        is the rest of what a guide left). The next job loads the model again (its time left counts the load).
        ``True`` when it did so now."""
        minutes = self.settings.model.unload_after_minutes
        idle = self.idle_for()
        if minutes <= 0 or idle is None or idle < minutes * 60:
            return False
        with self._lock:
            if self._running:
                return False
            self._idle_since = None
            if self._worked:
                self.giving_back.set()
        models = await asyncio.to_thread(unload_all)
        readers = await asyncio.to_thread(release_idle_readers)
        self.model_unloaded = self.model_unloaded or models > 0
        if self.giving_back.is_set():
            self.gave_back.set()
        log.info("idle for %.1f minutes: %d model(s) unloaded, %d reader process(es) ended", idle / 60, models, readers)
        return True

    def model_state(self) -> str | None:
        """What the worker's row says of the local model (:data:`core.app.workers.registry.MODEL_STATES`): ``"loading"``
        while it loads, ``"unloaded"`` once given back until loaded again, else ``None``."""
        if model_loading():
            return "loading"
        if self.model_unloaded and loaded_models() == 0:
            return "unloaded"
        self.model_unloaded = False
        return None

    def claims(self) -> dict[uuid.UUID, int | None]:
        """``{job_id: attempt}`` of every job running here (thread-safe snapshot)."""
        with self._lock:
            return {job.job_id: job.attempt for job in self._running.values()}

    def running(self) -> list[RunningJob]:
        with self._lock:
            return list(self._running.values())

    def linger(self, job: RunningJob, futures: list[Any]) -> None:
        """Keep watching a job stopped at its time limit whose thread work (``futures``) has not ended yet."""
        with self._lock:
            self._lingering[job.job_id] = (job, futures)

    def lingering(self) -> list[RunningJob]:
        """The jobs given to :meth:`linger` whose thread work still runs (those whose work ended are forgotten)."""
        with self._lock:
            for job_id in [j for j, (_, futures) in self._lingering.items() if all(f.done() for f in futures)]:
                del self._lingering[job_id]
            return [job for job, _ in self._lingering.values()]

    def stop_all(self) -> None:
        """Graceful shutdown: stop every running job's thread and task; they hand their claims back."""
        self.stopping.set()
        for job in self.running():
            job.shutdown = True
            job.stop_event.set()
            task = job.task
            if task is not None:
                task.get_loop().call_soon_threadsafe(task.cancel)


def _nothing() -> None:
    return None


def _no_dispatch(kind: str, job_id: uuid.UUID, delay: float = 0.0) -> None:
    log.warning("no dispatcher installed: %s job %s waits for the sweep", kind, job_id)


_current: Runtime | None = None


def install(runtime: Runtime | None) -> None:
    """Make ``runtime`` the process's runtime (the actors find it with :func:`current`)."""
    global _current
    _current = runtime


def current() -> Runtime:
    """The process's runtime."""
    if _current is None:
        raise RuntimeError("no StudyJobs runtime is installed in this process")
    return _current


def _catalog_entry(settings: Settings) -> CatalogModel | None:
    """The catalog entry of the model in the settings (``None``: a file outside the catalog, a server, or no
    catalog)."""
    if settings.model.kind not in ("bundled", "gguf"):
        return None
    try:
        return catalog_entry_for(settings, library_catalog())
    except CatalogError:
        log.warning("the model catalog cannot be read; the model's defaults apply", exc_info=True)
        return None


def model_choice(settings: Settings, api_key: str | None = None) -> ModelChoice:
    """The model the ``model`` setting names, as the worker runs it: threads, context, the server's timeout, and a
    catalog model's sampling and run settings (``bench/guide_eval.py`` runs a model through this too)."""
    model = settings.model
    return ModelChoice(
        kind=model.kind,  # type: ignore[arg-type]
        path=model.gguf_path,
        endpoint=model.endpoint,
        model_name=model.model_name,
        n_threads=model.n_threads,
        n_ctx=model.context or None,
        api_key=api_key,
        request_timeout=settings.limits.request_seconds,
        sampling=sampling_from(model, _catalog_base(settings)),
        run=_catalog_run(settings),
    )


def _catalog_run(settings: Settings) -> RunSettings | None:
    """The catalog's run settings for the catalog model in the settings (``None``: not one, or no catalog)."""
    entry = _catalog_entry(settings)
    return entry.run if entry is not None else None


def _catalog_base(settings: Settings) -> SamplingSettings | None:
    """The catalog's sampling settings for a downloaded catalog model (``None``: not one, or no catalog)."""
    entry = _catalog_entry(settings) if settings.model.kind == "gguf" else None
    return catalog_sampling(entry) if entry is not None else None


GENERATOR_WRAPPER_ENV = "STUDYJOBS_GENERATOR_WRAPPER"
"""Tests only: ``module:function`` that wraps the model's generator (``devkit.hanging:hanging_from_env``)."""


def _wrapped_for_tests(generator: TextGenerator) -> TextGenerator:
    """``generator`` itself, or what the :data:`GENERATOR_WRAPPER_ENV` function makes of it when that is set."""
    entry = os.environ.get(GENERATOR_WRAPPER_ENV, "").strip()
    if not entry:
        return generator
    module, _, function = entry.partition(":")
    wrapped: TextGenerator = getattr(importlib.import_module(module), function)(generator)
    return wrapped

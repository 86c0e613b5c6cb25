"""The supervisor thread: leases, the worker row, dispatch, reclaim, time limits and switches.

Runs on a thread and a database engine of its own, so it keeps ticking while every job thread is busy in native
code; it reaches a job only through its stop event or the runtime's thread-safe calls. What each tick does and how
often: docs/design/worker.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import select, text

from core.app.settings.config import redact_url
from core.app.storage.database import make_app_store, open_app_database
from core.app.storage.schema import Job
from core.app.workers.controls import RESTART_MODES, read_worker_controls
from core.app.workers.registry import (
    forget_dead_workers,
    forget_workers,
    gone_workers_here,
    register_worker,
    touch_worker,
    unregister_worker,
)
from core.db import AsyncDatabaseManager
from core.leases import due_condition
from core.store import JobStore
from core.stored_messages import encode
from core.types import utcnow
from daemon.brokers.dispatch_signal import DispatchSignal
from daemon.limits import LimitWatch
from daemon.runtime import Runtime

__all__ = ["Supervisor"]

log = logging.getLogger(__name__)
SWEEP_LOCK_KEY = 0x5354_4A42  # "STJB": the PostgreSQL advisory lock of the sweep
FULL_PASS_EVERY = 1.0
"""Seconds between full dispatch passes over the oldest due rows (retries coming due, requeued rows, lost
messages, rows the quick pass missed)."""
CONTROLS_EVERY = 0.25
"""Seconds between looks at the switches (the queue paused, a restart asked): a pause takes effect within this."""
LIMITS_EVERY = 0.5
"""Seconds between looks at the running jobs' time limits."""
IDLE_CHECK_EVERY = 5.0
"""Seconds between looks at whether the worker was idle for the ``model.unload_after_minutes`` setting."""
FULL_PASS_ROWS = 100
"""The oldest due rows a full pass looks at: a backlog of thousands is re-read in part, oldest first."""


class Supervisor(threading.Thread):
    """Leases, liveness and dispatch for one daemon. ``start()``, then ``stop()`` at shutdown.

    Args:
        runtime: The daemon's runtime (its running jobs and dispatcher).
        version: Written to the worker row.
        threads: How many jobs the daemon runs at once (written to the worker row).
        dispatch_every: Seconds between dispatch checks (SQLite: a query only when something was committed; when to
            look: :mod:`daemon.brokers.dispatch_signal`).
        poll_every: Seconds between quick dispatch queries on PostgreSQL while it cannot listen for notifications
            (an index range scan over the newest rows).
        redispatch_after: A queued row still waiting this long after its message gets another one.
    """

    def __init__(
        self,
        runtime: Runtime,
        *,
        version: str,
        threads: int,
        dispatch_every: float = 0.05,
        redispatch_after: float = 120.0,
        poll_every: float = 0.025,
    ) -> None:
        super().__init__(name="studyjobs-supervisor", daemon=True)
        self.runtime = runtime
        self.version = version
        self.threads = threads
        self.dispatch_every = dispatch_every
        self.redispatch_after = redispatch_after
        self.poll_every = poll_every
        stale_after = runtime.settings.stale_after
        self.heartbeat_every = max(min(5.0, stale_after / 4), 0.05)
        self.reclaim_every = max(min(10.0, stale_after / 2), 0.1)
        self.worker_id = runtime.worker_id
        self._stopping = threading.Event()
        self._hand_over = False  # at the stop, leave the row for the process that takes this one's place
        self._replaces = runtime.gave_back_by  # the pid whose row the first registration replaces
        self._registered = threading.Event()
        self._sent: dict[uuid.UUID, tuple[tuple[Any, ...], float]] = {}
        self._newest: Any = None  # the newest created_at of a due row seen: where the quick pass starts
        self._failure: BaseException | None = None
        self._limits = LimitWatch(runtime, runtime.settings.limits)
        self._written: tuple[int, str | None] = (0, None)  # the running jobs and model state last written

    def wait_registered(self, timeout: float = 30.0) -> None:
        """Block until the worker row exists (raises what went wrong if the thread failed first)."""
        deadline = time.monotonic() + timeout
        while not self._registered.wait(0.05):
            if self._failure is not None:
                raise self._failure
            if time.monotonic() > deadline:
                raise TimeoutError("the supervisor did not start")

    def stop(self, timeout: float = 5.0, *, hand_over: bool = False) -> None:
        """Stop the loop, remove the worker row, and wait for the thread.

        With ``hand_over`` (the worker gave its memory back and a fresh process takes its place) the row is renewed
        instead, for the fresh process to replace (:func:`core.app.workers.registry.register_worker`'s
        ``replaces_pid``).
        """
        self._hand_over = hand_over
        self._stopping.set()
        self.join(timeout)

    def run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as error:  # the daemon's main loop reports it
            self._failure = error
            log.exception("the supervisor stopped")

    async def _main(self) -> None:
        db = await open_app_database(self.runtime.settings.database_url)  # upgrades an older database first
        backoff = {"backoff": self.runtime.backoff} if self.runtime.backoff is not None else {}
        store = make_app_store(db, stale_after=self.runtime.settings.stale_after, **backoff)  # its retries: the jobs'
        try:
            await self._register(db)
            await self._read_controls(db)  # a paused queue is paused before the first message is consumed
            self._registered.set()
            await self._loop(db, store)
        finally:
            with contextlib.suppress(Exception):
                await self._leave(db)
            await db.dispose()

    async def _register(self, db: AsyncDatabaseManager) -> None:
        """Insert the worker row; the first time, in place of the row of the worker this process replaces."""
        self._written = (0, self.runtime.model_state())
        self.worker_id = await register_worker(
            db,
            host=socket.gethostname(),
            pid=os.getpid(),
            version=self.version,
            threads=self.threads,
            broker=redact_url(self.runtime.settings.broker_url),
            model_state=self._written[1],
            replaces_pid=self._replaces,
        )
        self._replaces = None
        self.runtime.worker_id = self.worker_id

    async def _leave(self, db: AsyncDatabaseManager) -> None:
        """At the stop: remove the worker row, or, handing over, renew it (no job, not stopping, the model's
        state) so that it counts as alive until the fresh process replaces it, and as dead if none does."""
        if not self._hand_over:
            await unregister_worker(db, self.worker_id)
            return
        await touch_worker(db, self.worker_id, running=0, stopping=False, model_state=self.runtime.model_state())
        log.info("the worker row %s stays for the fresh worker that takes its place", self.worker_id)

    async def _loop(self, db: AsyncDatabaseManager, store: JobStore[Job]) -> None:
        signal = DispatchSignal(
            db,
            dispatch_every=self.dispatch_every,
            poll_every=self.poll_every,
            listening_poll_every=FULL_PASS_EVERY,  # notified of every queued row, the quick poll is a safety net
            notified=self.runtime.wake_queue,
        )
        table_queue = self.runtime.rows_are_messages
        next_beat = next_reclaim = next_full = next_controls = next_limits = 0.0
        next_idle = time.monotonic() + self._idle_every()
        try:
            while not self._stopping.is_set():
                now = time.monotonic()
                sent = 0
                try:
                    await signal.keep_listening(now)
                    if now >= next_controls:
                        next_controls = now + CONTROLS_EVERY
                        if await self._read_controls(db):
                            next_full = 0.0  # jobs are taken again: send what waited, now
                    if now >= next_beat or self._row_changed():  # the window shows a job's end or a load at once
                        next_beat = now + self.heartbeat_every
                        await self._heartbeat(db, store)
                    if now >= next_limits:
                        next_limits = now + LIMITS_EVERY
                        await self._limits.check(store)
                    if now >= next_idle:
                        next_idle = now + self._idle_every()
                        await self.runtime.release_when_idle()
                    if now >= next_reclaim:
                        next_reclaim = now + self.reclaim_every
                        await self._reclaim(db, store)
                        next_full = 0.0  # look for what the reclaim requeued
                    if not table_queue and now >= next_full:
                        next_full = now + FULL_PASS_EVERY
                        signal.full_pass()
                        await self._dispatch(store, full=True)
                    elif not table_queue and signal.quick_pass_due(now):
                        sent = await self._dispatch(store, full=False)
                except Exception:
                    log.warning("supervisor tick failed; retrying", exc_info=True)
                await signal.pause(dispatching=not table_queue, burst=sent > 0)
        finally:
            await signal.close()

    def _idle_every(self) -> float:
        """How often to look whether the worker has been idle long enough to give its memory back: every 5 s,
        or a quarter of a shorter idle time."""
        minutes = self.runtime.settings.model.unload_after_minutes
        return IDLE_CHECK_EVERY if minutes <= 0 else max(min(IDLE_CHECK_EVERY, minutes * 15), 0.05)

    async def _heartbeat(self, db: AsyncDatabaseManager, store: JobStore[Job]) -> None:
        claims = self.runtime.claims()
        held = await store.heartbeat_many(claims) if claims else set()
        for job in self.runtime.running():
            if job.job_id in claims and job.job_id not in held:
                log.info("job %s is no longer ours (cancelled or taken over): stopping it", job.job_id)
                job.stop_event.set()
        self._written = (len(claims), self.runtime.model_state())
        stopping = self.runtime.stopping.is_set()
        if not await touch_worker(
            db, self.worker_id, running=len(claims), stopping=stopping, model_state=self._written[1]
        ):
            await self._register(db)  # another daemon forgot us as dead while we were busy

    def _row_changed(self) -> bool:
        """Whether the jobs running here or the model's state differ from what the worker's row says."""
        return self._written != (len(self.runtime.claims()), self.runtime.model_state())

    async def _read_controls(self, db: AsyncDatabaseManager) -> bool:
        """Apply the queue switch and a restart request to the runtime; ``True`` when the queue was just resumed
        (the messages consumed while it was paused must be sent again)."""
        controls = await read_worker_controls(db, self.worker_id)
        runtime = self.runtime
        if controls.restart in RESTART_MODES and controls.restart != runtime.restart:
            log.info("asked to start again to use new settings (%s); taking no new job", controls.restart)
            runtime.restart = controls.restart
        if controls.paused == runtime.paused.is_set():
            return False
        if controls.paused:
            runtime.paused.set()
            log.info("the queue is paused: taking no new job")
            return False
        runtime.paused.clear()
        log.info("the queue is resumed")
        self._sent.clear()
        runtime.forget_all_sent()
        runtime.wake_queue()
        return True

    async def _reclaim(self, db: AsyncDatabaseManager, store: JobStore[Job]) -> None:
        async with self._single_flight(db) as leader:
            if not leader:
                return
            gone = await gone_workers_here(db, host=socket.gethostname(), silent_for=2 * self.heartbeat_every)
            if gone:  # a crash of a worker of this machine (a clean exit unregisters): no need to wait for leases
                crashed = encode("worker_crashed")
                count = await store.reclaim_of_workers(gone, reason=crashed)
                log.warning("worker(s) %s ended without stopping; %d of their job(s) reclaimed", ", ".join(gone), count)
                await forget_workers(db, gone)
            count = await store.reclaim_stale(reason=encode("worker_lost"))
            if count:
                log.warning("reclaimed %d job(s) whose worker stopped responding", count)
            await forget_dead_workers(db, older_than=86_400)

    async def _dispatch(self, store: JobStore[Job], *, full: bool) -> int:
        """Send the messages of due rows that have none yet (or whose message seems lost); return how many.

        A ``full`` pass looks at the oldest due rows (retries whose time came, requeued and released rows, lost
        messages); the quick pass in between only at rows created since the newest one already seen.
        """
        if not self.runtime.taking_jobs():
            return 0
        m = store.model
        conditions = [due_condition(m, utcnow())]
        if not full and self._newest is not None:
            conditions.append(m.created_at >= self._newest)
        stmt = (
            select(m.id, m.kind, m.attempts, m.run_after, m.updated_at, m.created_at)  # columns, not whole rows
            .where(*conditions)
            .order_by(m.created_at)
            .limit(FULL_PASS_ROWS if full else 500)
        )
        due = (await store.db.execute(stmt)).rows
        now = time.monotonic()
        seen: set[uuid.UUID] = set()
        batch: list[tuple[str, uuid.UUID]] = []
        signatures: dict[uuid.UUID, tuple[Any, ...]] = {}
        for row in due:
            job_id, created_at = row["id"], row["created_at"]
            seen.add(job_id)
            self._newest = created_at if self._newest is None else max(self._newest, created_at)
            signature = (row["attempts"], row["run_after"], row["updated_at"])
            sent = self._sent.get(job_id)
            if sent is not None and sent[0] == signature and now - sent[1] < self.redispatch_after:
                continue
            if sent is None and self.runtime.sent_within(job_id, self.redispatch_after):
                self._sent[job_id] = (signature, now)  # this process sent it (a follow-up or a retry)
                continue
            batch.append((row["kind"], job_id))
            signatures[job_id] = signature
        if batch:
            self.runtime.dispatch_many(batch)  # raises when the broker is down: nothing is remembered as sent
            for job_id, signature in signatures.items():
                self._sent[job_id] = (signature, now)
        if full:
            # Forget what is no longer due — known only when the pass saw every due row; otherwise only what is
            # old enough to be sent again anyway.
            saw_all = len(due) < FULL_PASS_ROWS
            stale = [j for j, (_, at) in self._sent.items() if now - at >= self.redispatch_after]
            for job_id in [j for j in self._sent if j not in seen] if saw_all else stale:
                del self._sent[job_id]
            self.runtime.forget_sent(self.redispatch_after)
        return len(batch)

    @contextlib.asynccontextmanager
    async def _single_flight(self, db: AsyncDatabaseManager) -> AsyncIterator[bool]:
        """Whether this daemon leads the sweep now. SQLite: one daemon per file (the data folder lock)."""
        if db.dialect_name != "postgresql":
            yield True
            return
        async with db.engine.connect() as conn:
            got = bool(await conn.scalar(text("SELECT pg_try_advisory_lock(:k)"), {"k": SWEEP_LOCK_KEY}))
            try:
                yield got
            finally:
                if got:
                    await conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": SWEEP_LOCK_KEY})

"""When the broker dispatch looks at the due rows again: the one reader of the database's commit counter (SQLite's
``PRAGMA data_version``) outside the job library, and the pace of the supervisor's dispatch.

Screens and commands wait for jobs through the store's watch (``JobStore.watch``, ``watch_jobs``, ``watch_table``;
``tests/test_watching.py`` keeps it so). The dispatch reads the counter itself because neither of its readers can
wait on a watch: the embedded queue's consumers are Dramatiq's threads, which ask between their own waits and have
no event loop for an async watch to run on; and the supervisor's dispatch shares one tick with the leases, the
switches and the time limits on its own thread and engine, and its ``LISTEN`` connection on PostgreSQL also wakes
those consumers. Both need only "was anything committed since the last look", which the counter answers in
microseconds without a query. Not thread-safe, except :func:`commit_count`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from core.backends.postgres import QueuedJobListener
from core.db import AsyncDatabaseManager

__all__ = ["LISTEN_RETRY_EVERY", "QUICK_PASS_GAP", "DispatchSignal", "commit_count"]

log = logging.getLogger(__name__)

LISTEN_RETRY_EVERY = 5.0
"""Seconds between attempts to listen again after the PostgreSQL listening connection was lost."""
QUICK_PASS_GAP = 0.02
"""After a quick pass that sent messages, the pause before the next one: rows notified meanwhile go out together, in
one query and one broker round trip (a lone row is sent at once: the gap follows only a pass that found some)."""


def commit_count(db: AsyncDatabaseManager) -> int | None:
    """A number that changes whenever another connection commits to ``db`` (SQLite's ``PRAGMA data_version``, on a
    private connection: no query of the tables, never blocks a writer); ``None`` on a database without one
    (PostgreSQL: its notifications serve instead). Thread-safe."""
    return db.data_version()


class DispatchSignal:
    """Whether the supervisor's quick dispatch pass is due, and the wait until its next tick. One event loop.

    Args:
        db: The supervisor's database.
        dispatch_every: Seconds between ticks (SQLite: a pass only when something was committed).
        poll_every: Seconds between quick passes on PostgreSQL while it cannot listen for notifications.
        listening_poll_every: Seconds between quick passes on PostgreSQL while it listens (a safety net).
        notified: Called on the loop for every notification of a queued row (the embedded queue's wake-up).
    """

    def __init__(
        self,
        db: AsyncDatabaseManager,
        *,
        dispatch_every: float,
        poll_every: float,
        listening_poll_every: float,
        notified: Callable[[], None],
    ) -> None:
        self.db = db
        self.dispatch_every = dispatch_every
        self.poll_every = poll_every
        self.listening_poll_every = listening_poll_every
        self.woken = asyncio.Event()
        self.version: int | None = None  # the counter at the last pass; None: no pass yet, or no counter
        self._notified = notified
        self._next_poll = 0.0
        self._next_listen = 0.0
        self.listener = QueuedJobListener(db.engine, self._on_notified)

    def _on_notified(self) -> None:
        self.woken.set()
        self._notified()

    async def keep_listening(self, now: float) -> None:
        """Start listening on PostgreSQL when not listening (again at most every :data:`LISTEN_RETRY_EVERY`)."""
        if commit_count(self.db) is not None or self.listener.listening or now < self._next_listen:
            return
        self._next_listen = now + LISTEN_RETRY_EVERY
        try:
            if await self.listener.start():
                log.info("listening for queued jobs (PostgreSQL notifications)")
        except Exception:
            log.warning("cannot listen for queued jobs; polling every %.3f s instead", self.poll_every, exc_info=True)

    def full_pass(self) -> None:
        """A full pass is about to read the due rows: what was committed or notified until now is covered."""
        self.version = commit_count(self.db)
        self.woken.clear()

    def quick_pass_due(self, now: float) -> bool:
        """Whether something may have been queued since the last pass (a commit, a notification, or the poll's
        time without a listener); ``True`` counts as the pass being made."""
        current = commit_count(self.db)
        # A counter: a commit since the last pass. None (PostgreSQL): a notification, or the poll's time.
        due = current != self.version if current is not None else self.woken.is_set() or now >= self._next_poll
        if due:
            self.version = current
            self.woken.clear()
            listening = self.listener.listening
            self._next_poll = now + (self.listening_poll_every if listening else self.poll_every)
        return due

    async def pause(self, *, dispatching: bool, burst: bool) -> None:
        """Until the next tick: ``dispatch_every`` on SQLite or when this process does not dispatch; on PostgreSQL
        until notified (at most ``dispatch_every``), or ``poll_every`` without a listener. After a ``burst`` (a pass
        that sent messages), first :data:`QUICK_PASS_GAP`, so rows queued meanwhile go out together."""
        if not dispatching or self.version is not None:
            await asyncio.sleep(self.dispatch_every)
            return
        if not self.listener.listening:
            await asyncio.sleep(min(self.dispatch_every, self.poll_every))
            return
        if burst:
            await asyncio.sleep(QUICK_PASS_GAP)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.woken.wait(), self.dispatch_every)

    async def close(self) -> None:
        """Stop listening."""
        with contextlib.suppress(Exception):
            await self.listener.close()

"""The change hubs behind every watch: one poller per event loop, database and job table, one batched query per tick;
on SQLite no query while ``data_version`` stands still (design: docs/design/jobs.md, "Watching").

Not thread-safe: a hub is used from the loop it was made on; the registry of hubs is guarded by a lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import uuid
from collections.abc import Iterable
from typing import Any

from sqlalchemy import or_, select

from core.backends.postgres import QueuedJobListener
from core.db import AsyncDatabaseManager
from core.models import BaseJobModel

__all__ = ["ChangeHub", "Subscription", "hub_of", "watchers"]

log = logging.getLogger(__name__)

Token = tuple[Any, ...]
"""What a watched job's rows were at the last look: its own ``(status, updated_at)`` and, when its children are
watched, theirs (``None`` for a row that is gone)."""


class Subscription:
    """One watcher's interest: some jobs (with their children, through the column ``children``), or the table.

    ``changed`` is set when something it watches changed; ``pending`` holds the watched ids whose rows changed since
    the watcher last took them (:meth:`take`).
    """

    __slots__ = ("blind_interval", "changed", "children", "ids", "interval", "looked", "pending", "tokens", "version")

    def __init__(
        self,
        ids: Iterable[uuid.UUID] | None,
        *,
        interval: float,
        children: str | None = None,
        tokens: dict[uuid.UUID, Token] | None = None,
        blind_interval: float | None = None,
        version: int | None = None,
    ) -> None:
        self.ids = None if ids is None else frozenset(ids)
        self.children = children
        self.interval = interval
        self.tokens: dict[uuid.UUID, Token] = dict(tokens or {})
        self.blind_interval = interval if blind_interval is None else blind_interval
        self.version = version
        self.looked = 0.0
        self.pending: set[uuid.UUID] = set()
        self.changed = asyncio.Event()

    def take(self) -> frozenset[uuid.UUID]:
        """The ids that changed since the last call (empty for a subscription to the table), and clear ``changed``."""
        self.changed.clear()
        taken, self.pending = frozenset(self.pending), set()
        return taken


class ChangeHub:
    """One poller for every watcher of one job table on one event loop: one batched query per tick.

    Runs a task only while someone watches; ticks at the smallest interval asked for.
    """

    def __init__(self, db: AsyncDatabaseManager, model: type[BaseJobModel]) -> None:
        self.db = db
        self.model = model
        self._subs: set[Subscription] = set()
        self._version: int | None = None
        self._notified = False
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    def subscribe(self, sub: Subscription) -> Subscription:
        """Start serving ``sub`` (its ``tokens`` are what its watcher has already seen)."""
        self._subs.add(sub)
        self._version = None  # the new subscriber's rows may already be stale: look at least once
        sub.looked = asyncio.get_running_loop().time()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="studyjobs-watch-hub")
        self._wake.set()  # a new, maybe shorter, interval
        return sub

    async def unsubscribe(self, sub: Subscription) -> None:
        """Stop serving ``sub``; the hub's task ends with its last subscriber, and the hub leaves the registry."""
        self._subs.discard(sub)
        if not self._subs:
            _forget(self)
        if not self._subs and self._task is not None:
            task, self._task = self._task, None
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def tokens(self, ids: Iterable[uuid.UUID], children: str | None) -> dict[uuid.UUID, Token]:
        """What the rows of ``ids`` (and their children, through the column ``children``) are now."""
        probe = Subscription(ids, interval=1.0, children=children)
        return self._tokens_of([probe], await self._look([probe]))[probe]

    async def _run(self) -> None:
        listener = QueuedJobListener(self.db.engine, self._on_notified)
        try:
            with contextlib.suppress(Exception):  # no notifications: the interval alone serves
                await listener.start()
            while self._subs:
                interval = min(s.interval for s in self._subs)
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), interval)
                try:
                    await self._tick()
                except Exception:  # a database hiccup must not end every watcher: the next tick retries
                    log.warning("watch tick failed; retrying", exc_info=True)
        finally:
            await listener.close()

    def _on_notified(self) -> None:
        self._notified = True
        self._wake.set()

    async def _tick(self) -> None:
        version = self.db.data_version()
        notified, self._notified = self._notified, False
        now = asyncio.get_running_loop().time()
        for sub in [s for s in self._subs if s.ids is None]:
            moved = sub.version != version if version is not None else now - sub.looked >= sub.blind_interval
            if moved or notified:
                sub.version, sub.looked = version, now
                sub.changed.set()
        if version is not None and version == self._version:
            return
        subs = [s for s in self._subs if s.ids is not None]
        if subs:
            current = self._tokens_of(subs, await self._look(subs))
            for sub, tokens in current.items():
                if sub not in self._subs:
                    continue  # left while this tick's query ran
                moved_ids = {job_id for job_id, token in tokens.items() if sub.tokens.get(job_id) != token}
                if moved_ids:
                    sub.tokens.update(tokens)
                    sub.pending |= moved_ids
                    sub.changed.set()
        self._version = version

    async def _look(self, subs: list[Subscription]) -> list[Any]:
        """The ``(id, status, updated_at, parent…)`` rows of every job the subscriptions watch, in one query."""
        m = self.model
        ids = {job_id for sub in subs for job_id in sub.ids or ()}
        columns = sorted({sub.children for sub in subs if sub.children is not None})
        if not ids:
            return []
        families = [getattr(m, name).in_(ids) for name in columns]
        stmt = select(m.id, m.status, m.updated_at, *[getattr(m, name) for name in columns])
        async with self.db.get_session_context() as session:
            return list((await session.execute(stmt.where(or_(m.id.in_(ids), *families)))).all())

    @staticmethod
    def _tokens_of(subs: list[Subscription], rows: list[Any]) -> dict[Subscription, dict[uuid.UUID, Token]]:
        own = {row.id: (row.status, row.updated_at) for row in rows}
        result: dict[Subscription, dict[uuid.UUID, Token]] = {}
        for sub in subs:
            tokens: dict[uuid.UUID, Token] = {}
            for job_id in sub.ids or ():
                children: frozenset[Any] | None = None
                if sub.children is not None:
                    name = sub.children
                    children = frozenset((r.id, r.status, r.updated_at) for r in rows if getattr(r, name) == job_id)
                tokens[job_id] = (own.get(job_id), children)
            result[sub] = tokens
        return result


_HubKey = tuple[asyncio.AbstractEventLoop, AsyncDatabaseManager, type[BaseJobModel]]
_hubs: dict[_HubKey, ChangeHub] = {}
"""The hubs that have watchers: one per event loop, database and job table. A hub leaves with its last watcher."""
_hubs_lock = threading.Lock()  # watchers run on several loops, in several threads


def hub_of(db: AsyncDatabaseManager, model: type[BaseJobModel]) -> ChangeHub:
    """The running loop's hub for ``model``'s rows on ``db`` (made when there is none)."""
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        for old in [key for key in _hubs if key[0].is_closed()]:
            del _hubs[old]
        hub = _hubs.get((loop, db, model))
        if hub is None:
            hub = _hubs[loop, db, model] = ChangeHub(db, model)
        return hub


def watchers(db: AsyncDatabaseManager, model: type[BaseJobModel]) -> int:
    """How many watchers of ``model``'s rows on ``db`` the running event loop's hub serves."""
    with _hubs_lock:
        hub = _hubs.get((asyncio.get_running_loop(), db, model))
    return 0 if hub is None else len(hub._subs)


def _forget(hub: ChangeHub) -> None:
    with _hubs_lock:
        for key in [key for key, known in _hubs.items() if known is hub]:
            del _hubs[key]

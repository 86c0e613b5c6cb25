"""``watch``: follow one job until it ends, cheaply, without ever holding a session between ticks.

All watchers of one job table share one :class:`ChangeHub` per event loop. Each tick the hub asks one question for
every watched job at once — ``SELECT id, status, updated_at … WHERE id IN (…)`` in a fresh short session — and
wakes only the watchers whose row changed; those read their full row (never the payload). On SQLite the hub first
asks ``PRAGMA data_version`` (on a private connection): when nothing at all was committed since the last look,
the tick costs microseconds and no query. A heartbeat does not touch ``updated_at``, so it wakes no one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import uuid
from collections.abc import AsyncIterator, Sequence
from typing import Any

from sqlalchemy import select

from core.db import AsyncDatabaseManager
from core.models import BaseJobModel
from core.rows import read_row
from core.status import TERMINAL_JOB_STATUSES

__all__ = ["DEFAULT_EMIT_ON", "ChangeHub", "watch_job", "watchers"]

log = logging.getLogger(__name__)

DEFAULT_EMIT_ON: tuple[str, ...] = ("status",)
_TERMINAL = frozenset(s.value for s in TERMINAL_JOB_STATUSES)


class _Subscription:
    __slots__ = ("changed", "interval", "job_id", "token")

    def __init__(self, job_id: uuid.UUID, interval: float, token: tuple[Any, ...] | None) -> None:
        self.job_id = job_id
        self.interval = interval
        self.token = token
        self.changed = asyncio.Event()


class ChangeHub:
    """One poller for every watcher of one job table on one event loop: one batched query per tick.

    Runs a task only while someone watches; ticks at the smallest interval asked for. Not thread-safe: use it
    from the loop it was made on.
    """

    def __init__(self, db: AsyncDatabaseManager, model: type[BaseJobModel]) -> None:
        self.db = db
        self.model = model
        self._subs: set[_Subscription] = set()
        self._version: int | None = None
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    def subscribe(self, job_id: uuid.UUID, interval: float, token: tuple[Any, ...]) -> _Subscription:
        """Start watching ``job_id``; ``token`` is ``(status, updated_at)`` of the row the watcher has."""
        sub = _Subscription(job_id, interval, token)
        self._subs.add(sub)
        self._version = None  # the new subscriber's row may already be stale: look at least once
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="studyjobs-watch-hub")
        self._wake.set()  # a new, maybe shorter, interval
        return sub

    async def unsubscribe(self, sub: _Subscription) -> None:
        """Stop watching; the hub's task ends with its last subscriber, and the hub leaves the registry."""
        self._subs.discard(sub)
        if not self._subs:
            _forget(self)
        if not self._subs and self._task is not None:
            task, self._task = self._task, None
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while self._subs:
            interval = min(s.interval for s in self._subs)
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), interval)
            try:
                await self._tick()
            except Exception:  # a database hiccup must not end every watcher: the next tick retries
                log.warning("watch tick failed; retrying", exc_info=True)

    async def _tick(self) -> None:
        version = self.db.data_version()
        if version is not None and version == self._version:
            return
        ids = list({sub.job_id for sub in self._subs})
        if not ids:
            return
        m = self.model
        async with self.db.get_session_context() as session:
            rows = (await session.execute(select(m.id, m.status, m.updated_at).where(m.id.in_(ids)))).all()
        self._version = version
        current: dict[uuid.UUID, tuple[Any, ...] | None] = dict.fromkeys(ids)  # None: the row is gone
        current.update({row.id: (row.status, row.updated_at) for row in rows})
        for sub in list(self._subs):
            if sub.job_id not in current:
                continue  # subscribed while this tick's query ran: the next tick looks
            token = current[sub.job_id]
            if token != sub.token:
                sub.token = token
                sub.changed.set()


_HubKey = tuple[asyncio.AbstractEventLoop, AsyncDatabaseManager, type[BaseJobModel]]
_hubs: dict[_HubKey, ChangeHub] = {}
"""The hubs that have watchers: one per event loop, database and job table. A hub leaves with its last watcher."""
_hubs_lock = threading.Lock()  # watchers run on several loops, in several threads


def _hub(db: AsyncDatabaseManager, model: type[BaseJobModel]) -> ChangeHub:
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


def _checked(model: type[BaseJobModel], interval: float, emit_on: Sequence[str]) -> tuple[str, ...]:
    """``emit_on`` as a tuple, once ``interval`` and every name in it are known to be valid."""
    if interval <= 0:
        raise ValueError("interval must be positive")
    fields = tuple(emit_on)
    for name in fields:
        if not hasattr(model, name):
            raise ValueError(f"emit_on names an unknown attribute: {name!r}")
    return fields


def _snapshot(job: Any, emit_on: Sequence[str]) -> tuple[Any, ...]:
    return tuple(getattr(job, name) for name in emit_on)


async def watch_job(
    db: AsyncDatabaseManager,
    model: type[BaseJobModel],
    job_id: uuid.UUID,
    *,
    interval: float,
    timeout: float | None,
    emit_on: Sequence[str],
) -> AsyncIterator[Any]:
    """Yield the job now, then on every change of an ``emit_on`` attribute, and always its terminal row; then end.

    A subscriber that arrives after the end gets exactly one row. Rows come without their payload
    (:mod:`core.rows`).

    Args:
        db: The database to read from.
        model: The job table.
        job_id: The job to follow.
        interval: Seconds between looks.
        timeout: Give up with :class:`TimeoutError` after this many seconds without reaching a terminal status.
        emit_on: Attribute names whose change yields a row (``"status"``, ``"progress"``, ``"stage"``,
            ``"message"``, ``"detail"`` …). The terminal row is yielded whatever this says.

    Raises:
        JobNotFoundError: the job does not exist (or was deleted while watched).
        TimeoutError: ``timeout`` passed first.
    """
    fields = _checked(model, interval, emit_on)
    loop = asyncio.get_running_loop()
    deadline = None if timeout is None else loop.time() + timeout
    job = await read_row(db, model, job_id, whole=False)
    yield job
    if job.status in _TERMINAL:
        return
    last = _snapshot(job, fields)
    hub = _hub(db, model)
    sub = hub.subscribe(job_id, interval, (job.status, job.updated_at))
    try:
        while True:
            remaining = None if deadline is None else deadline - loop.time()
            if remaining is not None and remaining <= 0:
                raise TimeoutError(f"job {job_id} did not finish within {timeout} s")
            try:
                await asyncio.wait_for(sub.changed.wait(), remaining)
            except TimeoutError:
                raise TimeoutError(f"job {job_id} did not finish within {timeout} s") from None
            sub.changed.clear()
            job = await read_row(db, model, job_id, whole=False)
            if job.status in _TERMINAL:
                yield job
                return
            snapshot = _snapshot(job, fields)
            if snapshot != last:
                last = snapshot
                yield job
    finally:
        await hub.unsubscribe(sub)

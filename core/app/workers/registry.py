"""The ``workers`` table: which daemon processes are alive, what they run, and whether they are stopping; a crashed
daemon's row stops counting once ``last_seen`` is older than the liveness window (docs/design/application.md). A worker
that gives its memory back leaves its row for the fresh process that takes its place (``register_worker``'s
``replaces_pid``), so that the table never says that no worker runs while one hands over to the next.

Every call is one short session (one statement); nothing is held between calls.
"""

from __future__ import annotations

import os
import uuid
from datetime import timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from core.app.settings.config import redact_url
from core.app.storage.schema import Worker
from core.app.workers.controls import RESTART_NOW
from core.app.workers.processes import process_gone
from core.db import AsyncDatabaseManager
from core.types import utcnow

__all__ = [
    "DEFAULT_ALIVE_WITHIN",
    "MODEL_STATES",
    "alive_workers",
    "forget_dead_workers",
    "forget_workers",
    "gone_workers_here",
    "list_workers",
    "register_worker",
    "touch_worker",
    "unregister_worker",
]

MODEL_STATES = ("loading", "unloaded")
"""What a worker's row may say of its local model (``workers.model_state``; ``None``: nothing to say)."""
DEFAULT_ALIVE_WITHIN = 15.0
"""Seconds since ``last_seen`` within which a worker counts as alive."""


async def register_worker(
    db: AsyncDatabaseManager,
    *,
    host: str,
    pid: int,
    version: str,
    threads: int,
    broker: str,
    model_state: str | None = None,
    replaces_pid: int | None = None,
) -> str:
    """Insert this process's row and return its id, ``"host:pid:uuid8"`` (unique even when a pid is reused).

    Args:
        db: The application database.
        host: The machine's name.
        pid: The process id.
        version: The program's version.
        threads: How many jobs it may run at once (at least 1).
        broker: The broker URL; stored with its password masked.
        model_state: What its local model is doing from the start (:data:`MODEL_STATES` or ``None``).
        replaces_pid: The pid of the worker of this machine ``host`` whose place this process takes (one that
            gave its memory back and left its row standing): its rows are removed in the same transaction that
            inserts this one, so a reader sees one worker or the other, never none. A restart asked of it passes
            to this row. A row left so and never replaced stops counting as alive like a crashed worker's.

    Raises:
        ValueError: ``threads`` below 1, or an unknown ``model_state``.
    """
    if threads < 1:
        raise ValueError("threads must be at least 1")
    if model_state is not None and model_state not in MODEL_STATES:
        raise ValueError(f"unknown model state {model_state!r}")
    worker_id = f"{host[:150]}:{pid}:{uuid.uuid4().hex[:8]}"
    now = utcnow()
    row = Worker(
        id=worker_id,
        host=host[:255],
        pid=pid,
        version=version,
        started_at=now,
        last_seen=now,
        threads=threads,
        running=0,
        broker=redact_url(broker),
        stopping=False,
        model_state=model_state,
    )
    async with db.get_session_context() as session:
        if replaces_pid is not None:
            row.restart_requested = await _take_place(session, host=row.host, pid=replaces_pid)
        session.add(row)
    return worker_id


async def _take_place(session: AsyncSession, *, host: str, pid: int) -> str | None:
    """Delete the rows of process ``pid`` of ``host`` in ``session``'s transaction (the delete is its first
    statement: SQLite takes the write lock there); returns the restart asked of them, ``"now"`` first."""
    deleted = delete(Worker).where(Worker.host == host, Worker.pid == pid).returning(Worker.restart_requested)
    asked = set((await session.scalars(deleted)).all())
    return RESTART_NOW if RESTART_NOW in asked else next((mode for mode in asked if mode), None)


async def touch_worker(
    db: AsyncDatabaseManager,
    worker_id: str,
    *,
    running: int,
    stopping: bool | None = None,
    model_state: str | None = None,
) -> bool:
    """Renew ``last_seen`` and record how many jobs the worker runs now, what its model is doing
    (:data:`MODEL_STATES` or ``None``) and, if given, whether it is stopping.

    Returns:
        ``False`` when the row is gone (someone forgot it as dead): the caller should register again.
    """
    if model_state is not None and model_state not in MODEL_STATES:
        raise ValueError(f"unknown model state {model_state!r}")
    values: dict[str, object] = {"last_seen": utcnow(), "running": max(int(running), 0), "model_state": model_state}
    if stopping is not None:
        values["stopping"] = stopping
    async with db.get_session_context() as session:
        result = await session.execute(update(Worker).where(Worker.id == worker_id).values(**values))
        return bool(result.rowcount)  # type: ignore[attr-defined]


async def unregister_worker(db: AsyncDatabaseManager, worker_id: str) -> bool:
    """Remove the worker's row (a clean exit). ``False`` when it was already gone."""
    async with db.get_session_context() as session:
        result = await session.execute(delete(Worker).where(Worker.id == worker_id))
        return bool(result.rowcount)  # type: ignore[attr-defined]


async def list_workers(db: AsyncDatabaseManager, *, alive_within: float | None = None) -> list[Worker]:
    """Registered workers, oldest start first.

    Args:
        db: The application database.
        alive_within: Only those seen within this many seconds; ``None`` lists every row, dead ones included.

    Raises:
        ValueError: a negative ``alive_within``.
    """
    stmt = select(Worker).order_by(Worker.started_at, Worker.id)
    if alive_within is not None:
        if alive_within < 0:
            raise ValueError("alive_within cannot be negative")
        stmt = stmt.where(Worker.last_seen >= utcnow() - timedelta(seconds=alive_within))
    async with db.get_session_context() as session:
        return list((await session.scalars(stmt)).all())


async def alive_workers(db: AsyncDatabaseManager, *, within: float = DEFAULT_ALIVE_WITHIN) -> list[Worker]:
    """Workers seen within the last ``within`` seconds, oldest start first."""
    return await list_workers(db, alive_within=within)


async def forget_dead_workers(db: AsyncDatabaseManager, *, older_than: float) -> int:
    """Delete rows not seen for ``older_than`` seconds (crashed daemons); returns how many were removed."""
    if older_than < 0:
        raise ValueError("older_than cannot be negative")
    cutoff = utcnow() - timedelta(seconds=older_than)
    async with db.get_session_context() as session:
        result = await session.execute(delete(Worker).where(Worker.last_seen < cutoff))
        return int(result.rowcount)  # type: ignore[attr-defined]


async def gone_workers_here(db: AsyncDatabaseManager, *, host: str, silent_for: float) -> list[str]:
    """Ids of the registered workers of machine ``host`` (this one) whose process has ended — a crash, since a
    clean exit unregisters — so that their jobs need not wait for their lease. This process never counts.

    Only rows silent for ``silent_for`` seconds are looked at (say twice the touch interval): a live worker of
    another machine that happens to share this machine's name keeps touching its row, so its pid, meaningless
    here, is never asked about.

    Raises:
        ValueError: a negative ``silent_for``.
    """
    if silent_for < 0:
        raise ValueError("silent_for cannot be negative")
    cutoff = utcnow() - timedelta(seconds=silent_for)
    stmt = select(Worker.id, Worker.pid).where(
        Worker.host == host[:255], Worker.pid != os.getpid(), Worker.last_seen < cutoff
    )
    async with db.get_session_context() as session:
        rows = (await session.execute(stmt)).all()
    return [worker_id for worker_id, pid in rows if process_gone(pid)]


async def forget_workers(db: AsyncDatabaseManager, worker_ids: list[str]) -> int:
    """Delete the rows of ``worker_ids``; returns how many were removed."""
    if not worker_ids:
        return 0
    async with db.get_session_context() as session:
        result = await session.execute(delete(Worker).where(Worker.id.in_(worker_ids)))
        return int(result.rowcount)  # type: ignore[attr-defined]

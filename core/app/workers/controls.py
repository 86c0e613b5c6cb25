"""Switches the window sets for every worker (table ``app_controls``: ``queue_paused``), and the requests that a worker
start again (:data:`RESTART_WHEN_IDLE`, :data:`RESTART_NOW`; docs/design/application.md).

Every call is one short session; nothing is held between calls. Safe from any event loop.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update

from core.app.storage.schema import AppControl, Worker
from core.db import AsyncDatabaseManager
from core.types import utcnow

__all__ = [
    "QUEUE_PAUSED",
    "RESTART_MODES",
    "RESTART_NOW",
    "RESTART_WHEN_IDLE",
    "WorkerControls",
    "get_control",
    "queue_paused",
    "read_worker_controls",
    "request_restart",
    "set_control",
    "set_queue_paused",
]

QUEUE_PAUSED = "queue_paused"
RESTART_WHEN_IDLE = "idle"
RESTART_NOW = "now"
RESTART_MODES = (RESTART_WHEN_IDLE, RESTART_NOW)


async def get_control(db: AsyncDatabaseManager, key: str, default: Any = None) -> Any:
    """The switch ``key``'s value (decoded JSON), or ``default`` when it was never set."""
    async with db.get_session_context() as session:
        raw = await session.scalar(select(AppControl.value).where(AppControl.key == key))
    return default if raw is None else json.loads(raw)


async def set_control(db: AsyncDatabaseManager, key: str, value: Any) -> None:
    """Set the switch ``key`` to ``value`` (anything JSON can hold), creating it when new."""
    encoded = json.dumps(value)
    async with db.get_session_context() as session:
        result = await session.execute(
            update(AppControl).where(AppControl.key == key).values(value=encoded, updated_at=utcnow())
        )
        if not result.rowcount:  # type: ignore[attr-defined]
            session.add(AppControl(key=key, value=encoded, updated_at=utcnow()))


async def queue_paused(db: AsyncDatabaseManager) -> bool:
    """Whether the queue is paused (no worker takes a job)."""
    return bool(await get_control(db, QUEUE_PAUSED, False))


async def set_queue_paused(db: AsyncDatabaseManager, paused: bool) -> None:
    """Pause (``True``) or resume (``False``) the queue for every worker."""
    await set_control(db, QUEUE_PAUSED, bool(paused))


async def request_restart(db: AsyncDatabaseManager, mode: str, worker_ids: Iterable[str] | None = None) -> int:
    """Ask workers to start again: ``worker_ids`` (default: every registered one). Returns how many rows were
    asked. A :data:`RESTART_NOW` already asked is not weakened to :data:`RESTART_WHEN_IDLE`.

    Raises:
        ValueError: ``mode`` is not one of :data:`RESTART_MODES`.
    """
    if mode not in RESTART_MODES:
        raise ValueError(f"restart mode {mode!r} must be one of {RESTART_MODES}")
    stmt = update(Worker).values(restart_requested=mode)
    if mode == RESTART_WHEN_IDLE:
        stmt = stmt.where((Worker.restart_requested.is_(None)) | (Worker.restart_requested != RESTART_NOW))
    if worker_ids is not None:
        ids = list(worker_ids)
        if not ids:
            return 0
        stmt = stmt.where(Worker.id.in_(ids))
    async with db.get_session_context() as session:
        result = await session.execute(stmt)
        return int(result.rowcount)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class WorkerControls:
    """What one worker must obey now: the queue paused, and a restart asked of it (``None``, ``"idle"``, ``"now"``)."""

    paused: bool
    restart: str | None


async def read_worker_controls(db: AsyncDatabaseManager, worker_id: str) -> WorkerControls:
    """The switches that concern ``worker_id``, read in one statement (a worker's supervisor calls it often)."""
    paused = select(AppControl.value).where(AppControl.key == QUEUE_PAUSED).scalar_subquery()
    restart = select(Worker.restart_requested).where(Worker.id == worker_id).scalar_subquery()
    row = (await db.execute(select(paused.label("paused"), restart.label("restart")))).first()
    raw = row["paused"] if row is not None else None
    return WorkerControls(
        paused=bool(raw is not None and json.loads(raw)), restart=row["restart"] if row is not None else None
    )

"""Leases: the heartbeat that says a running job is alive, and the reclaim of jobs whose worker went quiet.

A running job's lease is ``heartbeat_at``. Every write of the claim holder renews it (progress, message, an explicit
heartbeat), and the daemon renews it from a thread of its own while a local model holds the CPU. ``reclaim_stale``
looks at the heartbeat, never at ``started_at``: a job that keeps reporting is never reclaimed however long it runs.

Clocks: heartbeats are written with the writer's clock and compared with the sweeper's, so machines that share a
PostgreSQL database need synchronised clocks (NTP); a skew of a few seconds is harmless against ``stale_after``.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, TypeVar, cast

from sqlalchemy import CursorResult, and_, case, literal, null, or_, select, update
from sqlalchemy.sql import ColumnElement

from core.db import AsyncDatabaseManager
from core.messages import encode
from core.models import BaseJobModel
from core.rows import without_payloads
from core.statements import LifecycleStatements
from core.status import JobStatus
from core.types import UTCDateTime, utcnow

__all__ = [
    "DEFAULT_RECLAIM_REASON",
    "due_condition",
    "due_jobs",
    "heartbeat",
    "reclaim_of_workers",
    "reclaim_stale",
    "report_progress",
]

M = TypeVar("M", bound=BaseJobModel)

DEFAULT_RECLAIM_REASON = encode("worker_lost")
"""What a reclaimed row's ``error`` says by default (*The program working on this job stopped responding.*)."""


def _claim_held(m: type[BaseJobModel], attempt: int | None) -> tuple[ColumnElement[bool], ...]:
    if attempt is None:
        return (m.status == JobStatus.RUNNING,)
    return (m.status == JobStatus.RUNNING, m.attempts == attempt)


async def report_progress(
    db: AsyncDatabaseManager,
    statements: LifecycleStatements,
    job_id: uuid.UUID,
    progress: float,
    *,
    stage: str | None,
    message: str | None,
    detail: Mapping[str, Any] | None,
    phases: Sequence[Mapping[str, Any]] | None,
    attempt: int | None,
) -> bool:
    """See :meth:`JobStore.report_progress`."""
    params = {
        "job_id": job_id,
        "now": utcnow(),
        "progress": min(max(float(progress), 0.0), 1.0),
        "stage": stage,
        "message": message,
        "detail": None if detail is None else dict(detail),
        "phases": None if phases is None else [dict(p) for p in phases],
    }
    if attempt is None:
        result = await db.execute(statements.progress_open, params)
    else:
        result = await db.execute(statements.progress_held, {**params, "attempt": attempt})
    return result.rowcount > 0


async def heartbeat(
    db: AsyncDatabaseManager, m: type[BaseJobModel], claims: Mapping[uuid.UUID, int | None]
) -> set[uuid.UUID]:
    """Renew the leases of ``claims`` (job id → attempt or ``None``), one statement each; returns the ids still held.

    ``updated_at`` is left alone: a heartbeat is not a change a screen needs to repaint for.
    """
    now = utcnow()
    held: set[uuid.UUID] = set()
    for job_id, attempt in claims.items():
        stmt = (
            update(m).where(m.id == job_id, *_claim_held(m, attempt)).values(heartbeat_at=now, updated_at=m.updated_at)
        )
        if (await db.execute(stmt)).rowcount > 0:
            held.add(job_id)
    return held


async def reclaim_stale(
    db: AsyncDatabaseManager, m: type[BaseJobModel], *, stale_after: float | None, reason: str
) -> int:
    """Running rows whose lease expired go back to queued — or to failed once ``max_attempts`` is spent.

    A requeued row keeps its spent attempts, records ``reason`` as the last attempt's (transient) error and starts
    its next attempt with an empty bar. A row that ends failed drops its payload. Returns how many rows moved.
    """
    if stale_after is None:
        raise RuntimeError("reclaim_stale needs JobStore(stale_after=…): refusing to guess when a worker is dead")
    now = utcnow()
    cutoff = now - timedelta(seconds=stale_after)
    stale = or_(m.heartbeat_at < cutoff, (m.heartbeat_at.is_(None)) & (m.started_at < cutoff))
    return await _reclaim(db, m, stale, reason=reason, now=now)


async def reclaim_of_workers(
    db: AsyncDatabaseManager, m: type[BaseJobModel], worker_ids: Collection[str], *, reason: str
) -> int:
    """Running rows claimed by ``worker_ids`` (workers known to be gone) move as :func:`reclaim_stale` moves
    them, at once: nobody waits for their lease."""
    if not worker_ids:
        return 0
    return await _reclaim(db, m, m.worker_id.in_(list(worker_ids)), reason=reason, now=utcnow())


async def _reclaim(
    db: AsyncDatabaseManager, m: type[BaseJobModel], which: ColumnElement[bool], *, reason: str, now: datetime
) -> int:
    spent = m.attempts >= m.max_attempts
    stmt = (
        update(m)
        .where(m.status == JobStatus.RUNNING, which)
        .values(
            status=case((spent, JobStatus.FAILED.value), else_=JobStatus.QUEUED.value),
            finished_at=case((spent, literal(now, UTCDateTime())), else_=null()),
            payload=case((spent, null()), else_=m.payload),
            progress=case((spent, m.progress), else_=0.0),
            stage=case((spent, m.stage), else_=""),
            message="",
            error=reason,
            error_transient=True,
            heartbeat_at=None,
            worker_id=None,
            run_after=None,
            updated_at=now,
        )
        .execution_options(synchronize_session=False)
    )
    async with db.get_session_context() as session:
        result = cast("CursorResult[Any]", await session.execute(stmt))
        return int(result.rowcount)


def due_condition(model: Any, now: datetime) -> ColumnElement[bool]:
    """A queued row that may be claimed at ``now`` (no retry time, or a retry time that has come)."""
    return and_(model.status == JobStatus.QUEUED, or_(model.run_after.is_(None), model.run_after <= now))


async def due_jobs(db: AsyncDatabaseManager, m: type[M], *, older_than: float, limit: int) -> list[M]:
    """See :meth:`JobStore.due_jobs` (rows without their payload, :mod:`core.rows`)."""
    if limit <= 0:
        raise ValueError("limit must be at least 1")
    now = utcnow()
    touched_before = now - timedelta(seconds=older_than)
    stmt = (
        select(m).where(due_condition(m, now), m.updated_at <= touched_before).order_by(m.created_at, m.id).limit(limit)
    )
    async with db.get_session_context() as session:
        return without_payloads((await session.scalars(stmt)).all())

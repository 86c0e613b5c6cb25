"""Leases: the heartbeat that says a running job is alive, the reclaim of jobs whose worker went quiet, and the
queued rows that are due (design, and the clock rule: docs/design/jobs.md, "Leases and the reclaim").

Works over the database manager and the job model, never the store; coroutines on the caller's event loop.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import and_, or_, select
from sqlalchemy.sql import ColumnElement

from core.db import AsyncDatabaseManager
from core.models import BaseJobModel
from core.rows import without_payloads
from core.status import JobStatus
from core.stored_messages import encode
from core.types import utcnow

__all__ = ["DEFAULT_RECLAIM_REASON", "due_condition", "due_jobs"]

M = TypeVar("M", bound=BaseJobModel)

DEFAULT_RECLAIM_REASON = encode("worker_lost")
"""What a reclaimed row's ``error`` says by default (*The program working on this job stopped responding.*)."""


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

"""Closing a job: the values of a failed attempt (retry or dead letter, in one UPDATE), and why a close missed.

``fail`` decides between "queued again at ``run_after``" and "failed" inside the UPDATE itself, with ``CASE``
expressions over the row's own ``attempts``/``max_attempts`` — never by reading the row first.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import case, false, literal, null, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql import ColumnElement

from core.errors import JobAlreadyFinishedError, JobCancelledError, JobClaimLostError, JobNotFoundError
from core.retry import Backoff
from core.status import TERMINAL_JOB_STATUSES, JobStatus
from core.types import UTCDateTime

__all__ = ["failure_values", "why_not_closed"]

_TERMINAL = frozenset(s.value for s in TERMINAL_JOB_STATUSES)


def failure_values(model: Any, backoff: Backoff, *, reason: str, transient: bool, now: datetime) -> dict[str, Any]:
    """The UPDATE values of a failed attempt.

    A transient failure with attempts left goes back to queued at ``run_after`` (from the backoff, by the attempt
    number), keeping its payload, with an empty bar. Otherwise the job ends failed: payload dropped, the bar where
    it stopped. Either way ``error`` holds ``reason`` and the lease is released.
    """
    m = model
    requeue: ColumnElement[bool] = (m.attempts < m.max_attempts) if transient else false()
    steps = len(backoff.steps)
    retry_at = case(
        *[(m.attempts <= i + 1, literal(backoff.retry_at(i + 1, now), UTCDateTime())) for i in range(steps)],
        else_=literal(backoff.retry_at(steps, now), UTCDateTime()),
    )
    return {
        "status": case((requeue, JobStatus.QUEUED.value), else_=JobStatus.FAILED.value),
        "run_after": case((requeue, retry_at), else_=null()),
        "payload": case((requeue, m.payload), else_=null()),
        "finished_at": case((requeue, null()), else_=literal(now, UTCDateTime())),
        "progress": case((requeue, 0.0), else_=m.progress),
        "stage": case((requeue, ""), else_=m.stage),
        "heartbeat_at": None,
        "worker_id": None,
        "error": reason,
        "error_transient": transient,
    }


async def why_not_closed(session: AsyncSession, model: Any, job_id: uuid.UUID, attempt: int | None) -> Exception:
    """The precise error for a ``succeed``/``fail`` whose conditional UPDATE matched no row."""
    row = (await session.execute(select(model.status, model.attempts).where(model.id == job_id))).first()
    if row is None:
        return JobNotFoundError(job_id)
    if row.status == JobStatus.CANCELLED:
        return JobCancelledError(f"job {job_id} was cancelled")
    if attempt is not None and (row.attempts != attempt or row.status not in _TERMINAL):
        return JobClaimLostError(f"job {job_id}: attempt {attempt} lost its claim (now attempt {row.attempts})")
    return JobAlreadyFinishedError(f"job {job_id} is already {row.status}")

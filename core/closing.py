"""Why a close missed: the precise error for a ``succeed`` or ``fail`` whose conditional statement matched no row
(:mod:`core.transitions`)."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.errors import JobAlreadyFinishedError, JobCancelledError, JobClaimLostError, JobNotFoundError
from core.status import TERMINAL_JOB_STATUSES, JobStatus

__all__ = ["why_not_closed"]

_TERMINAL = frozenset(s.value for s in TERMINAL_JOB_STATUSES)


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

"""Job rows as the store hands them out: whole (``get``, ``claim``), with a dropped payload reading ``None``
(``succeed``, ``cancel``, a ``fail`` that ends failed), or without their payload, where reading ``payload`` raises
:class:`~core.errors.PayloadNotLoadedError` (docs/design/jobs.md, "Rows and payloads").

Helpers of the store and the leases; the coroutines run on the caller's event loop, the rest is pure.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any, TypeVar

from sqlalchemy import Select, inspect, select
from sqlalchemy.orm import undefer

from core.db import AsyncDatabaseManager
from core.errors import JobNotFoundError, PayloadNotLoadedError
from core.models import BaseJobModel
from core.status import JobStatus

__all__ = ["interrupted", "read_row", "select_row", "without_payload", "without_payloads"]

M = TypeVar("M", bound=BaseJobModel)


def _payload_not_loaded(state: Any, passive: Any) -> Any:
    job_id = state.dict.get("id")
    raise PayloadNotLoadedError(
        f"The payload of job {job_id} was not loaded: rows from list_recent, watch and due_jobs, and the rows that "
        "a state change returns while the job stays open (a claim carries it), never carry it; the rows of succeed, "
        "cancel and a final failure read it as None. Read the whole row with JobStore.get(job_id)."
    )


def without_payload(job: M) -> M:
    """Mark ``job`` as read without its payload: reading ``job.payload`` raises ``PayloadNotLoadedError``."""
    state = inspect(job)
    if "callables" not in state.__dict__:
        state.callables = {}
    state.callables["payload"] = _payload_not_loaded
    return job


def without_payloads(jobs: Iterable[M]) -> list[M]:
    """:func:`without_payload` of each row, as a list."""
    return [without_payload(job) for job in jobs]


def select_row(model: type[M], job_id: uuid.UUID, *, whole: bool) -> Select[M]:
    """The ``SELECT`` of one job's row, fresh from the database; with its payload when ``whole``."""
    stmt = select(model).where(model.id == job_id).execution_options(populate_existing=True)
    return stmt.options(undefer(model.payload)) if whole else stmt


async def read_row(db: AsyncDatabaseManager, model: type[M], job_id: uuid.UUID, *, whole: bool) -> M:
    """One job's current row in a short session (with its payload when ``whole``). Raises ``JobNotFoundError``."""
    async with db.get_session_context() as session:
        job = (await session.scalars(select_row(model, job_id, whole=whole))).first()
    if job is None:
        raise JobNotFoundError(job_id)
    return job if whole else without_payload(job)


async def interrupted(db: AsyncDatabaseManager, model: type[M], job_id: uuid.UUID, *, attempt: int | None) -> bool:
    """Whether the job was cancelled or is gone; with ``attempt``, also whether that claim no longer holds."""
    async with db.get_session_context() as session:
        row = (await session.execute(select(model.status, model.attempts).where(model.id == job_id))).first()
    if row is None or row.status == JobStatus.CANCELLED:
        return True
    return attempt is not None and (row.status != JobStatus.RUNNING or row.attempts != attempt)

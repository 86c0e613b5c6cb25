"""The queries behind ``JobStore.list_recent`` and ``count``: filters, newest-first order, keyset paging.

The order is ``(created_at, id)`` descending, which the indexes ``BaseJobModel`` declares serve directly, so the
first page and a page deep in 100,000 rows of history cost about the same.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Select, func, or_, select
from sqlalchemy.sql import ColumnElement

from core.status import JobStatus

__all__ = ["Cursor", "counting", "job_filters", "newest_first"]

Cursor = tuple[datetime, uuid.UUID]
"""Where a page of ``list_recent`` ended: the last row's ``(created_at, id)``."""


def job_filters(
    model: Any,
    *,
    kind: str | None,
    status: JobStatus | str | None,
    statuses: Iterable[JobStatus | str] | None,
    search: str | None,
) -> list[ColumnElement[bool]]:
    """The WHERE clauses for the listing filters; ``statuses`` is one ``IN``, so its halves cannot disagree.

    Raises:
        ValueError: both ``status`` and ``statuses``, an empty ``statuses``, or an unknown status.
    """
    if status is not None and statuses is not None:
        raise ValueError("pass status or statuses, not both")
    filters: list[ColumnElement[bool]] = []
    if kind is not None:
        filters.append(model.kind == kind)
    if status is not None:
        filters.append(model.status == JobStatus(status).value)
    if statuses is not None:
        wanted = tuple(JobStatus(s).value for s in statuses)
        if not wanted:
            raise ValueError("statuses is empty")
        filters.append(model.status.in_(wanted))
    if search:
        escaped = search.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        filters.append(func.lower(model.title).like(f"%{escaped}%", escape="\\"))
    return filters


def newest_first(
    model: Any, filters: Sequence[ColumnElement[bool]], *, limit: int, offset: int, before: Cursor | None
) -> Select[Any]:
    """``SELECT`` of one page, newest first (without payloads: the column is deferred)."""
    if limit <= 0:
        raise ValueError("limit must be at least 1")
    if offset < 0:
        raise ValueError("offset cannot be negative")
    stmt = select(model).where(*filters).order_by(model.created_at.desc(), model.id.desc()).limit(limit).offset(offset)
    if before is not None:
        created, last_id = before
        # "Older than the cursor", written so that a planner sees a range on the index's first column: SQLite turns
        # the plain `created_at < c OR (created_at = c AND id < i)` into a range only when the values are literals;
        # with bound parameters it walked the index from the newest row (17 ms at row 50,000 against 1.5 ms).
        older = or_(model.created_at < created, model.id < last_id)
        stmt = stmt.where(model.created_at <= created, older)
    return stmt


def counting(model: Any, filters: Sequence[ColumnElement[bool]]) -> Select[Any]:
    """``SELECT count(*)`` of the rows that match ``filters``."""
    return select(func.count()).select_from(model).where(*filters)

"""The job table as the embedded queue reads it: the due rows of a store, and the message built from one row.

A due row is ``status = 'queued'`` with ``run_after`` unset or past. Its message names the job's kind as the actor,
carries the job id as its only argument and as its ``message_id``, and nothing else: the row holds the rest.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from dramatiq.common import current_millis
from dramatiq.message import Message
from sqlalchemy import func, select

from core.leases import due_condition
from core.status import JobStatus
from core.store import JobStore
from core.types import utcnow
from daemon.brokers.dispatch_signal import commit_count

__all__ = ["READ_TIMEOUT", "DueRows", "JobRows", "row_message"]

READ_TIMEOUT = 10.0
"""Seconds a consumer waits for one read of the table on the store's event loop before it gives up (and looks
again later)."""


@dataclass(frozen=True, slots=True)
class DueRows:
    """One read of the table.

    Attributes:
        jobs: ``(kind, job id)`` of due rows, oldest first.
        next_due: When the earliest queued row that is not due yet becomes due (``time.time()`` seconds), if any
            (read only when ``jobs`` did not fill the limit).
    """

    jobs: list[tuple[str, uuid.UUID]]
    next_due: float | None


class JobRows:
    """The job table as a consumer reads it: through ``store``, on the event loop the store belongs to.

    Threading: :meth:`due` and :meth:`version` may be called from any thread but the store's loop.

    Args:
        store: The job store.
        loop: The running event loop that owns ``store``.
    """

    def __init__(self, store: JobStore[Any], loop: asyncio.AbstractEventLoop) -> None:
        self.store = store
        self.loop = loop

    def version(self) -> int | None:
        """A number that changes whenever another connection commits; ``None`` when the database has no such
        counter (PostgreSQL). See :func:`daemon.brokers.dispatch_signal.commit_count`."""
        return commit_count(self.store.db)

    def due(self, kinds: Sequence[str], limit: int) -> DueRows:
        """The oldest due rows of ``kinds`` (at most ``limit``), and when the next one comes due."""
        future = asyncio.run_coroutine_threadsafe(self._due(tuple(kinds), limit), self.loop)
        try:
            return future.result(READ_TIMEOUT)
        except BaseException:
            future.cancel()
            raise

    async def _due(self, kinds: tuple[str, ...], limit: int) -> DueRows:
        m = self.store.model
        now = utcnow()
        of_kinds = m.kind.in_(kinds)
        stmt = select(m.id, m.kind).where(due_condition(m, now), of_kinds).order_by(m.created_at, m.id).limit(limit)
        rows = (await self.store.db.execute(stmt)).rows
        jobs = [(str(row["kind"]), _as_uuid(row["id"])) for row in rows]
        next_due: float | None = None
        if len(jobs) < limit:
            later = select(func.min(m.run_after)).where(m.status == JobStatus.QUEUED, m.run_after > now, of_kinds)
            first = (await self.store.db.execute(later)).first()
            moment = None if first is None else next(iter(first.values()))
            next_due = _epoch(moment)
        return DueRows(jobs, next_due)


def _as_uuid(value: Any) -> uuid.UUID:
    return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))


def _epoch(moment: Any) -> float | None:
    """``time.time()`` seconds of a timestamp read by an aggregate (SQLite returns ``MIN()`` as naive UTC text)."""
    if moment is None:
        return None
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    if isinstance(moment, datetime):
        if moment.tzinfo is None:
            return moment.replace(tzinfo=utcnow().tzinfo).timestamp()
        return moment.timestamp()
    return None


def row_message(queue_name: str, kind: str, job_id: uuid.UUID) -> Message[Any]:
    """The message of one due row: actor = ``kind``, ``args = [job id]``, ``message_id`` = the job id."""
    text = str(job_id)
    return Message(
        queue_name=queue_name,
        actor_name=kind,
        args=(text,),
        kwargs={},
        options={},
        message_id=text,
        message_timestamp=current_millis(),
    )

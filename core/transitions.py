"""Every state change of a job row, in lifecycle order: one conditional statement each, in its own transaction,
decided by whether it matched (the table of changes and the reasons: docs/design/jobs.md, "State changes").

Used only by :class:`core.store.JobStore`, on the store's event loop. Nothing here raises for a statement that did
not match: the store turns that into its answer or error.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Float,
    Table,
    Uuid,
    bindparam,
    case,
    delete,
    false,
    func,
    insert,
    literal,
    null,
    or_,
    update,
)
from sqlalchemy.sql import ColumnElement
from sqlalchemy.sql.dml import Update
from sqlalchemy.sql.elements import BindParameter

from core.db import AsyncDatabaseManager
from core.models import BaseJobModel
from core.retry import Backoff
from core.status import OPEN_JOB_STATUSES, JobStatus
from core.types import UTCDateTime, utcnow

__all__ = ["Row", "Transitions"]

Row = Mapping[str, Any]
"""A job row as a statement returned it (every column but the payload, unless the change returns it)."""

_QUEUED, _RUNNING = JobStatus.QUEUED.value, JobStatus.RUNNING.value
_FAILED, _CANCELLED, _DONE = JobStatus.FAILED.value, JobStatus.CANCELLED.value, JobStatus.DONE.value


class Transitions:
    """The state changes of one job table on one database, in lifecycle order.

    Args:
        db: The database manager (the statements run through :meth:`AsyncDatabaseManager.execute`).
        model: The :class:`BaseJobModel` subclass.

    Attributes:
        column_keys: The keys of every column, the payload included (what ``enqueue`` binds).
        columns: Every column but the payload (what a returned row carries).
    """

    def __init__(self, db: AsyncDatabaseManager, model: type[BaseJobModel]) -> None:
        self.db, self.model = db, model
        table = cast("Table", model.__table__)
        c = table.c
        self.column_keys = tuple(col.key for col in table.columns)
        self.columns = tuple(col for col in table.columns if col.key != "payload")
        job_id, now = bindparam("job_id", type_=Uuid()), bindparam("now", type_=UTCDateTime())
        running = c.status == _RUNNING
        held = update(table).where(c.id == job_id, running, c.attempts == bindparam("attempt"))
        is_open = or_(*(c.status == status for status in OPEN_JOB_STATUSES))  # compiled once: no expanding IN
        open_ = update(table).where(c.id == job_id, is_open)
        self._enqueue = insert(table)
        self._claim = _claim_statement(table, job_id, now).returning(*self.columns, c.payload)
        progress = _progress_values(table, now)
        self._progress_held = held.values(**progress)
        self._progress_open = update(table).where(c.id == job_id, running).values(**progress)
        done = _done_values(now)
        self._succeed = {
            (True, True): held.values(**done).returning(*self.columns),
            (False, True): open_.values(**done).returning(*self.columns),
            (True, False): held.values(**done).returning(c.id),
            (False, False): open_.values(**done).returning(c.id),
        }
        for statement in (
            self._enqueue,
            self._claim,
            self._progress_held,
            self._progress_open,
            *self._succeed.values(),
        ):
            db.prepare(statement)

    # -- enqueue, claim, progress, heartbeat -----------------------------------------------------------------

    async def enqueue(self, values: Mapping[str, Any]) -> None:
        """(none) → queued: insert the row of ``values`` (every column by its key). Raises ``IntegrityError`` when
        the id exists."""
        await self.db.execute(self._enqueue, values)

    async def claim(self, job_id: uuid.UUID, *, worker_id: str | None) -> Row | None:
        """queued → running when due; the row with its payload, or ``None`` when the job was not claimable."""
        return (await self.db.execute(self._claim, {"job_id": job_id, "now": utcnow(), "worker_id": worker_id})).first()

    async def progress(
        self,
        job_id: uuid.UUID,
        progress: float,
        *,
        stage: str | None,
        message: str | None,
        detail: Mapping[str, Any] | None,
        phases: Sequence[Mapping[str, Any]] | None,
        attempt: int | None,
    ) -> bool:
        """running → running: the bar (never backwards), the lease and what is given; ``False`` when not held."""
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
            return (await self.db.execute(self._progress_open, params)).rowcount > 0
        return (await self.db.execute(self._progress_held, {**params, "attempt": attempt})).rowcount > 0

    async def heartbeat(self, claims: Mapping[uuid.UUID, int | None]) -> set[uuid.UUID]:
        """running → running: renew each lease of ``claims`` (id → attempt or ``None``); the ids still held."""
        m, now = self.model, utcnow()
        held: set[uuid.UUID] = set()
        for job_id, attempt in claims.items():
            stmt = (
                update(m).where(m.id == job_id, *self._held(attempt)).values(heartbeat_at=now, updated_at=m.updated_at)
            )
            if (await self.db.execute(stmt)).rowcount > 0:
                held.add(job_id)
        return held

    # -- closing: succeed, fail --------------------------------------------------------------------------------

    async def succeed(
        self, job_id: uuid.UUID, *, result_id: uuid.UUID | None, attempt: int | None, message: str, whole_row: bool
    ) -> Row | None:
        """open → done; the closed row (``whole_row``) or its id alone, ``None`` when the fence did not match."""
        stmt = self._succeed[attempt is not None, whole_row]
        params = {"job_id": job_id, "now": utcnow(), "result_id": result_id, "message": message, "attempt": attempt}
        return (await self.db.execute(stmt, params)).first()

    async def fail(
        self, job_id: uuid.UUID, *, reason: str, transient: bool, attempt: int | None, backoff: Backoff
    ) -> Row | None:
        """open → queued at ``run_after`` (transient, attempts left) or failed; ``None`` when the fence did not
        match."""
        m, now = self.model, utcnow()
        requeue: ColumnElement[bool] = (m.attempts < m.max_attempts) if transient else false()
        steps = len(backoff.steps)
        retry_at = case(
            *[(m.attempts <= i + 1, literal(backoff.retry_at(i + 1, now), UTCDateTime())) for i in range(steps)],
            else_=literal(backoff.retry_at(steps, now), UTCDateTime()),
        )
        return await self._returning(
            job_id,
            self._open_or_held(attempt),
            status=case((requeue, _QUEUED), else_=_FAILED),
            run_after=case((requeue, retry_at), else_=null()),
            payload=case((requeue, m.payload), else_=null()),
            finished_at=case((requeue, null()), else_=literal(now, UTCDateTime())),
            progress=case((requeue, 0.0), else_=m.progress),
            stage=case((requeue, ""), else_=m.stage),
            heartbeat_at=None,
            worker_id=None,
            error=reason,
            error_transient=transient,
        )

    # -- back to the queue: release, reclaim ---------------------------------------------------------------

    async def release(self, job_id: uuid.UUID, *, attempt: int) -> bool:
        """running → queued without spending the attempt; ``False`` when the claim was not held."""
        m = self.model
        stmt = (
            update(m)
            .where(m.id == job_id, *self._held(attempt))
            .values(
                status=_QUEUED,
                attempts=m.attempts - 1,
                progress=0.0,
                stage="",
                message="",
                run_after=None,
                heartbeat_at=None,
                worker_id=None,
            )
        )
        return (await self.db.execute(stmt)).rowcount > 0

    async def reclaim_stale(self, *, stale_after: float, reason: str) -> int:
        """running → queued/failed for every row whose lease is older than ``stale_after`` seconds."""
        m, now = self.model, utcnow()
        cutoff = now - timedelta(seconds=stale_after)
        stale = or_(m.heartbeat_at < cutoff, (m.heartbeat_at.is_(None)) & (m.started_at < cutoff))
        return await self._reclaim(stale, reason=reason, now=now)

    async def reclaim_of_workers(self, worker_ids: Collection[str], *, reason: str) -> int:
        """running → queued/failed for every row claimed by ``worker_ids`` (workers known to be gone)."""
        if not worker_ids:
            return 0
        return await self._reclaim(self.model.worker_id.in_(list(worker_ids)), reason=reason, now=utcnow())

    async def _reclaim(self, which: ColumnElement[bool], *, reason: str, now: datetime) -> int:
        m = self.model
        spent = m.attempts >= m.max_attempts
        stmt = (
            update(m)
            .where(m.status == _RUNNING, which)
            .values(
                status=case((spent, _FAILED), else_=_QUEUED),
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
        )
        return (await self.db.execute(stmt)).rowcount

    # -- the user's: cancel, retry -------------------------------------------------------------------------

    async def cancel(self, job_id: uuid.UUID, *, reason: str | None) -> Row | None:
        """queued/running → cancelled; the row, or ``None`` when there was nothing to stop."""
        extra = {} if reason is None else {"message": reason}
        return await self._returning(
            job_id,
            (self.model.status.in_(OPEN_JOB_STATUSES),),
            status=_CANCELLED,
            payload=None,
            finished_at=utcnow(),
            run_after=None,
            heartbeat_at=None,
            **extra,
        )

    async def retry(self, job_id: uuid.UUID) -> Row | None:
        """failed/cancelled → queued with a fresh budget; the row, or ``None`` for any other job."""
        return await self._returning(
            job_id,
            (self.model.status.in_((_FAILED, _CANCELLED)),),
            status=_QUEUED,
            attempts=0,
            progress=0.0,
            stage="",
            message="",
            error=None,
            error_transient=False,
            result_id=None,
            run_after=None,
            started_at=None,
            finished_at=None,
            heartbeat_at=None,
            worker_id=None,
        )

    async def delete(self, job_id: uuid.UUID) -> bool:
        """done/failed/cancelled → gone; ``False`` when the job is unknown or still open."""
        m = self.model
        stmt = delete(m).where(m.id == job_id, m.status.in_((_DONE, _FAILED, _CANCELLED)))
        return (await self.db.execute(stmt)).rowcount > 0

    # -- fences --------------------------------------------------------------------------------------------

    def _held(self, attempt: int | None) -> tuple[ColumnElement[bool], ...]:
        """Running, and with ``attempt`` still this claim's."""
        m = self.model
        if attempt is None:
            return (m.status == _RUNNING,)
        return (m.status == _RUNNING, m.attempts == attempt)

    def _open_or_held(self, attempt: int | None) -> tuple[ColumnElement[bool], ...]:
        """Queued or running; with ``attempt``, running under this claim."""
        return (self.model.status.in_(OPEN_JOB_STATUSES),) if attempt is None else self._held(attempt)

    async def _returning(self, job_id: uuid.UUID, where: Sequence[ColumnElement[bool]], **values: Any) -> Row | None:
        """One conditional UPDATE of one row that returns the row as written (without its payload)."""
        m = self.model
        stmt = update(m).where(m.id == job_id, *where).values(**values).returning(*self.columns)
        return (await self.db.execute(stmt)).first()


def _claim_statement(table: Table, job_id: BindParameter[Any], now: BindParameter[Any]) -> Update:
    """queued → running for ``job_id`` when due at ``now``: a fresh attempt with an empty bar."""
    c = table.c
    return (
        update(table)
        .where(c.id == job_id, c.status == _QUEUED, or_(c.run_after.is_(None), c.run_after <= now))
        .values(
            status=_RUNNING,
            attempts=c.attempts + 1,
            started_at=now,
            heartbeat_at=now,
            updated_at=now,
            worker_id=bindparam("worker_id"),
            finished_at=None,
            run_after=None,
            progress=0.0,
            stage="",
            message="",
        )
    )


def _progress_values(table: Table, now: BindParameter[Any]) -> dict[str, Any]:
    """A progress write's values: the bar never backwards, the lease, and each optional column kept when ``NULL``."""
    c = table.c
    value = bindparam("progress", type_=Float())
    return {
        "progress": case((c.progress < value, value), else_=c.progress),
        "heartbeat_at": now,
        "updated_at": now,
        "stage": func.coalesce(bindparam("stage", type_=c.stage.type), c.stage),
        "message": func.coalesce(bindparam("message", type_=c.message.type), c.message),
        # none_as_null: an absent value binds SQL NULL (not the JSON text 'null'), so the column is kept.
        "detail": func.coalesce(bindparam("detail", type_=JSON(none_as_null=True)), c.detail),
        "phases": func.coalesce(bindparam("phases", type_=JSON(none_as_null=True)), c.phases),
    }


def _done_values(now: BindParameter[Any]) -> dict[str, Any]:
    """A success's values: a full bar, the result, no payload, no lease, no error."""
    return {
        "status": _DONE,
        "progress": 1.0,
        "result_id": bindparam("result_id", type_=Uuid()),
        "payload": None,
        "finished_at": now,
        "updated_at": now,
        "heartbeat_at": None,
        "error": None,
        "error_transient": False,
        "message": bindparam("message"),
    }

"""The lifecycle's hottest statements, built once per job table with bind parameters.

Building a SQLAlchemy statement costs more than SQLite takes to run it; ``enqueue``, ``claim`` and ``succeed`` run
once per job and a progress write several times a second while a job runs, so their statements are built here
once, on the table (plain Core, no ORM bookkeeping), and each call only binds its values. Every statement is the
same conditional write the store documents; nothing here decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Column, Float, Insert, Table, Update, Uuid, bindparam, case, func, insert, or_, update

from core.status import JobStatus
from core.types import UTCDateTime

__all__ = ["LifecycleStatements"]


@dataclass(frozen=True)
class LifecycleStatements:
    """Prebuilt ``INSERT`` / ``UPDATE … RETURNING`` statements of one job table.

    Attributes:
        columns: Every column but the payload (what a returned row carries).
        column_keys: The keys of every column, the payload included.
        enqueue: Insert one row (bind every column by its key).
        claim: queued → running for ``job_id`` at ``now`` by ``worker_id``; returns the row with its payload.
        succeed_held: running → done for ``job_id`` while ``attempt`` still holds the claim; returns the row.
        succeed_open: queued/running → done for ``job_id`` (no claim token); returns the row.
        succeed_held_id, succeed_open_id: the same two, returning only the id (for a caller with no use for the row:
            decoding a whole row costs more than SQLite takes to write it).
        progress_held: a running job's progress (never backwards), lease and ``updated_at`` at ``now`` while
            ``attempt`` holds the claim; ``stage``, ``message``, ``detail`` and ``phases`` are written when not
            ``None`` (each is bound, ``None`` keeps the column).
        progress_open: the same without a claim token.
    """

    columns: tuple[Column[Any], ...]
    column_keys: tuple[str, ...]
    enqueue: Insert
    claim: Update
    succeed_held: Update
    succeed_open: Update
    succeed_held_id: Update
    succeed_open_id: Update
    progress_held: Update
    progress_open: Update

    def prepared(self) -> tuple[Update | Insert, ...]:
        """Every statement a database manager should compile once (:meth:`core.db.AsyncDatabaseManager.prepare`)."""
        return (
            self.enqueue,
            self.claim,
            self.succeed_held,
            self.succeed_open,
            self.succeed_held_id,
            self.succeed_open_id,
            self.progress_held,
            self.progress_open,
        )

    @classmethod
    def build(cls, table: Table) -> LifecycleStatements:
        """The statements of ``table`` (a :class:`core.models.BaseJobModel` table)."""
        c = table.c
        columns = tuple(col for col in table.columns if col.key != "payload")
        job_id = bindparam("job_id", type_=Uuid())
        now = bindparam("now", type_=UTCDateTime())
        claim = (
            update(table)
            .where(
                c.id == job_id,
                c.status == JobStatus.QUEUED.value,
                or_(c.run_after.is_(None), c.run_after <= now),
            )
            .values(
                status=JobStatus.RUNNING.value,
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
            .returning(*columns, c.payload)
        )
        done = {
            "status": JobStatus.DONE.value,
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
        running = c.status == JobStatus.RUNNING.value
        held = update(table).where(c.id == job_id, running, c.attempts == bindparam("attempt"))
        open_ = or_(c.status == JobStatus.QUEUED.value, c.status == JobStatus.RUNNING.value)  # no expanding IN
        opened = update(table).where(c.id == job_id, open_)
        value = bindparam("progress", type_=Float())
        progress = {
            "progress": case((c.progress < value, value), else_=c.progress),
            "heartbeat_at": now,
            "updated_at": now,
            "stage": func.coalesce(bindparam("stage", type_=c.stage.type), c.stage),
            "message": func.coalesce(bindparam("message", type_=c.message.type), c.message),
            # none_as_null: an absent value binds SQL NULL (not the JSON text 'null'), so the column is kept.
            "detail": func.coalesce(bindparam("detail", type_=JSON(none_as_null=True)), c.detail),
            "phases": func.coalesce(bindparam("phases", type_=JSON(none_as_null=True)), c.phases),
        }
        return cls(
            columns=columns,
            column_keys=tuple(col.key for col in table.columns),
            enqueue=insert(table),
            claim=claim,
            succeed_held=held.values(**done).returning(*columns),
            succeed_open=opened.values(**done).returning(*columns),
            succeed_held_id=held.values(**done).returning(c.id),
            succeed_open_id=opened.values(**done).returning(c.id),
            progress_held=held.values(**progress),
            progress_open=update(table).where(c.id == job_id, running).values(**progress),
        )

"""The declarative base and the abstract job table: the application subclasses :class:`BaseJobModel` and picks
``__tablename__`` (docs/design/jobs.md, "Tables and databases"). Declarations only; safe to import anywhere.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Float, Index, Integer, LargeBinary, MetaData, String, Text, Uuid
from sqlalchemy.orm import DeclarativeBase, Mapped, declared_attr, mapped_column

from core.status import JobStatus
from core.types import UTCDateTime, utcnow

__all__ = ["Base", "BaseJobModel"]

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base of every table the library and the application declare (one metadata)."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class BaseJobModel(Base):
    """One unit of long work: the row that every screen reads and every worker claims.

    Seed columns: ``id``, ``kind``, ``status``, ``stage``, ``progress``, ``params``, ``payload``, ``result_id``,
    ``error``, ``attempts``, ``max_attempts``, ``started_at``, ``finished_at``, ``created_at``, ``updated_at``.

    Lease and fencing columns: ``heartbeat_at`` (renewed by every write of the claim holder), ``worker_id`` (who
    holds the claim). ``attempts`` is the claim's fencing token.

    Retry columns: ``run_after`` (a queued row is not claimable before it), ``error_transient`` (whether the last
    error was worth retrying).

    Screen columns: ``title`` (what the user calls it, searchable), ``message`` (one sentence for the user,
    usually stored as a code: :mod:`core.app.messages.sentences`), ``detail`` (counts, keyed as
    :mod:`core.app.documents.counters` says: ``pages_done``, ``sections_total`` …; ``document_id`` …) and
    ``phases`` (the plan's phases with their spans and expected seconds, so a screen can draw one bar per phase).

    ``payload`` is deferred: only :meth:`JobStore.get` and :meth:`JobStore.claim` load it (:mod:`core.rows`).
    """

    __abstract__ = True

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True, default=uuid.uuid4)
    kind: Mapped[str] = mapped_column(String(64), nullable=False)
    status: Mapped[str] = mapped_column(String(16), nullable=False, default=JobStatus.QUEUED.value)
    title: Mapped[str] = mapped_column(String(500), nullable=False, default="")
    stage: Mapped[str] = mapped_column(String(64), nullable=False, default="")
    progress: Mapped[float] = mapped_column(Float, nullable=False, default=0.0)
    message: Mapped[str] = mapped_column(Text, nullable=False, default="")
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False, default=dict)
    phases: Mapped[list[dict[str, Any]]] = mapped_column(JSON, nullable=False, default=list)
    params: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False, default=dict)
    payload: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True, deferred=True)
    result_id: Mapped[uuid.UUID | None] = mapped_column(Uuid, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    error_transient: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    max_attempts: Mapped[int] = mapped_column(Integer, nullable=False, default=3)
    worker_id: Mapped[str | None] = mapped_column(String(200), nullable=True)
    heartbeat_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    run_after: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow, onupdate=utcnow)

    @declared_attr.directive
    @classmethod
    def __table_args__(cls) -> tuple[Any, ...]:
        """Indexes that keep listing, reclaiming and dispatching fast over long histories.

        ``status, created_at, id`` serves every lookup by status: the dispatch passes (queued rows, oldest first)
        and the reclaim (running rows: a handful, one per busy worker thread). Every index that holds ``status`` is
        rewritten by each claim and each close, so there is no second one.
        """
        name = cls.__tablename__
        return (
            Index(f"ix_{name}_created", "created_at", "id"),
            Index(f"ix_{name}_status_created", "status", "created_at", "id"),
            Index(f"ix_{name}_kind_created", "kind", "created_at", "id"),
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id} {self.kind} {self.status} {self.progress:.2f} {self.stage!r}>"

"""The application's concrete tables, all on :class:`core.models.Base` (one metadata): ``jobs``, ``documents``,
``study_guides``, ``workers``, ``guide_sections``, ``app_controls``.

A test asserts that the migrated schema equals these models: change both together. Deletion rules and history:
docs/design/storage.md. Declarations only.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, Boolean, ForeignKey, Integer, String, Text, Uuid
from sqlalchemy.orm import Mapped, mapped_column

from core.models import Base, BaseJobModel
from core.stages import StageMap
from core.types import UTCDateTime, utcnow

__all__ = [
    "APP_TABLE_NAMES",
    "DOCUMENT_STAGES",
    "AppControl",
    "Document",
    "GuideSection",
    "Job",
    "StudyGuide",
    "Worker",
]

DOCUMENT_STAGES = StageMap(["extract", "outline", "write"])
"""The stages of one document: ``status_extract``/``error_extract``/``result_extract`` and so on."""


class Job(BaseJobModel):
    """The application's job table (kinds ``ingest`` and ``generate``).

    ``result_id`` is the :class:`Document` an ``ingest`` produced or the :class:`StudyGuide` a ``generate``
    produced; it carries no foreign key (see the module docstring).
    """

    __tablename__ = "jobs"

    parent_id: Mapped[uuid.UUID | None] = mapped_column(Uuid, nullable=True, index=True)
    """The job this one continues: a ``generate`` job's ``ingest`` job. A document is its root job (``None``
    here) and its children; screens show the pair as one thing. No foreign key: the history is pruned by the
    application (removing a root removes its children, :mod:`core.app.documents.pipelines`)."""


class Document(Base):
    """One imported file (PDF, DOCX, EPUB or text) and what was extracted from it.

    ``text`` (the extracted text) is deferred: listing documents never loads it; use
    ``select(Document).options(undefer(Document.text))`` when it is needed. Very large texts live in a file
    named by ``text_path`` instead, and ``text`` stays ``None``.

    The stage columns are the ones :data:`DOCUMENT_STAGES` resolves to: ``status_<stage>`` holds a
    :class:`core.stages.StageStatus` value (``None``: never asked for), ``error_<stage>`` the user-facing
    error of the last run, ``result_<stage>`` the stage's result (text, e.g. the outline as JSON).
    """

    __tablename__ = "documents"

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True, default=uuid.uuid4)
    source_name: Mapped[str] = mapped_column(String(500), nullable=False)
    source_path: Mapped[str] = mapped_column(Text, nullable=False)
    size_bytes: Mapped[int] = mapped_column(BigInteger, nullable=False, default=0)
    content_hash: Mapped[str] = mapped_column(String(64), nullable=False, index=True)
    mime: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    format: Mapped[str] = mapped_column(String(16), nullable=False, default="")
    language: Mapped[str | None] = mapped_column(String(16), nullable=True)
    page_count: Mapped[int | None] = mapped_column(Integer, nullable=True)
    char_count: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str | None] = mapped_column(Text, nullable=True, deferred=True)
    text_path: Mapped[str | None] = mapped_column(Text, nullable=True)
    structure: Mapped[str | None] = mapped_column(Text, nullable=True, deferred=True)
    """The pages and chapters of the text's paragraphs, JSON
    (:class:`core.app.documents.structure.DocumentStructure`)."""

    status_extract: Mapped[str | None] = mapped_column(String(16), nullable=True)
    error_extract: Mapped[str | None] = mapped_column(Text, nullable=True)
    result_extract: Mapped[str | None] = mapped_column(Text, nullable=True)
    status_outline: Mapped[str | None] = mapped_column(String(16), nullable=True)
    error_outline: Mapped[str | None] = mapped_column(Text, nullable=True)
    result_outline: Mapped[str | None] = mapped_column(Text, nullable=True)
    status_write: Mapped[str | None] = mapped_column(String(16), nullable=True)
    error_write: Mapped[str | None] = mapped_column(Text, nullable=True)
    result_write: Mapped[str | None] = mapped_column(Text, nullable=True)

    created_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow, onupdate=utcnow)

    def __repr__(self) -> str:
        return f"<Document {self.id} {self.source_name!r} {self.format} {self.language}>"


class StudyGuide(Base):
    """One generated study guide.

    ``job_id`` is the ``generate`` job that wrote it, UNIQUE so that a retried or twice-delivered job never
    writes two guides. ``document_id`` becomes ``None`` when the source document is deleted (the guide is
    kept). ``markdown`` (deferred) is a copy of the file at ``path``, so the guide can be shown and
    re-exported even when the file was moved or deleted.
    """

    __tablename__ = "study_guides"

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True, default=uuid.uuid4)
    document_id: Mapped[uuid.UUID | None] = mapped_column(
        Uuid, ForeignKey("documents.id", ondelete="SET NULL"), nullable=True, index=True
    )
    job_id: Mapped[uuid.UUID] = mapped_column(Uuid, nullable=False, unique=True)
    title: Mapped[str] = mapped_column(String(500), nullable=False)
    language: Mapped[str] = mapped_column(String(16), nullable=False)
    path: Mapped[str] = mapped_column(Text, nullable=False)
    markdown: Mapped[str | None] = mapped_column(Text, nullable=True, deferred=True)
    model_name: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    section_count: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)

    def __repr__(self) -> str:
        return f"<StudyGuide {self.id} {self.title!r} job={self.job_id}>"


class Worker(Base):
    """A daemon process: registered at start, touched while alive, removed at a clean exit.

    ``id`` is ``"host:pid:uuid8"`` (unique even when a pid is reused). ``last_seen`` is the liveness signal
    (indexed: "who is alive" is a range query). ``running`` is how many jobs it runs now, ``threads`` how many
    it may run at once, ``broker`` the broker URL with any password masked, and ``stopping`` says it is
    draining. See :mod:`core.app.workers.registry`.
    """

    __tablename__ = "workers"

    id: Mapped[str] = mapped_column(String(200), primary_key=True)
    host: Mapped[str] = mapped_column(String(255), nullable=False)
    pid: Mapped[int] = mapped_column(Integer, nullable=False)
    version: Mapped[str] = mapped_column(String(64), nullable=False, default="")
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)
    last_seen: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow, index=True)
    threads: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    running: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    broker: Mapped[str] = mapped_column(Text, nullable=False, default="")
    stopping: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    restart_requested: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """Set by the window after a settings change the worker uses: ``"idle"`` (start again once no job runs) or
    ``"now"`` (hand the running jobs back and start again); the worker clears it by exiting."""
    model_state: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """What the worker's local model is doing (:data:`core.app.workers.registry.MODEL_STATES`): ``"loading"``,
    ``"unloaded"`` (given back after the idle minutes), or ``None``."""

    def __repr__(self) -> str:
        return f"<Worker {self.id} running={self.running}/{self.threads} stopping={self.stopping}>"


class GuideSection(Base):
    """One section of the study guide a ``generate`` job is writing, stored as soon as it is written.

    ``(job_id, position)`` is the key: position 0 is the guide's head (title and overview), then the sections in
    order. A retried or reclaimed job finds the sections already written and continues after them; a screen
    shows the guide growing. ``origin`` says how the text was made (``"model"``, or ``"quotes"`` when the model's
    text failed its check and the section was built from the document's own sentences; ``"closing"`` for the
    glossary and coverage table after the last section; ``"plan"`` for the plan at position -1).
    """

    __tablename__ = "guide_sections"

    job_id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(String(500), nullable=False, default="")
    markdown: Mapped[str] = mapped_column(Text, nullable=False, default="")
    origin: Mapped[str] = mapped_column(String(16), nullable=False, default="model")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)

    def __repr__(self) -> str:
        return f"<GuideSection {self.job_id} #{self.position} {self.title!r}>"


class AppControl(Base):
    """One switch the window sets for every worker, by ``key`` (e.g. ``"queue_paused"``); ``value`` is JSON text."""

    __tablename__ = "app_controls"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text, nullable=False, default="null")
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow, onupdate=utcnow)


APP_TABLE_NAMES: frozenset[str] = frozenset(
    {
        Job.__tablename__,
        Document.__tablename__,
        StudyGuide.__tablename__,
        Worker.__tablename__,
        GuideSection.__tablename__,
        AppControl.__tablename__,
    }
)
"""The tables the migrations own. Anything else in the database (the embedded broker's tables, a library
user's own job table) is ignored by migrations and by the schema comparison."""

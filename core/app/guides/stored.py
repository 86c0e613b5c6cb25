"""A study guide as stored, finished or still being written: :func:`save_guide_part` (idempotent per job and position),
:func:`read_guide` (the finished guide, else the parts so far) and :func:`guide_job_for` (docs/design/documents.md,
"A guide while it is written").

Storing or deleting a part also sets its job's ``updated_at``, in the same transaction, so a watch of the document
(:meth:`core.app.documents.pipelines.Pipelines.watch`) sees the part as a change of the job, and a reader woken by it
finds the part committed.

Qt-free; every coroutine runs on the caller's event loop and holds a session only for its own statements.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Update, delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import undefer

from core.app.guides.markdown import HEAD_POSITION, join_guide
from core.app.storage.schema import GuideSection, Job, StudyGuide
from core.db import AsyncDatabaseManager
from core.status import JobStatus
from core.types import utcnow

PLAN_POSITION = -1
"""The ``guide_sections`` position of a guide's plan (origin ``"plan"``, the sections and the passages they
number as JSON): a retried job continues from it without planning again."""

CLOSING_ORIGIN = "closing"
"""The ``origin`` of a guide's closing part (the glossary and the coverage table, stored after the last section):
a part, but not a section, so a guide being written never counts it as one."""

__all__ = [
    "CLOSING_ORIGIN",
    "PLAN_POSITION",
    "GuideText",
    "StoredPart",
    "forget_guide_parts",
    "guide_job_for",
    "guide_wanted",
    "read_guide",
    "read_guide_parts",
    "read_guide_plan",
    "save_guide_part",
    "save_guide_plan",
]


@dataclass(frozen=True, slots=True)
class StoredPart:
    """A ``guide_sections`` row as read back: ``position`` 0 is the head."""

    position: int
    title: str
    markdown: str
    origin: str


@dataclass(frozen=True, slots=True)
class GuideText:
    """What there is to show of one ``generate`` job's guide.

    Attributes:
        job_id: The ``generate`` job.
        title: The guide's title ("" when not known yet).
        markdown: The whole guide when ``complete``, else the head and the sections written so far.
        complete: Whether the guide is finished (a ``study_guides`` row exists).
        sections: How many sections ``markdown`` holds (the head not counted).
        path: The exported file of a finished guide (it may have been moved or deleted since).
    """

    job_id: uuid.UUID
    title: str
    markdown: str
    complete: bool
    sections: int
    path: Path | None


async def save_guide_part(
    db: AsyncDatabaseManager, job_id: uuid.UUID, position: int, title: str, markdown: str, origin: str = "model"
) -> None:
    """Store one part of a guide, replacing what an earlier attempt stored at the same position, and mark its job
    changed (``updated_at``), in one transaction."""
    values = {
        "job_id": job_id,
        "position": position,
        "title": title,
        "markdown": markdown,
        "origin": origin,
        "created_at": utcnow(),
    }
    insert = sqlite_insert if db.is_sqlite else pg_insert
    statement = insert(GuideSection).values(**values)
    statement = statement.on_conflict_do_update(
        index_elements=[GuideSection.job_id, GuideSection.position],
        set_={key: statement.excluded[key] for key in ("title", "markdown", "origin", "created_at")},
    )
    async with db.get_session_context() as session:
        await session.execute(statement)
        await session.execute(_touched(job_id))


def _touched(job_id: uuid.UUID) -> Update:
    """The statement that marks ``job_id``'s row as changed (what a watch of the job compares) after a part."""
    return update(Job).where(Job.id == job_id).values(updated_at=utcnow())


async def read_guide_parts(db: AsyncDatabaseManager, job_id: uuid.UUID) -> list[StoredPart]:
    """The parts stored for ``job_id``, in position order (the head first; not the plan)."""
    statement = (
        select(GuideSection)
        .where(GuideSection.job_id == job_id, GuideSection.position >= HEAD_POSITION)
        .order_by(GuideSection.position)
    )
    async with db.get_session_context() as session:
        rows = (await session.scalars(statement)).all()
        return [StoredPart(r.position, r.title, r.markdown, r.origin) for r in rows]


async def save_guide_plan(db: AsyncDatabaseManager, job_id: uuid.UUID, plan: str) -> None:
    """Store the plan of ``job_id``'s guide (the writer's JSON) beside its parts, at :data:`PLAN_POSITION`."""
    await save_guide_part(db, job_id, PLAN_POSITION, "", plan, origin="plan")


async def read_guide_plan(db: AsyncDatabaseManager, job_id: uuid.UUID) -> str | None:
    """The plan stored for ``job_id`` (``None``: none yet)."""
    statement = select(GuideSection.markdown).where(
        GuideSection.job_id == job_id, GuideSection.position == PLAN_POSITION
    )
    async with db.get_session_context() as session:
        found: str | None = await session.scalar(statement)
        return found


async def forget_guide_parts(db: AsyncDatabaseManager, job_id: uuid.UUID, positions: Iterable[int]) -> None:
    """Delete the parts of ``job_id`` at ``positions`` (missing ones are ignored) and mark its job changed."""
    wanted = sorted(set(positions))
    if not wanted:
        return
    statement = delete(GuideSection).where(GuideSection.job_id == job_id, GuideSection.position.in_(wanted))
    async with db.get_session_context() as session:
        await session.execute(statement)
        await session.execute(_touched(job_id))


async def read_guide(db: AsyncDatabaseManager, job_id: uuid.UUID) -> GuideText | None:
    """The guide of ``generate`` job ``job_id`` as far as it is written (``None``: nothing written yet).

    A finished guide's Markdown is its ``markdown`` column, else its file's text; when neither is there (an old
    row whose file is gone), the stored parts. An unfinished guide is the stored parts joined; its ``sections``
    counts neither the head nor the closing part (:data:`CLOSING_ORIGIN`).
    """
    statement = select(StudyGuide).where(StudyGuide.job_id == job_id).options(undefer(StudyGuide.markdown))
    async with db.get_session_context() as session:
        guide = (await session.scalars(statement)).first()
    parts = await read_guide_parts(db, job_id) if guide is None or not guide.markdown else []
    if guide is not None:
        path = Path(guide.path) if guide.path else None
        markdown = guide.markdown or (await _read_file(path) if path is not None else None)
        if markdown is None and parts:
            markdown = join_guide([p.markdown for p in parts])
        return GuideText(job_id, guide.title, markdown or "", True, guide.section_count, path)
    if not parts:
        return None
    head = parts[0].title if parts[0].position == HEAD_POSITION else ""
    sections = sum(1 for p in parts if p.position != HEAD_POSITION and p.origin != CLOSING_ORIGIN)
    return GuideText(job_id, head, join_guide([p.markdown for p in parts]), False, sections, None)


async def guide_job_for(db: AsyncDatabaseManager, job_id: uuid.UUID) -> uuid.UUID | None:
    """The ``generate`` job whose guide the row ``job_id`` stands for (``None``: none that is done or running).

    A ``generate`` job stands for itself. Any other job is a document's root: of its ``generate`` children
    (``jobs.parent_id``), the newest one that is done, else the newest one running.
    """
    async with db.get_session_context() as session:
        kind = await session.scalar(select(Job.kind).where(Job.id == job_id))
        if kind is None:
            return None
        if kind == "generate":
            return job_id
        statement = (
            select(Job.id, Job.status)
            .where(Job.kind == "generate", Job.parent_id == job_id, Job.status.in_([JobStatus.DONE, JobStatus.RUNNING]))
            .order_by(Job.created_at.desc(), Job.id.desc())
        )
        found = (await session.execute(statement)).all()
    done: list[uuid.UUID] = [row.id for row in found if row.status == JobStatus.DONE]
    running: list[uuid.UUID] = [row.id for row in found if row.status == JobStatus.RUNNING]
    newest = done or running
    return newest[0] if newest else None


async def guide_wanted(db: AsyncDatabaseManager, job_id: uuid.UUID) -> bool:
    """Whether the row ``job_id`` is to have a guide: a ``generate`` job, or a root not added for its text only."""
    async with db.get_session_context() as session:
        row = (await session.execute(select(Job.kind, Job.params).where(Job.id == job_id))).first()
    if row is None:
        return False
    return row.kind == "generate" or not bool((row.params or {}).get("only_extract", False))


async def _read_file(path: Path) -> str | None:
    """The file's text on a worker thread (``None`` when it cannot be read)."""

    def read() -> str | None:
        try:
            return path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None

    return await asyncio.to_thread(read)

"""Where a finished document's output is: its newest finished study guide, or the source file when text only.

A row deleted since counts as no result. Coroutines on the window's loop. The rules: docs/design/window.md.
"""

from __future__ import annotations

import uuid
from pathlib import Path

from sqlalchemy import or_, select

from core.app.storage.schema import Document, Job, StudyGuide
from core.db import AsyncDatabaseManager
from core.status import JobStatus
from gui.documents.table_model import JobRow

__all__ = ["find_output", "newest_guide", "source_path"]


async def newest_guide(db: AsyncDatabaseManager, document_id: uuid.UUID) -> StudyGuide | None:
    """The newest study guide of the document whose root job is ``document_id`` made by a job that is done."""
    stmt = (
        select(StudyGuide)
        .join(Job, Job.id == StudyGuide.job_id)
        .where(or_(Job.parent_id == document_id, Job.id == document_id), Job.status == JobStatus.DONE.value)
        .order_by(Job.created_at.desc(), StudyGuide.created_at.desc())
        .limit(1)
    )
    async with db.get_session_context() as session:
        return (await session.scalars(stmt)).first()


async def find_output(db: AsyncDatabaseManager, job: JobRow) -> Path | None:
    """The file a document made (its newest finished guide, or its source when text only); ``None`` (yet)."""
    if job.wants_guide:
        guide = await newest_guide(db, job.id)
        if guide is not None:
            return Path(guide.path)
        for key in ("guide_path", "output_path"):
            if job.detail.get(key):
                return Path(str(job.detail[key]))
        return None
    if job.root.result_id is None or job.root.status != JobStatus.DONE:
        return None
    async with db.get_session_context() as session:
        found = await session.scalar(select(Document.source_path).where(Document.id == job.root.result_id))
    return Path(found) if found else None


def source_path(job: JobRow) -> Path | None:
    """The document the job read (from its root's params)."""
    raw = job.params.get("path")
    return Path(str(raw)) if raw else None

"""Where a finished job's output is: the study guide file, or the source document for a text-only job.

A guide is found by the job's ``result_id`` (a ``StudyGuide`` row), else by ``study_guides.job_id``, else by a
path the job left in its ``detail`` (``guide_path``/``output_path``). A row that was deleted since counts as no
result.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import or_, select

from core.db import AsyncDatabaseManager
from core.schema import Document, StudyGuide
from gui.jobs_model import JobRow

__all__ = ["find_output", "source_path"]


async def find_output(db: AsyncDatabaseManager, job: JobRow) -> Path | None:
    """The file a done job made (the guide), or ``None`` when there is none (yet)."""
    for key in ("guide_path", "output_path"):
        if job.detail.get(key):
            return Path(str(job.detail[key]))
    conditions = [StudyGuide.job_id == job.id]
    if job.result_id is not None:
        conditions.append(StudyGuide.id == job.result_id)
    async with db.get_session_context() as session:
        path = await session.scalar(select(StudyGuide.path).where(or_(*conditions)).limit(1))
        if path is None and job.result_id is not None:
            doc = await session.scalar(select(Document.source_path).where(Document.id == job.result_id))
            return Path(doc) if doc else None
    return Path(path) if path else None


def source_path(job: JobRow) -> Path | None:
    """The document the job read (from its params)."""
    raw = job.params.get("path")
    return Path(str(raw)) if raw else None

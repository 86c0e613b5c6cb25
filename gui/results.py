"""Where a finished job's output is: the study guide file, or the source document for a text-only job.

* A ``generate`` job (and any other kind): the ``study_guides`` row its ``result_id`` names, else the one whose
  ``job_id`` is the job's; else a path the job left in its ``detail`` (``guide_path``/``output_path``).
* An ``ingest`` job that asked for a guide: the guide of its follow-up ``generate`` job (see
  :func:`follow_up_job_id`), once that exists; ``None`` before.
* An ``ingest`` job that asked for the text only: the document it read (its ``result_id`` is the ``documents``
  row).

A row that was deleted since counts as no result.
"""

from __future__ import annotations

import uuid
from pathlib import Path

from sqlalchemy import select

from core.db import AsyncDatabaseManager
from core.schema import Document, StudyGuide
from gui.jobs_model import JobRow

__all__ = ["GENERATE_NAMESPACE", "find_output", "follow_up_job_id", "source_path"]

GENERATE_NAMESPACE = uuid.UUID("6f0c2a8e-3b7d-4d0e-9a55-2f61c7d0b002")
"""The namespace of the ``generate`` job ids an ``ingest`` job makes.

A copy of ``daemon.jobs.ingest.GENERATE_NAMESPACE`` (the GUI never imports the daemon): the two must stay equal.
"""


def follow_up_job_id(ingest_job_id: uuid.UUID) -> uuid.UUID:
    """The id of the ``generate`` job that an ``ingest`` job queues (the same on every attempt)."""
    return uuid.uuid5(GENERATE_NAMESPACE, str(ingest_job_id))


async def find_output(db: AsyncDatabaseManager, job: JobRow) -> Path | None:
    """The file a done job made (the guide), or ``None`` when there is none (yet)."""
    async with db.get_session_context() as session:
        if job.kind == "ingest":
            if job.only_extract:
                if job.result_id is None:
                    return None
                doc = await session.scalar(select(Document.source_path).where(Document.id == job.result_id))
                return Path(doc) if doc else None
            guide = await session.scalar(
                select(StudyGuide.path).where(StudyGuide.job_id == follow_up_job_id(job.id)).limit(1)
            )
            return Path(guide) if guide else None
        path = None
        if job.result_id is not None:
            path = await session.scalar(select(StudyGuide.path).where(StudyGuide.id == job.result_id))
        if path is None:
            path = await session.scalar(select(StudyGuide.path).where(StudyGuide.job_id == job.id).limit(1))
        if path is None and job.result_id is not None:
            doc = await session.scalar(select(Document.source_path).where(Document.id == job.result_id))
            path = doc
    if path:
        return Path(path)
    for key in ("guide_path", "output_path"):
        if job.detail.get(key):
            return Path(str(job.detail[key]))
    return None


def source_path(job: JobRow) -> Path | None:
    """The document the job read (from its params)."""
    raw = job.params.get("path")
    return Path(str(raw)) if raw else None

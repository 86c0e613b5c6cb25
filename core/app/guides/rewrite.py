"""Asking for one section of a finished study guide to be written again: :func:`rewrite_section` queues a new
``generate`` child of the same document (docs/design/documents.md, "Rewriting one section").

Qt-free; runs on the caller's event loop.
"""

from __future__ import annotations

import uuid

from core.app.documents.pipelines import queue_guide
from core.app.guides.stored import read_guide_parts, read_guide_plan
from core.app.storage.database import make_app_store
from core.app.storage.schema import Job
from core.db import AsyncDatabaseManager
from core.status import JobStatus

__all__ = ["rewrite_section"]


async def rewrite_section(db: AsyncDatabaseManager, job_id: uuid.UUID, position: int) -> uuid.UUID | None:
    """Queue the job that writes section ``position`` of ``job_id``'s finished guide again; its id.

    ``None`` when ``job_id`` is not a finished ``generate`` job, or its guide has no stored plan or no such
    section (the coverage table at the end is not a section).
    """
    async with db.get_session_context() as session:
        job = await session.get(Job, job_id)
    if job is None or job.kind != "generate" or job.status != JobStatus.DONE:
        return None
    if await read_guide_plan(db, job_id) is None:
        return None
    sections = [p.position for p in await read_guide_parts(db, job_id) if p.position > 0]
    if position not in sections or position == max(sections):  # the last part is the coverage table
        return None
    detail = {k: v for k, v in job.detail.items() if k in ("document_id", "ingest_job_id")}
    params = {**job.params, "rewrite_of": str(job_id), "rewrite_position": position}
    if job.parent_id is None:
        return None
    queued = await queue_guide(make_app_store(db), job.parent_id, title=job.title, params=params, detail=detail)
    return queued.id

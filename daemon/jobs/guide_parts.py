"""The parts of the guide a ``generate`` job writes, stored as they are written (``guide_sections``), and its plan.

What is stored is always one guide: parts of another outline are deleted before any new one is written. Runs on
the job's event loop; each save is one statement of its own. Reuse across attempts: docs/design/worker.md.
"""

from __future__ import annotations

import uuid

from core.app.guides.markdown import HEAD_POSITION, section_body
from core.app.guides.stored import (
    forget_guide_parts,
    read_guide_parts,
    read_guide_plan,
    save_guide_part,
    save_guide_plan,
)
from core.db import AsyncDatabaseManager
from daemon.guide_writer.writer import GuidePlan

__all__ = ["GuideParts"]


class GuideParts:
    """The stored parts of one job's guide.

    Args:
        db: The application database.
        job_id: The ``generate`` job.
    """

    def __init__(self, db: AsyncDatabaseManager, job_id: uuid.UUID) -> None:
        self.db = db
        self.job_id = job_id

    async def reusable(self, plan: GuidePlan) -> dict[int, str]:
        """The bodies of stored sections that belong to ``plan``, by position; deletes the other sections."""
        kept: dict[int, str] = {}
        stale: list[int] = []
        for part in await read_guide_parts(self.db, self.job_id):
            if part.position == HEAD_POSITION:
                continue
            body = None
            if part.position <= len(plan.sections) and part.title == plan.sections[part.position - 1][0]:
                body = section_body(part.markdown, part.title)
            if body is None:
                stale.append(part.position)
            else:
                kept[part.position] = body
        await forget_guide_parts(self.db, self.job_id, stale)
        return kept

    async def stored_plan(self) -> str | None:
        """The plan an earlier attempt stored (:meth:`GuidePlan.to_json`), or ``None``."""
        return await read_guide_plan(self.db, self.job_id)

    async def save_plan(self, plan: GuidePlan) -> None:
        """Store ``plan`` before any section is written, so a later attempt continues from it."""
        await save_guide_plan(self.db, self.job_id, plan.to_json())

    async def adopt(self, source: uuid.UUID, skip: int) -> bool:
        """Start from the plan and sections of another job's guide, all but the section at ``skip``, so only that
        one is written again (a user's request to rewrite one section). Nothing is copied when this job has a
        plan already (an earlier attempt adopted it). ``False`` when ``source`` has no stored plan."""
        if await self.stored_plan() is not None:
            return True
        plan = await read_guide_plan(self.db, source)
        if plan is None:
            return False
        for part in await read_guide_parts(self.db, source):
            if part.position not in (HEAD_POSITION, skip):
                await save_guide_part(self.db, self.job_id, part.position, part.title, part.markdown, part.origin)
        await save_guide_plan(self.db, self.job_id, plan)  # last: a stored plan means the copy is complete
        return True

    async def save(self, position: int, title: str, markdown: str, origin: str = "model") -> None:
        """Store one part (the writer's ``on_part``); ``origin`` is ``"model"``, ``"quotes"`` or ``"closing"``."""
        await save_guide_part(self.db, self.job_id, position, title, markdown, origin)

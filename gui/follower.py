"""Following one job live: ``JobStore.watch`` on the qasync loop, each changed row handed to a callback.

UI thread only: :meth:`JobFollower.follow` and :meth:`JobFollower.stop` are called from slots, the watch runs as a
task of the window's :class:`~gui.tasks.TaskGroup` (its errors reach the reporter; a job deleted meanwhile just ends
the watch). Following another job stops the previous watch first, so at most one runs.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from typing import Any

from core.errors import JobNotFoundError
from core.store import JobStore
from gui.jobs_model import JobRow
from gui.tasks import TaskGroup

__all__ = ["WATCH_FIELDS", "JobFollower"]

WATCH_FIELDS = ("status", "progress", "stage", "message")
"""The columns whose change is worth a repaint of the details panel."""


class JobFollower:
    """Watches one job at a time.

    Args:
        store: The job store.
        tasks: Where the watch runs.
        on_row: Called on the loop with each changed snapshot of the followed job.
        interval: Seconds between looks.
    """

    def __init__(
        self, store: JobStore[Any], tasks: TaskGroup, on_row: Callable[[JobRow], None], *, interval: float
    ) -> None:
        self.store, self.tasks, self.on_row, self.interval = store, tasks, on_row, interval
        self.job_id: uuid.UUID | None = None
        self.task: asyncio.Task[Any] | None = None

    @property
    def active(self) -> bool:
        """Whether a watch is running."""
        return self.task is not None and not self.task.done()

    def follow(self, job_id: uuid.UUID) -> None:
        """Stop the current watch, then watch ``job_id``."""
        self.stop()
        self.job_id = job_id
        self.task = self.tasks.start(
            self._watch(job_id), name="follow", on_error=lambda e: isinstance(e, JobNotFoundError)
        )

    def stop(self) -> None:
        """Stop watching (nothing happens when no watch runs)."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None
        self.job_id = None

    async def _watch(self, job_id: uuid.UUID) -> None:
        async for job in self.store.watch(job_id, interval=self.interval, emit_on=WATCH_FIELDS):
            if job_id != self.job_id:
                return
            self.on_row(JobRow.of(job))

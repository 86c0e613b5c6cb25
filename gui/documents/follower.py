"""Following one document live: its root job and newest child re-read on the qasync loop, each change handed on.

UI thread only: :meth:`JobFollower.follow` and :meth:`JobFollower.stop` are called from slots; the watch runs as a
task of the window's :class:`~gui.tasks.TaskGroup`, at most one at a time (following another document stops the
previous watch first).
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Callable
from typing import Any

from core.app.documents.pipelines import Pipelines
from core.store import JobStore
from gui.documents.table_model import JobRow
from gui.tasks import TaskGroup

__all__ = ["WATCH_FIELDS", "JobFollower"]

WATCH_FIELDS = ("status", "progress", "stage", "message")
"""The columns whose change is worth a repaint of the details panel."""


class JobFollower:
    """Watches one document at a time.

    Args:
        store: The job store.
        tasks: Where the watch runs.
        on_row: Called on the loop with each changed snapshot of the followed document.
        interval: Seconds between looks.
    """

    def __init__(
        self, store: JobStore[Any], tasks: TaskGroup, on_row: Callable[[JobRow], None], *, interval: float
    ) -> None:
        self.store, self.tasks, self.on_row, self.interval = store, tasks, on_row, interval
        self.pipelines = Pipelines(store)
        self.job_id: uuid.UUID | None = None
        self.task: asyncio.Task[Any] | None = None

    @property
    def active(self) -> bool:
        """Whether a watch is running."""
        return self.task is not None and not self.task.done()

    def follow(self, job_id: uuid.UUID) -> None:
        """Stop the current watch, then watch the document ``job_id``."""
        self.stop()
        self.job_id = job_id
        self.task = self.tasks.start(self._watch(job_id), name="follow")

    def stop(self) -> None:
        """Stop watching (nothing happens when no watch runs)."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None
        self.job_id = None

    async def _watch(self, job_id: uuid.UUID) -> None:
        """Hand on the document now, then each time it changes, until it has ended (its last state included)."""
        last: JobRow | None = None
        async with contextlib.aclosing(self.pipelines.follow(job_id, interval=self.interval)) as views:
            async for view in views:
                if job_id != self.job_id:
                    return
                if view != last or last is None or view.eta != last.eta:
                    last = view
                    self.on_row(view)

"""The model downloads as the window sees them: the ``download_model`` jobs, re-read when the store changes.

One :class:`DownloadFeed` per window; :class:`DownloadNote` is the status bar's word on a running download. UI
thread only; the queries run on the window's task group. Costs: docs/design/window.md.
"""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtWidgets import QPushButton, QWidget

from core.app.models.library import download_jobs
from core.progress import eta_seconds
from core.status import OPEN_JOB_STATUSES
from core.store import JobStore
from gui.tasks import Rerun, TaskGroup
from gui.texts import eta_text

__all__ = ["DownloadFeed", "DownloadNote"]


class DownloadFeed(QObject):
    """Follows the download jobs of ``store``.

    Args:
        store: The job store (on the qasync loop).
        tasks: Where the watch and the reads run.
        interval: Seconds between looks of the store's change hub.
        slow_interval: Seconds between reads where commits cannot be seen (PostgreSQL without a notification).

    Signals:
        changed: The download jobs by catalog id (``dict[str, Job]``), after every read that saw a change.

    Attributes:
        jobs: The last read (empty before the first).
    """

    changed = Signal(object)

    def __init__(
        self, store: JobStore[Any], tasks: TaskGroup, *, interval: float = 0.25, slow_interval: float = 0.25
    ) -> None:
        super().__init__()
        self.store, self.tasks = store, tasks
        self.interval, self.slow_interval = interval, slow_interval
        self.jobs: dict[str, Any] = {}
        self._reads = Rerun(tasks, self._read, name="downloads-read")
        self._follow: asyncio.Task[Any] | None = None

    def start(self) -> None:
        """Read now and keep reading on changes."""
        if self._follow is None or self._follow.done():
            self._follow = self.tasks.start(self._follow_table(), name="downloads-follow")

    def stop(self) -> None:
        """Stop reading (the window is hidden or closing)."""
        if self._follow is not None:
            self._follow.cancel()
            self._follow = None

    def refresh_now(self) -> None:
        """Read now even if the store did not say it changed."""
        self._reads.request()

    async def _follow_table(self) -> None:
        async for _ in self.store.watch_table(interval=self.interval, blind_interval=self.slow_interval):
            self._reads.request()

    async def _read(self) -> None:
        jobs = await download_jobs(self.store)
        if _shape(jobs) != _shape(self.jobs):
            self.jobs = jobs
            self.changed.emit(jobs)


def _shape(jobs: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(key, j.id, j.status, j.progress, j.updated_at, j.attempts) for key, j in sorted(jobs.items())]


class DownloadNote(QPushButton):
    """The status bar's note on the running model downloads; hidden when none runs. Click: ``open_requested``."""

    open_requested = Signal()

    def __init__(self, feed: DownloadFeed, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFlat(True)
        self.setVisible(False)
        self.setAccessibleName(QCoreApplication.translate("DownloadNote", "Model download"))
        self.clicked.connect(self.open_requested)
        feed.changed.connect(self.show_jobs)

    def show_jobs(self, jobs: dict[str, Any]) -> None:
        """Say how the running (or waiting) download is doing; hide when none is."""
        active = [job for job in jobs.values() if job.status in OPEN_JOB_STATUSES]
        if not active:
            self.setVisible(False)
            return
        job = active[0]
        if job.status == "queued":
            text = QCoreApplication.translate("DownloadNote", "Model download: waiting for the worker")
        else:
            text = QCoreApplication.translate("DownloadNote", "Model download: {percent} % · {left}").format(
                percent=round(job.progress * 100), left=eta_text(eta_seconds(job))
            )
        if len(active) > 1:
            text += QCoreApplication.translate("DownloadNote", " (+{n} more)").format(n=len(active) - 1)
        self.setText(text)
        tip = QCoreApplication.translate("DownloadNote", "{name}: open Settings → Model")
        self.setToolTip(tip.format(name=job.title))
        self.setVisible(True)

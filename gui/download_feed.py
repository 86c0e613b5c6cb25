"""The model downloads as the window sees them: the ``download_model`` jobs, re-read when the store changes.

One :class:`DownloadFeed` per window feeds the Model page, the welcome panel and the status bar's note. Like the
documents table (:mod:`gui.job_feed`) it asks the database every :attr:`DownloadFeed.interval` whether anything was
committed (``PRAGMA data_version`` on SQLite; on other backends it re-reads every tick) and only then reads the
download jobs (:func:`core.app.model_library.download_jobs`: one small query). A running download's row changes with
every progress write, so its bar, bytes, rate and time left are as fresh as the worker's last write.

:class:`DownloadNote` is the status bar's word on a running download ("Model download: 45 % · about 3 min left"),
a button that opens Settings → Model.

UI thread only; the queries run on the window's task group.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal
from PySide6.QtWidgets import QPushButton, QWidget

from core.app.model_library import download_jobs
from core.progress import eta_seconds
from core.store import JobStore
from gui.tasks import TaskGroup
from gui.texts import eta_text

__all__ = ["DownloadFeed", "DownloadNote"]


class DownloadFeed(QObject):
    """Follows the download jobs of ``store``.

    Signals:
        changed: The download jobs by catalog id (``dict[str, Job]``), after every read that saw a change.

    Attributes:
        jobs: The last read (empty before the first).
    """

    changed = Signal(object)

    def __init__(self, store: JobStore[Any], tasks: TaskGroup, *, interval: float = 0.25) -> None:
        super().__init__()
        self.store, self.tasks = store, tasks
        self.jobs: dict[str, Any] = {}
        self._version: int | None = None
        self._busy = False
        self._dirty = True
        self._timer = QTimer(self)
        self._timer.setInterval(round(interval * 1000))
        self._timer.timeout.connect(self._tick)

    def start(self) -> None:
        """Read now and keep reading on changes."""
        self._dirty = True
        self._timer.start()
        self._tick()

    def stop(self) -> None:
        """Stop reading (the window is hidden or closing)."""
        self._timer.stop()

    def refresh_now(self) -> None:
        """Read at the next tick even if the database did not say it changed."""
        self._dirty = True

    def _tick(self) -> None:
        if self._busy:
            return
        version = self.store.db.data_version()
        if version is not None and version == self._version and not self._dirty:
            return
        self._busy, self._dirty = True, False
        task = self.tasks.start(self._read(version), name="downloads-read")
        if task is None:
            self._busy = False
        else:
            task.add_done_callback(lambda _t: setattr(self, "_busy", False))

    async def _read(self, version: int | None) -> None:
        jobs = await download_jobs(self.store)
        self._version = version
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
        active = [job for job in jobs.values() if job.status in ("queued", "running")]
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

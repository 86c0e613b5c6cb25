"""Pause / Resume the queue: one window action (toolbar and menu) that sets ``app_controls["queue_paused"]``.

While the queue is paused no worker takes a job: running jobs finish, queued jobs wait, and the switch survives
restarts of the window and of the workers (it lives in the database: :mod:`core.app.workers.controls`). The action's
text says what it will do ("Pause the queue" / "Resume the queue"); the status bar
(:class:`gui.worker.status_corner.DaemonBar`) reads the switch at every look and says "Paused". UI thread only; the
write runs on the window's task group.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QToolBar

from core.app.workers.controls import set_queue_paused
from core.db import AsyncDatabaseManager
from gui.tasks import TaskGroup
from gui.worker.status_corner import DaemonBar

__all__ = ["QueuePause"]


class QueuePause(QObject):
    """The Pause/Resume action of a window, kept in step with the switch the status bar reads.

    Args:
        db: The application database.
        tasks: Where the write runs.
        bar: The status bar's worker corner (it reads the switch and shows it).
        window: The window that gets the action (toolbar and a "Queue" menu, :meth:`install`).
    """

    def __init__(self, db: AsyncDatabaseManager, tasks: TaskGroup, bar: DaemonBar, window: QMainWindow) -> None:
        super().__init__(window)
        self.db, self.tasks, self.bar = db, tasks, bar
        self.action = QAction(window)
        self.action.triggered.connect(lambda _checked=False: self.toggle())
        window.addAction(self.action)
        bar.paused_seen.connect(self._show)
        self._show(bar.paused)

    @property
    def paused(self) -> bool:
        """Whether the queue is paused, as last seen or set."""
        return self.bar.paused

    def install(self, window: QMainWindow) -> None:
        """Put the action in the window's main toolbar and in a "Queue" menu."""
        toolbar = window.findChild(QToolBar, "main-toolbar")
        if toolbar is not None:
            toolbar.addSeparator()
            toolbar.addAction(self.action)
        menu = window.menuBar().addMenu(QCoreApplication.translate("QueuePause", "&Queue"))
        menu.addAction(self.action)

    def toggle(self) -> None:
        """Pause the queue when it runs, resume it when it is paused."""
        self.set_paused(not self.paused)

    def set_paused(self, paused: bool) -> None:
        """Write the switch for every worker, then show it."""
        self.tasks.start(self._write(paused), name="queue-pause")

    async def _write(self, paused: bool) -> None:
        await set_queue_paused(self.db, paused)
        self.bar.set_paused(paused)

    def _show(self, paused: bool) -> None:
        if paused:
            self.action.setText(QCoreApplication.translate("QueuePause", "&Resume the queue"))
            self.action.setToolTip(QCoreApplication.translate("QueuePause", "Let the worker take queued jobs again"))
        else:
            self.action.setText(QCoreApplication.translate("QueuePause", "&Pause the queue"))
            self.action.setToolTip(
                QCoreApplication.translate(
                    "QueuePause", "Take no new job until you resume (running jobs finish; queued jobs wait)"
                )
            )
        self.action.setStatusTip(self.action.toolTip())

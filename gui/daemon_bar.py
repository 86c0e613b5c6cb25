"""The status bar's worker corner: is a daemon alive (from the ``workers`` table), how many jobs it runs, Start.

It looks every :attr:`DaemonBar.interval` seconds while the window is visible. Start launches the daemon through
:class:`gui.daemon_process.DaemonLauncher`; a process that could not start or ended at once is reported in plain
words here (never a crash).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from core.db import AsyncDatabaseManager
from core.workers import alive_workers
from gui.daemon_process import DaemonLauncher
from gui.tasks import TaskGroup

__all__ = ["DaemonBar"]


class DaemonBar(QWidget):
    """Shows the worker's state and offers Start when none is alive. UI thread only.

    Args:
        db: The application database.
        launcher: Starts the daemon.
        tasks: Where the queries run.
        interval: Seconds between looks.
    """

    def __init__(
        self,
        db: AsyncDatabaseManager,
        launcher: DaemonLauncher,
        tasks: TaskGroup,
        *,
        interval: float = 3.0,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.db = db
        self.launcher = launcher
        self.tasks = tasks
        self.alive: list[Any] | None = None
        self.launch_error = ""
        self._starting = False
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel(QCoreApplication.translate("DaemonBar", "Looking for the worker…"))
        self.label.setAccessibleName(QCoreApplication.translate("DaemonBar", "Worker status"))
        self.start_button = QPushButton(QCoreApplication.translate("DaemonBar", "Start the worker"))
        self.start_button.setAccessibleName(QCoreApplication.translate("DaemonBar", "Start the worker"))
        self.start_button.setVisible(False)
        self.start_button.clicked.connect(self.start_daemon)
        layout.addWidget(self.label)
        layout.addWidget(self.start_button)
        self.timer = QTimer(self)
        self.timer.setInterval(round(interval * 1000))
        self.timer.timeout.connect(self.look)

    def resume(self) -> None:
        """Look now and every interval."""
        self.look()
        self.timer.start()

    def pause(self) -> None:
        """Stop looking (the window is hidden)."""
        self.timer.stop()

    def look(self) -> None:
        """Ask the ``workers`` table who is alive."""
        self.tasks.start(self._look(), name="daemon-look")

    def start_daemon(self) -> None:
        """Launch the daemon detached, then look again shortly to see whether it stayed up."""
        self._starting = True
        self.launch_error = ""
        result = self.launcher.start()
        if not result.ok:
            self._show_failure(result.error)
            return
        self.label.setText(QCoreApplication.translate("DaemonBar", "Starting the worker…"))
        self.start_button.setEnabled(False)
        QTimer.singleShot(1500, self._after_start)

    async def start_if_none(self) -> bool:
        """Start the daemon when no worker is alive (the app does this at launch). Returns whether it tried."""
        await self._look()
        if self.alive or not self.launcher.enabled:
            return False
        self.start_daemon()
        return True

    def _after_start(self) -> None:
        self._starting = False
        self.start_button.setEnabled(True)
        result = self.launcher.check()
        if not result.ok:
            self._show_failure(result.error)
        else:
            self.look()

    def _show_failure(self, error: str) -> None:
        self._starting = False
        self.launch_error = error
        self.label.setText(
            QCoreApplication.translate("DaemonBar", "The worker could not start: {error}").format(error=error)
        )
        self.label.setToolTip(QCoreApplication.translate("DaemonBar", "See the log files for details."))
        self.start_button.setVisible(True)
        self.start_button.setEnabled(True)

    async def _look(self) -> None:
        self.alive = await alive_workers(self.db)
        if self.alive:
            running = sum(w.running for w in self.alive)
            threads = sum(w.threads for w in self.alive)
            self.label.setText(
                QCoreApplication.translate("DaemonBar", "Worker running · {running} of {threads} slots busy").format(
                    running=running, threads=threads
                )
            )
            self.label.setToolTip("")
            self.start_button.setVisible(False)
            self.launch_error = ""
        elif not self._starting and not self.launch_error:
            self.label.setText(
                QCoreApplication.translate("DaemonBar", "No worker is running: jobs wait until one starts.")
            )
            self.start_button.setVisible(True)

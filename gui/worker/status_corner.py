"""The status bar's worker corner: is a daemon alive, how many jobs it runs, Start; whether the queue is paused; and
a restart for new settings until the new worker runs.

UI thread only; it looks every :attr:`DaemonBar.interval` seconds while the window is visible, and reports a
worker that could not start in plain words, never a crash. What it says when: docs/design/window.md.
"""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import QCoreApplication, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from core.app.workers.controls import queue_paused
from core.app.workers.registry import alive_workers
from core.db import AsyncDatabaseManager
from gui.tasks import TaskGroup
from gui.worker.process import DaemonLauncher

__all__ = ["RESTART_PATIENCE", "START_PATIENCE", "DaemonBar"]

RESTART_PATIENCE = 60.0
"""Seconds the bar keeps saying "restarting" while no worker is alive, before it offers Start again."""
START_PATIENCE = 60.0
"""Seconds the bar keeps saying "Starting the worker…" while the process it started runs and no worker is alive yet
(a bundle's worker takes seconds to import), before it offers Start again."""


class DaemonBar(QWidget):
    """Shows the worker's state and offers Start when none is alive. UI thread only.

    Args:
        db: The application database.
        launcher: Starts the daemon.
        tasks: Where the queries run.
        interval: Seconds between looks.

    Signals:
        paused_seen: Whether the queue is paused, after every look (and after :meth:`set_paused`).
    """

    paused_seen = Signal(bool)

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
        self.paused = False
        self._starting = False
        self._starting_since = 0.0
        self._restart_from: set[str] | None = None  # the ids of the workers asked to start again
        self._restart_waiting = False  # "idle" with a job running: the restart waits for it
        self._restart_since = 0.0
        self._restart_note = ""
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
        self._starting_since = time.monotonic()
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

    def set_paused(self, paused: bool) -> None:
        """Show the queue as paused or not (the window just switched it), then look again."""
        self.paused = paused
        self.paused_seen.emit(paused)
        self.look()

    def expect_restart(self, worker_ids: set[str], *, waiting_for_job: bool, note: str = "") -> None:
        """The workers ``worker_ids`` were asked to start again: say so until another worker is alive.

        Args:
            worker_ids: The workers asked.
            waiting_for_job: They finish a running job first.
            note: A sentence shown once the asked workers are gone, and from then on while this window sees no
                worker (the workers moved to another database: their new rows are there, not here); ``""``: the
                usual sentences.
        """
        self._restart_from = set(worker_ids)
        self._restart_waiting = waiting_for_job
        self._restart_since = time.monotonic()
        self._restart_note = note
        self._show_restarting()
        self.look()

    @property
    def restarting(self) -> bool:
        """Whether a restart asked for is still under way."""
        return self._restart_from is not None

    def _show_restarting(self) -> None:
        if self._restart_waiting:
            text = QCoreApplication.translate(
                "DaemonBar", "The worker will start again with the new settings when its job ends."
            )
        else:
            text = QCoreApplication.translate("DaemonBar", "Restarting the worker to use the new settings…")
        self.label.setText(text)
        self.label.setToolTip("")
        self.start_button.setVisible(False)

    def _after_start(self) -> None:
        """A first look once the process had time to fail at once; "Starting the worker…" stays until
        :meth:`_still_starting` says otherwise."""
        result = self.launcher.check()
        if not result.ok:
            self._show_failure(result.error)
        else:
            self.look()

    def _still_starting(self) -> bool:
        """Whether the worker started from here is still on its way: none alive yet, its process running, and
        :data:`START_PATIENCE` not passed. Ends the starting state (and reports a process that ended) otherwise."""
        if not self._starting:
            return False
        if self.alive:
            self._starting = False
            self.start_button.setEnabled(True)
            return False
        result = self.launcher.check()
        if not result.ok:
            self._show_failure(result.error)
            return False
        if time.monotonic() - self._starting_since >= START_PATIENCE:
            self._starting = False
            self.start_button.setEnabled(True)
            return False
        self.label.setText(QCoreApplication.translate("DaemonBar", "Starting the worker…"))
        return True

    def _show_failure(self, error: str) -> None:
        self._starting = False
        self.start_button.setEnabled(True)
        self.launch_error = error
        self.label.setText(
            QCoreApplication.translate("DaemonBar", "The worker could not start: {error}").format(error=error)
        )
        self.label.setToolTip(QCoreApplication.translate("DaemonBar", "See the log files for details."))
        self.start_button.setVisible(True)
        self.start_button.setEnabled(True)

    async def _look(self) -> None:
        self.alive = await alive_workers(self.db)
        self.paused = await queue_paused(self.db)
        self.paused_seen.emit(self.paused)
        if self._restart_from is not None and self._still_restarting():
            self._show_restarting()
            return
        restarted, self._restart_from = self._restart_from is not None, None
        if self._restart_note and not self.alive:  # the worker moved to another database: this window cannot see it
            self.label.setText(self._restart_note)
            self.start_button.setVisible(False)  # a worker started from here would find the data folder taken
            return
        if self._still_starting():
            return
        if self.alive:
            self.label.setText(self._with_pause(self._alive_text(self.alive, restarted=restarted)))
            self.label.setToolTip("")
            self.start_button.setVisible(False)
            self.launch_error = ""
        elif not self.launch_error:
            text = QCoreApplication.translate("DaemonBar", "No worker is running: jobs wait until one starts.")
            self.label.setText(self._with_pause(text))
            self.start_button.setVisible(True)

    @staticmethod
    def _alive_text(alive: list[Any], *, restarted: bool) -> str:
        """The slots busy of the ``alive`` workers, and what their model is doing."""
        running = sum(w.running for w in alive)
        threads = sum(w.threads for w in alive)
        text = QCoreApplication.translate("DaemonBar", "Worker running · {running} of {threads} slots busy").format(
            running=running, threads=threads
        )
        if restarted:
            text = QCoreApplication.translate(
                "DaemonBar", "The worker runs again, with the new settings · {running} of {threads} slots busy"
            ).format(running=running, threads=threads)
        states = {w.model_state for w in alive}
        if "loading" in states:
            text += " · " + QCoreApplication.translate("DaemonBar", "loading the model")
        elif "unloaded" in states:
            text += " · " + QCoreApplication.translate("DaemonBar", "model unloaded")
        return text

    def _still_restarting(self) -> bool:
        """A worker not asked to restart is alive: done. None alive for too long: give up (Start is offered)."""
        assert self._restart_from is not None and self.alive is not None
        if any(w.id not in self._restart_from for w in self.alive):
            return False
        if self._restart_note and not any(w.id in self._restart_from for w in self.alive):
            return False  # moved to another database: its new worker registers there
        if self.alive:
            self._restart_waiting = any(w.running for w in self.alive) and self._restart_waiting
            return True
        return time.monotonic() - self._restart_since < RESTART_PATIENCE

    def _with_pause(self, text: str) -> str:
        if not self.paused:
            return text
        paused = QCoreApplication.translate("DaemonBar", "Paused: queued jobs wait until you resume")
        return f"{paused} · {text}"

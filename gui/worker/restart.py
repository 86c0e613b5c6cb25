"""Settings that take effect: after a saved change the worker uses, ask the live workers to start again.

:class:`WorkerRestart` asks through each worker's row (:func:`core.app.workers.controls.request_restart`), ``"idle"`` or
``"now"``. UI thread only; the queries run on the window's task group. The rules: docs/design/window.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QAbstractButton, QMessageBox, QWidget
from sqlalchemy import select

from core.app.settings.config import Settings
from core.app.storage.schema import Job
from core.app.workers.controls import RESTART_NOW, RESTART_WHEN_IDLE, request_restart
from core.app.workers.registry import alive_workers
from core.db import AsyncDatabaseManager
from core.status import JobStatus
from gui.tasks import TaskGroup
from gui.worker.status_corner import DaemonBar

__all__ = ["CONNECTION_SETTINGS", "WORKER_SETTINGS", "WorkerRestart", "worker_settings_changed"]

WORKER_SETTINGS = ("model", "worker_threads", "output_dir", "stale_after", "database_url", "broker_url")
"""The settings a worker reads at its start. Not the language: the worker stores message codes, and each screen
translates them for its reader (:mod:`core.app.messages.sentences`)."""
CONNECTION_SETTINGS = ("database_url", "broker_url")
"""The settings that move a worker to another database or queue."""


def worker_settings_changed(old: Settings, new: Settings) -> list[str]:
    """The names of the :data:`WORKER_SETTINGS` whose values differ between ``old`` and ``new`` (a pure function)."""
    return [name for name in WORKER_SETTINGS if getattr(old, name) != getattr(new, name)]


class WorkerRestart(QObject):
    """Asks the workers to start again after a settings change. UI thread only.

    Args:
        db: The application database (the workers' rows).
        tasks: Where the queries run.
        bar: The status bar's worker corner (it says a restart is under way, and starts a worker when asked).
        parent: The window (the question's parent).

    Attributes:
        question: The open "stop the job now?" question, if any.
    """

    def __init__(self, db: AsyncDatabaseManager, tasks: TaskGroup, bar: DaemonBar, parent: QWidget) -> None:
        super().__init__(parent)
        self.db, self.tasks, self.bar, self.window = db, tasks, bar, parent
        self.question: QMessageBox | None = None
        self.stop_now_button: QAbstractButton | None = None
        self.wait_button: QAbstractButton | None = None

    def settings_saved(self, old: Settings, new: Settings, *, also: Sequence[str] = ()) -> list[str]:
        """React to a saved change; returns the worker settings that changed (nothing is done when none did).

        ``also`` names changes the worker reads from elsewhere than the settings (``"api_key"``: the keyring).
        """
        changed = worker_settings_changed(old, new) + list(also)
        if changed:
            moved = any(name in CONNECTION_SETTINGS for name in changed)
            self.tasks.start(self._restart(moved=moved), name="worker-restart")
        return changed

    async def _restart(self, *, moved: bool) -> None:
        alive = await alive_workers(self.db)
        if not alive:
            if moved and self.bar.launcher.enabled:
                self.bar.start_daemon()  # it reads the new settings: the new database and queue
            return
        ids = {w.id for w in alive}
        if any(w.running for w in alive) and await _a_job_runs(self.db):  # a worker's count lags its last job
            self._ask(ids, moved=moved)
            return
        await self._request(RESTART_WHEN_IDLE, ids, moved=moved, waiting=False)

    def _ask(self, ids: set[str], *, moved: bool) -> None:
        if self.question is not None:
            self.question.deleteLater()
        question = QMessageBox(
            QMessageBox.Icon.Question,
            QCoreApplication.translate("WorkerRestart", "Use the new settings"),
            QCoreApplication.translate(
                "WorkerRestart",
                "The worker must start again to use the new settings, and a job is running now. Stop that job now "
                "(it goes back to the queue and starts over with the new settings), or let it finish first?",
            ),
            QMessageBox.StandardButton.NoButton,
            self.window,
        )
        self.stop_now_button = question.addButton(
            QCoreApplication.translate("WorkerRestart", "Stop it now"), QMessageBox.ButtonRole.DestructiveRole
        )
        self.wait_button = question.addButton(
            QCoreApplication.translate("WorkerRestart", "Let it finish first"), QMessageBox.ButtonRole.AcceptRole
        )
        question.setDefaultButton(self.wait_button)  # type: ignore[arg-type]
        question.buttonClicked.connect(lambda button: self._answered(button, ids, moved))
        self.question = question
        question.open()

    def _answered(self, button: QAbstractButton, ids: set[str], moved: bool) -> None:
        now = button is self.stop_now_button
        mode = RESTART_NOW if now else RESTART_WHEN_IDLE
        self.tasks.start(self._request(mode, ids, moved=moved, waiting=not now), name="worker-restart")

    async def _request(self, mode: str, ids: set[str], *, moved: bool, waiting: bool) -> None:
        await request_restart(self.db, mode, ids)
        note = ""
        if moved:
            note = QCoreApplication.translate(
                "WorkerRestart", "The worker now uses the new database or queue. Start StudyJobs again to see its jobs."
            )
        self.bar.expect_restart(ids, waiting_for_job=waiting, note=note)


async def _a_job_runs(db: AsyncDatabaseManager) -> bool:
    """Whether any job is running now (a worker row's count is only as fresh as its last heartbeat: a download
    that has just finished still counts there)."""
    async with db.get_session_context() as session:
        found = await session.scalar(select(Job.id).where(Job.status == JobStatus.RUNNING).limit(1))
    return found is not None

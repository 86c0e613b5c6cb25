"""What the main window's actions do to its documents: Cancel, Retry, Remove, Write again, Cancel all, Retry
failed, Open, Show in folder, and opening the settings.

A base class of :class:`gui.main_window.MainWindow`; each command starts one task in the window's
:class:`~gui.tasks.TaskGroup` that writes through :class:`core.app.pipelines.Pipelines`. UI thread only.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from core.app.config import Settings
from core.app.pipelines import Pipelines
from core.store import JobStore
from gui.follower import JobFollower
from gui.guide_viewer import GuideViewer
from gui.job_feed import JobFeed
from gui.model_controls import ModelControls
from gui.results import source_path
from gui.settings_dialog import SettingsDialog
from gui.tasks import TaskGroup

__all__ = ["WindowCommands"]


class WindowCommands:
    """The window's commands: a base class of :class:`gui.main_window.MainWindow`, which owns every attribute
    below and the methods these commands call (``selected_rows``, ``current_job``, ``_show``, ``_settings_saved``,
    and Qt's ``isVisible``)."""

    settings: Settings
    store: JobStore[Any]
    tasks: TaskGroup
    pipelines: Pipelines
    follower: JobFollower
    feed: JobFeed
    guide_viewer: GuideViewer
    models: ModelControls
    selected_id: uuid.UUID | None
    output_path: Path | None
    settings_dialog: SettingsDialog | None

    def cancel_selected(self) -> None:
        """Stop every selected document that is waiting or running (whichever part of it is open)."""
        for row in self.selected_rows():
            self.tasks.start(self._change(self.pipelines.cancel(row.id)), name="cancel")

    def retry_selected(self) -> None:
        """Run again the part that failed or was cancelled, of every selected document."""
        for row in self.selected_rows():
            self.tasks.start(self._change(self.pipelines.retry(row.id), follow=True), name="retry")

    def remove_selected(self) -> None:
        """Remove every selected finished document (both its jobs) from the history."""
        for row in self.selected_rows():
            self.tasks.start(self._remove(row.id), name="remove")

    def write_again(self) -> None:
        """Write the current document's study guide again (the one it has stays until the new one is done)."""
        if (row := self.current_job()) is not None:
            self.tasks.start(self._change(self.pipelines.write_again(row.id), follow=True), name="write-again")

    def cancel_all(self) -> None:
        """Stop every document that is waiting or running."""
        self.tasks.start(self._change_many(self.pipelines.cancel_all()), name="cancel-all")

    def retry_all_failed(self) -> None:
        """Run again every document that failed."""
        self.tasks.start(self._change_many(self.pipelines.retry_all_failed()), name="retry-failed")

    async def _change(self, write: Any, *, follow: bool = False) -> None:
        view = await write
        if view is not None and view.id == self.selected_id:
            self._show(view)
            if follow:
                self.follower.follow(view.id)
        self.feed.refresh_now()

    async def _change_many(self, write: Any) -> None:
        await write
        if self.selected_id is not None and self.isVisible():
            self.follower.follow(self.selected_id)
        self.feed.refresh_now()

    async def _remove(self, job_id: uuid.UUID) -> None:
        if await self.pipelines.remove(job_id) and job_id == self.selected_id:
            self.selected_id = None
            self.follower.stop()
            self._show(None)
        self.feed.refresh_now()

    def open_output(self) -> None:
        """Open the study guide (or the document of a text-only job) with the system's application."""
        if self.output_path is not None:
            self.guide_viewer.open_or_show(self.output_path)  # shows the guide here when no app opens it

    def show_in_folder(self) -> None:
        """Open the folder that holds the output (or the source document)."""
        job = self.current_job()
        target = self.output_path or (source_path(job) if job is not None else None)
        if target is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(target.parent)))

    def open_settings(self) -> None:
        """Open the settings dialog (non-modal; one at a time)."""
        if self.settings_dialog is not None:
            self.settings_dialog.close()
            self.settings_dialog.deleteLater()
        self.settings_dialog = SettingsDialog(
            self.settings, self, store=self.store, tasks=self.tasks, feed=self.models.feed
        )
        self.settings_dialog.saved.connect(self._settings_saved)
        self.settings_dialog.open()

    def open_model_settings(self) -> None:
        """Open the settings dialog on its Model tab."""
        self.open_settings()
        if self.settings_dialog is not None:
            self.settings_dialog.tabs.setCurrentIndex(0)

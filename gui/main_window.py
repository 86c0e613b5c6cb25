"""The main window: the documents table with its filters and search, the current document's details, the actions.

Threading: everything here runs on the UI thread; database work runs as coroutines on the qasync loop through the
window's :class:`~gui.tasks.TaskGroup` (no session held between ticks, every error to the
:class:`~gui.error_dialog.ErrorReporter`). Following pauses while the window is hidden. Its parts:
docs/design/window.md.
"""

from __future__ import annotations

import logging
import uuid
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QLabel, QMainWindow, QMessageBox, QSplitter, QVBoxLayout, QWidget

from core.app.documents.pipelines import Pipelines
from core.app.models.library import writes_summaries
from core.app.settings.config import Settings
from core.db import AsyncDatabaseManager
from core.status import OPEN_JOB_STATUSES
from core.store import JobStore
from gui.actions import WindowSlots, add_menus, add_toolbar, make_actions
from gui.adding.dialog import AddDialog, file_picker
from gui.adding.flow import DocumentAdder
from gui.details.panel import DetailsPanel
from gui.details.tabs import DetailsTabs
from gui.documents.commands import DocumentCommands, DocumentSelection
from gui.documents.feed import JobFeed
from gui.documents.filter_bar import FilterBar
from gui.documents.follower import WATCH_FIELDS, JobFollower
from gui.documents.results import find_output, source_path
from gui.documents.table_model import JobRow, JobsModel
from gui.documents.table_view import JobsView
from gui.error_dialog import ErrorReporter
from gui.guide.viewer import GuideViewer, Opener
from gui.models.controls import ModelControls
from gui.settings.dialog import SettingsDialog
from gui.tasks import TaskGroup
from gui.tray import Tray
from gui.window_state import restore_window_state, save_window_state
from gui.worker.controls import install_worker_controls
from gui.worker.process import DaemonLauncher
from gui.worker.status_corner import DaemonBar

__all__ = ["WATCH_FIELDS", "MainWindow"]

log = logging.getLogger(__name__)


class MainWindow(QMainWindow):
    """The StudyJobs window.

    Args:
        db: The application database (its engine lives on the qasync loop).
        store: The job store over it.
        settings: The loaded settings.
        launcher: Starts the daemon (``None``: a launcher that starts nothing).
        tray: The tray icon, if any.
        watch_interval: Seconds between the details panel's looks.
        feed_interval: Seconds between the table's change checks.
        open_url: Hands a file to the system (default ``QDesktopServices.openUrl``); see :mod:`gui.guide.viewer`.
        first_run: A fresh install (no settings file): show the welcome panel (:mod:`gui.models.welcome_panel`) once.

    Signals:
        quit_requested: The user asked to quit (menu, or closing without hiding to the tray).
    """

    quit_requested = Signal()

    def __init__(
        self,
        *,
        db: AsyncDatabaseManager,
        store: JobStore[Any],
        settings: Settings,
        launcher: DaemonLauncher | None = None,
        tray: Tray | None = None,
        watch_interval: float = 0.25,
        feed_interval: float = 0.1,
        open_url: Opener | None = None,
        first_run: bool = False,
    ) -> None:
        super().__init__()
        self.db, self.store, self.settings, self.tray = db, store, settings, tray
        self.reporter = ErrorReporter(self)
        self.tasks = TaskGroup(self.reporter)
        self.setWindowTitle("StudyJobs")
        self.setAcceptDrops(True)
        self.selected_id: uuid.UUID | None = None
        self.output_path: Path | None = None
        self.pipelines = Pipelines(store)
        self.adder = DocumentAdder(self, store, self.tasks, added=lambda: self.feed.refresh_now(), guard=self._guard)
        self.settings_dialog: SettingsDialog | None = None
        self._quitting = False
        self.follower = JobFollower(store, self.tasks, self._on_watched, interval=watch_interval)
        self.model = JobsModel(self)
        self.feed = JobFeed(store, self.model, self.tasks, interval=feed_interval)
        self.feed.refreshed.connect(self._on_refreshed)
        self.guide_viewer = GuideViewer(  # the study guide tab; the model's settings are read when they are needed
            store, self.tasks, opener=open_url, summaries=lambda: writes_summaries(self.settings)
        )
        self.commands = DocumentCommands(
            self.pipelines, self.tasks, self.feed, self.follower, self.guide_viewer, self._selection()
        )
        self._make_actions()
        self._make_widgets(launcher or DaemonLauncher(["off"]))
        add_menus(self, self.window_actions)
        self.worker_controls = install_worker_controls(  # Pause/Resume, restarts for new settings, job logs
            self,
            db=self.db,
            tasks=self.tasks,
            bar=self.daemon_bar,
            details=self.details,
            log_dir=self.settings.log_dir,
        )
        self.models = ModelControls(
            store, self.tasks, self.statusBar(), lambda: self.settings, self._settings_saved, self.open_model_settings
        )
        self.models.offer_welcome(self.central_layout, first_run=first_run)
        restore_window_state(self.settings.data_dir, self, self.view, self.splitter)
        self._update_actions(None)

    # -- construction -------------------------------------------------------------------------------------

    def _make_actions(self) -> None:
        """The actions (those about documents call :attr:`commands`), each also an attribute of its own."""
        self.window_actions = a = make_actions(self, self._slots(), self.commands, self._guard)
        self.add_action, self.cancel_action, self.retry_action = a.add, a.cancel, a.retry
        self.open_action, self.folder_action, self.remove_action = a.open, a.folder, a.remove
        self.cancel_all_action, self.retry_failed_action, self.write_again_action = (
            a.cancel_all,
            a.retry_failed,
            a.write_again,
        )
        self.settings_action, self.quit_action = a.settings, a.quit
        self.job_actions = [a.cancel, a.retry, a.open, a.folder, a.write_again]

    def _selection(self) -> DocumentSelection:
        return DocumentSelection(
            rows=self.selected_rows,
            current=self.current_job,
            current_id=lambda: self.selected_id,
            output=lambda: self.output_path,
            show=self._show,
            forget=self._forget_current,
            visible=self.isVisible,
        )

    def _slots(self) -> WindowSlots:
        return WindowSlots(
            add=self.choose_files,
            settings=self.open_settings,
            quit=self.request_quit,
            find=lambda: self.search.setFocus(),
            refresh=lambda: self.feed.reload(),
        )

    def _make_widgets(self, launcher: DaemonLauncher) -> None:
        central = QWidget()
        layout = QVBoxLayout(central)
        self.central_layout = layout
        self.filter_bar = FilterBar()
        self.filter_buttons = self.filter_bar.buttons
        self.search = self.filter_bar.search
        self.filter_bar.filter_chosen.connect(lambda key: self._guard(self.feed.set_filter, key))
        self.filter_bar.search_changed.connect(lambda text: self._guard(self.feed.set_search, text))
        layout.addWidget(self.filter_bar)
        self.view = JobsView(self.model)
        self.delegate = self.view.delegate
        self.view.selectionModel().currentRowChanged.connect(lambda cur, _prev: self._guard(self._on_current, cur))
        self.view.selectionModel().selectionChanged.connect(lambda *_: self._guard(self._selection_changed))
        self.view.doubleClicked.connect(lambda _i: self._guard(self.commands.open_output))
        self.details = DetailsPanel(self.window_actions.job_actions)
        self.details.setMinimumWidth(320)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.view)
        self.details_tabs = DetailsTabs(self.details, self.guide_viewer)
        self.splitter.addWidget(self.details_tabs)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([880, 420])
        layout.addWidget(self.splitter, 1)
        self.setCentralWidget(central)
        add_toolbar(self, self.window_actions)
        self.count_label = QLabel()
        self.count_label.setAccessibleName(QCoreApplication.translate("MainWindow", "Number of jobs"))
        self.statusBar().addWidget(self.count_label, 1)
        self.daemon_bar = DaemonBar(self.db, launcher, self.tasks)
        self.statusBar().addPermanentWidget(self.daemon_bar)

    # -- lifecycle ----------------------------------------------------------------------------------------

    def start(self) -> None:
        """Load the table and start following the store (call once, with the qasync loop set)."""
        self.feed.start()
        self.daemon_bar.resume()
        self.models.start()

    async def shutdown(self) -> None:
        """Stop every timer and task and remember the layout; the engine can be disposed afterwards."""
        self._save_layout()
        self.feed.pause()
        self.daemon_bar.pause()
        self.models.stop()
        self.filter_bar.stop()
        await self.tasks.close(cancel_first=[self.follower.task])

    def request_quit(self) -> None:
        """Quit the app (the app awaits :attr:`quit_requested`, then disposes the engine)."""
        self._quitting = True
        self.quit_requested.emit()

    def showEvent(self, event: Any) -> None:
        """Resume polling when the window shows again."""
        super().showEvent(event)
        if self.tasks.tasks or self.model.rows or self.feed.polling is False:
            self.feed.resume()
            self.daemon_bar.resume()
            self.models.start()
            if self.selected_id is not None and not self.follower.active:
                self.follower.follow(self.selected_id)

    def hideEvent(self, event: Any) -> None:
        """Pause polling while hidden (minimised or in the tray)."""
        super().hideEvent(event)
        self.feed.pause()
        self.daemon_bar.pause()
        self.models.stop()
        self.follower.stop()

    def closeEvent(self, event: QCloseEvent) -> None:
        """Hide to the tray when the user wants it and a tray exists; otherwise quit."""
        if not self._quitting and self.settings.hide_to_tray and self.tray is not None and self.tray.available:
            event.ignore()
            self.hide()
            return
        self._save_layout()
        event.accept()
        self.request_quit()

    def _save_layout(self) -> None:
        save_window_state(self.settings.data_dir, self, self.view, self.splitter)

    # -- adding work --------------------------------------------------------------------------------------

    def choose_files(self) -> None:
        """Open a file picker (non-modal) for documents to add."""
        dialog = file_picker(self)
        dialog.filesSelected.connect(lambda files: self._guard(self.add_files, files))
        dialog.open()

    @property
    def add_dialog(self) -> AddDialog | None:
        """The last "what should StudyJobs make of them" dialog."""
        return self.adder.add_dialog

    @property
    def notice(self) -> QMessageBox | None:
        """The last information message (files that cannot be added)."""
        return self.adder.notice

    def add_files(self, paths: list[str] | list[Path]) -> AddDialog | None:
        """Refuse unsupported files with a message, then ask what to make of the rest (returns that dialog)."""
        return self.adder.add_files(paths)

    def enqueue(self, paths: list[Path], only_extract: bool) -> None:
        """Make one ``ingest`` job per file (asking first about files whose content was added before)."""
        self.adder.enqueue(paths, only_extract)

    def show_notice(self, text: str) -> None:
        """A non-modal information message."""
        self.adder.show_notice(text)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """Accept dragged local files."""
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        """Add the dropped files."""
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        event.acceptProposedAction()
        self._guard(self.add_files, paths)

    # -- the current document ----------------------------------------------------------------------------

    def current_job(self) -> JobRow | None:
        """The current document as last seen."""
        return self.details.job if self.selected_id is not None else None

    def selected_rows(self) -> list[JobRow]:
        """The selected documents, in the table's order (the current one when nothing else is selected)."""
        positions = sorted(index.row() for index in self.view.selectionModel().selectedRows())
        chosen = [r for r in (self.model.job_at(i) for i in positions) if r is not None]
        current = self.current_job()
        return chosen or ([current] if current is not None else [])

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

    def _settings_saved(self, settings: Settings) -> None:
        old, self.settings = self.settings, settings
        if self.settings_dialog is not None and self.settings_dialog.model_page is not None:
            self.settings_dialog.model_page.set_settings(settings)
        key_changed = self.settings_dialog is not None and self.settings_dialog.api_key_changed
        self.worker_controls.restart.settings_saved(old, settings, also=["api_key"] if key_changed else [])
        if self.tray is not None:
            self.tray.notifications = settings.notifications

    def select_job(self, job_id: uuid.UUID) -> bool:
        """Select a loaded document in the table, by its id (``False`` when it is not loaded)."""
        row = self.model.row_of(job_id)
        if row is None:
            return False
        self.view.selectRow(row)
        self.view.setCurrentIndex(self.model.index(row, 0))
        return True

    def _on_current(self, index: Any) -> None:
        row = self.model.job_at(index.row()) if index.isValid() else None
        if row is None:
            self._forget_current()
            return
        if row.id != self.selected_id:
            self.selected_id = row.id
            self._show(row)
            self.follower.follow(row.id)

    def _forget_current(self) -> None:
        """Select nothing (the current document is gone or none is chosen) and stop following it."""
        self.selected_id = None
        self.follower.stop()
        self._show(None)

    def _on_watched(self, row: JobRow) -> None:
        if row.id == self.selected_id:
            self._show(row)

    def _selection_changed(self) -> None:
        self._update_actions(self.current_job())

    def _show(self, row: JobRow | None) -> None:
        previous = self.details.job
        self.details.show_job(row)
        self.guide_viewer.show_job(row.id if row is not None else None)
        self.worker_controls.job_log.show_job(None if row is None else row.active or row.root)  # the part at work
        if row is None or previous is None or previous.id != row.id:
            self.output_path = None
        self._update_actions(row)
        if row is not None and (previous is None or previous.id != row.id or previous.status != row.status):
            self.tasks.start(self._resolve_output(row), name="output")

    async def _resolve_output(self, row: JobRow) -> None:
        """The newest finished guide (kept while a new one is written), or the text-only document's file."""
        path = await find_output(self.db, row)
        if row.id == self.selected_id:
            self.output_path = path
            self._update_actions(self.details.job)

    def _update_actions(self, row: JobRow | None) -> None:
        statuses = {r.status for r in self.selected_rows()}
        self.cancel_action.setEnabled(bool(statuses.intersection(OPEN_JOB_STATUSES)))
        self.retry_action.setEnabled(bool(statuses & {"failed", "cancelled"}))
        self.remove_action.setEnabled(bool(statuses.difference(OPEN_JOB_STATUSES)))  # an open job is never removed
        self.write_again_action.setEnabled(row is not None and row.guide is not None and row.status == "done")
        self.open_action.setEnabled(self.output_path is not None)
        self.folder_action.setEnabled(
            self.output_path is not None or (row is not None and source_path(row) is not None)
        )

    def _on_refreshed(self, changed: list[int], finished: list[JobRow]) -> None:
        shown = self.model.rowCount()
        total = self.model.total
        self.count_label.setText(
            QCoreApplication.translate("MainWindow", "{shown} of {total} documents").format(shown=shown, total=total)
        )
        if self.selected_id is not None:
            i = self.model.row_of(self.selected_id)
            if i is not None and i in changed and not self.follower.active:
                row = self.model.rows[i]
                self._show(row)
                if row.status in OPEN_JOB_STATUSES and self.isVisible():
                    self.follower.follow(row.id)
            elif i is not None and self.view.currentIndex().row() != i:
                self.view.setCurrentIndex(self.model.index(i, 0))
        self._update_actions(self.current_job())
        if self.tray is not None:
            for row in finished:  # one per document: the rows are documents
                self.tray.notify_finished(row.display_name, row.status, row.error)  # the tray words the stored error

    def _guard(self, func: Any, *args: Any) -> Any:
        try:
            return func(*args)
        except Exception as exc:
            self.reporter.report(exc)
            return None

"""The main window: the jobs table with its filters and search, the selected job's details, and the job actions.

Threading: everything here runs on the UI thread; database work runs as coroutines on the qasync loop through
the window's :class:`~gui.tasks.TaskGroup`, so no session is ever held between ticks and every error reaches the
:class:`~gui.error_dialog.ErrorReporter`. The details panel follows the selected job with
``JobStore.watch(job_id, emit_on=("status", "progress", "stage", "message"))``; the table follows the store through
:class:`~gui.job_feed.JobFeed`'s change check. Both pause while the window is hidden.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QCoreApplication, QSettings, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDesktopServices, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from core.config import Settings
from core.db import AsyncDatabaseManager
from core.errors import JobNotFoundError
from core.formats import SUPPORTED_SUFFIXES
from core.store import JobStore
from gui.add_dialog import AddDialog, split_supported
from gui.daemon_bar import DaemonBar
from gui.daemon_process import DaemonLauncher
from gui.details_panel import DetailsPanel
from gui.error_dialog import ErrorReporter
from gui.job_feed import JobFeed
from gui.jobs_model import COLUMNS, JobRow, JobsModel
from gui.progress_delegate import ProgressDelegate
from gui.results import find_output, source_path
from gui.settings_dialog import SettingsDialog
from gui.tasks import TaskGroup
from gui.tray import Tray

__all__ = ["WATCH_FIELDS", "MainWindow"]

log = logging.getLogger(__name__)
WATCH_FIELDS = ("status", "progress", "stage", "message")


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
    ) -> None:
        super().__init__()
        self.db, self.store, self.settings, self.tray = db, store, settings, tray
        self.watch_interval = watch_interval
        self.reporter = ErrorReporter(self)
        self.tasks = TaskGroup(self.reporter)
        self.setWindowTitle("StudyJobs")
        self.setAcceptDrops(True)
        self.selected_id: uuid.UUID | None = None
        self.output_path: Path | None = None
        self.notice: QMessageBox | None = None
        self.add_dialog: AddDialog | None = None
        self.settings_dialog: SettingsDialog | None = None
        self._follow_task: asyncio.Task[Any] | None = None
        self._quitting = False
        self._make_actions()
        self.model = JobsModel(self)
        self.feed = JobFeed(store, self.model, self.tasks, interval=feed_interval)
        self.feed.refreshed.connect(self._on_refreshed)
        self._make_widgets(launcher or DaemonLauncher(["off"]))
        self._make_menus()
        self._restore_layout()
        self._update_actions(None)

    # -- construction -------------------------------------------------------------------------------------

    def _action(self, text: str, shortcut: QKeySequence | str | None, slot: Any, tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.setToolTip(tip or text.replace("&", ""))
        action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False: self._guard(slot))
        self.addAction(action)
        return action

    def _make_actions(self) -> None:
        std = QKeySequence.StandardKey
        self.add_action = self._action(
            QCoreApplication.translate("MainWindow", "&Add documents…"), QKeySequence(std.Open), self.choose_files
        )
        self.cancel_action = self._action(
            QCoreApplication.translate("MainWindow", "&Cancel job"),
            "Ctrl+.",
            self.cancel_selected,
            QCoreApplication.translate("MainWindow", "Stop this job"),
        )
        self.retry_action = self._action(
            QCoreApplication.translate("MainWindow", "&Retry"),
            "Ctrl+R",
            self.retry_selected,
            QCoreApplication.translate("MainWindow", "Run this job again"),
        )
        self.open_action = self._action(
            QCoreApplication.translate("MainWindow", "&Open study guide"), "Ctrl+Return", self.open_output
        )
        self.folder_action = self._action(
            QCoreApplication.translate("MainWindow", "Show in &folder"), "Ctrl+Shift+F", self.show_in_folder
        )
        self.remove_action = self._action(
            QCoreApplication.translate("MainWindow", "Re&move from history"),
            QKeySequence(std.Delete),
            self.remove_selected,
            QCoreApplication.translate("MainWindow", "Forget this finished job (its files are kept)"),
        )
        self.settings_action = self._action(
            QCoreApplication.translate("MainWindow", "&Settings…"), QKeySequence(std.Preferences), self.open_settings
        )
        self.quit_action = self._action(
            QCoreApplication.translate("MainWindow", "&Quit"), QKeySequence(std.Quit), self.request_quit
        )
        self.find_action = self._action(
            QCoreApplication.translate("MainWindow", "&Find"), QKeySequence(std.Find), lambda: self.search.setFocus()
        )
        self.refresh_action = self._action(
            QCoreApplication.translate("MainWindow", "Re&fresh"), QKeySequence(std.Refresh), lambda: self.feed.reload()
        )
        self.job_actions = [self.cancel_action, self.retry_action, self.open_action, self.folder_action]

    def _make_widgets(self, launcher: DaemonLauncher) -> None:
        central = QWidget()
        layout = QVBoxLayout(central)
        bar = QHBoxLayout()
        self.filter_group = QButtonGroup(self)
        self.filter_buttons: dict[str, QPushButton] = {}
        names = {
            "all": QCoreApplication.translate("MainWindow", "All"),
            "active": QCoreApplication.translate("MainWindow", "Active"),
            "done": QCoreApplication.translate("MainWindow", "Done"),
            "failed": QCoreApplication.translate("MainWindow", "Failed"),
            "cancelled": QCoreApplication.translate("MainWindow", "Cancelled"),
        }
        for key, text in names.items():
            button = QPushButton(text)
            button.setCheckable(True)
            button.setAccessibleName(QCoreApplication.translate("MainWindow", "Show: {filter}").format(filter=text))
            button.clicked.connect(lambda _c=False, k=key: self._guard(self.feed.set_filter, k))
            self.filter_group.addButton(button)
            self.filter_buttons[key] = button
            bar.addWidget(button)
        self.filter_buttons["all"].setChecked(True)
        bar.addStretch(1)
        self.search = QLineEdit()
        self.search.setPlaceholderText(QCoreApplication.translate("MainWindow", "Search documents"))
        self.search.setAccessibleName(QCoreApplication.translate("MainWindow", "Search documents"))
        self.search.setClearButtonEnabled(True)
        self.search.setMinimumWidth(220)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(250)
        self._search_timer.timeout.connect(lambda: self._guard(self.feed.set_search, self.search.text()))
        self.search.textChanged.connect(lambda _t: self._search_timer.start())
        bar.addWidget(self.search)
        layout.addLayout(bar)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setAccessibleName(QCoreApplication.translate("MainWindow", "Jobs"))
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setAlternatingRowColors(True)
        self.view.setShowGrid(False)
        self.view.verticalHeader().setVisible(False)
        self.view.verticalHeader().setDefaultSectionSize(28)
        self.view.setWordWrap(False)
        self.delegate = ProgressDelegate(self.view)
        self.view.setItemDelegateForColumn(COLUMNS.index("progress"), self.delegate)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        widths = {"title": 200, "kind": 100, "status": 120, "progress": 130, "eta": 120, "started": 70, "duration": 90}
        for column, width in widths.items():
            self.view.setColumnWidth(COLUMNS.index(column), width)
        self.view.selectionModel().currentRowChanged.connect(lambda cur, _prev: self._guard(self._on_current, cur))
        self.view.doubleClicked.connect(lambda _i: self._guard(self.open_output))
        actions = [self.cancel_action, self.retry_action, self.open_action, self.folder_action, self.remove_action]
        self.details = DetailsPanel(actions)
        self.details.setMinimumWidth(320)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.view)
        self.splitter.addWidget(self.details)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([880, 420])
        layout.addWidget(self.splitter, 1)
        self.setCentralWidget(central)
        toolbar = self.addToolBar(QCoreApplication.translate("MainWindow", "Main"))
        toolbar.setObjectName("main-toolbar")
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        for action in (self.add_action, self.cancel_action, self.retry_action, self.open_action):
            toolbar.addAction(action)
        toolbar.addSeparator()
        toolbar.addAction(self.settings_action)
        self.count_label = QLabel()
        self.count_label.setAccessibleName(QCoreApplication.translate("MainWindow", "Number of jobs"))
        self.statusBar().addWidget(self.count_label, 1)
        self.daemon_bar = DaemonBar(self.db, launcher, self.tasks)
        self.statusBar().addPermanentWidget(self.daemon_bar)

    def _make_menus(self) -> None:
        menu = self.menuBar()
        file_menu = menu.addMenu(QCoreApplication.translate("MainWindow", "&File"))
        for action in (self.add_action, None, self.settings_action, None, self.quit_action):
            file_menu.addSeparator() if action is None else file_menu.addAction(action)
        job_menu = menu.addMenu(QCoreApplication.translate("MainWindow", "&Job"))
        for action in (self.cancel_action, self.retry_action, None, self.open_action, self.folder_action, None,
                       self.remove_action):  # fmt: skip
            job_menu.addSeparator() if action is None else job_menu.addAction(action)
        view_menu = menu.addMenu(QCoreApplication.translate("MainWindow", "&View"))
        view_menu.addAction(self.find_action)
        view_menu.addAction(self.refresh_action)

    # -- lifecycle ----------------------------------------------------------------------------------------

    def start(self) -> None:
        """Load the table and start following the store (call once, with the qasync loop set)."""
        self.feed.start()
        self.daemon_bar.resume()

    async def shutdown(self) -> None:
        """Stop every timer and task and remember the layout; the engine can be disposed afterwards."""
        self._save_layout()
        self.feed.pause()
        self.daemon_bar.pause()
        self._search_timer.stop()
        await self.tasks.close(cancel_first=[self._follow_task])

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
            if self.selected_id is not None and (self._follow_task is None or self._follow_task.done()):
                self._follow(self.selected_id)

    def hideEvent(self, event: Any) -> None:
        """Pause polling while hidden (minimised or in the tray)."""
        super().hideEvent(event)
        self.feed.pause()
        self.daemon_bar.pause()
        self._stop_follow()

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
        store = self._layout_store()
        store.setValue("geometry", self.saveGeometry())
        store.setValue("state", self.saveState())
        store.setValue("columns", self.view.horizontalHeader().saveState())
        store.setValue("splitter", self.splitter.saveState())
        store.sync()

    def _restore_layout(self) -> None:
        store = self._layout_store()
        for key, restore in (
            ("geometry", self.restoreGeometry),
            ("state", self.restoreState),
            ("columns", self.view.horizontalHeader().restoreState),
            ("splitter", self.splitter.restoreState),
        ):
            value = store.value(key)
            if isinstance(value, QByteArray) and not value.isEmpty():
                restore(value)
        if store.value("geometry") is None:
            self.resize(1320, 680)

    def _layout_store(self) -> QSettings:
        return QSettings(str(self.settings.data_dir / "window.ini"), QSettings.Format.IniFormat)

    # -- adding work --------------------------------------------------------------------------------------

    def choose_files(self) -> None:
        """Open a file picker (non-modal) for documents to add."""
        patterns = " ".join(f"*{s}" for s in SUPPORTED_SUFFIXES)
        dialog = QFileDialog(self, QCoreApplication.translate("MainWindow", "Add documents"))
        dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
        dialog.setNameFilters(
            [
                QCoreApplication.translate("MainWindow", "Documents ({patterns})").format(patterns=patterns),
                QCoreApplication.translate("MainWindow", "All files (*)"),
            ]
        )
        dialog.filesSelected.connect(lambda files: self._guard(self.add_files, files))
        dialog.open()

    def add_files(self, paths: list[str] | list[Path]) -> AddDialog | None:
        """Refuse unsupported files with a message, then ask what to make of the rest (returns that dialog)."""
        ok, refused = split_supported(paths)
        if refused:
            names = "\n".join(f"• {p.name or p}" for p in refused)
            kinds = ", ".join(sorted({s.lstrip(".").upper() for s in SUPPORTED_SUFFIXES}))
            self.show_notice(
                QCoreApplication.translate(
                    "MainWindow", "These files cannot be added:\n{names}\n\nStudyJobs reads {kinds} files."
                ).format(names=names, kinds=kinds)
            )
        if not ok:
            return None
        self.add_dialog = AddDialog(ok, self)
        self.add_dialog.chosen.connect(lambda files, only: self._guard(self.enqueue, files, only))
        self.add_dialog.open()
        return self.add_dialog

    def enqueue(self, paths: list[Path], only_extract: bool) -> None:
        """Make one ``ingest`` job per file."""
        self.tasks.start(self._enqueue(paths, only_extract), name="enqueue")

    async def _enqueue(self, paths: list[Path], only_extract: bool) -> None:
        for path in paths:
            await self.store.enqueue(
                "ingest", title=path.name, params={"path": str(path), "only_extract": bool(only_extract)}
            )
        self.feed.refresh_now()

    def show_notice(self, text: str) -> None:
        """A non-modal information message (kept in :attr:`notice`)."""
        if self.notice is not None:
            self.notice.deleteLater()
        self.notice = QMessageBox(QMessageBox.Icon.Information, "StudyJobs", text, QMessageBox.StandardButton.Ok, self)
        self.notice.open()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """Accept dragged local files."""
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        """Add the dropped files."""
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        event.acceptProposedAction()
        self._guard(self.add_files, paths)

    # -- job actions --------------------------------------------------------------------------------------

    def current_job(self) -> JobRow | None:
        """The selected job as last seen."""
        return self.details.job if self.selected_id is not None else None

    def cancel_selected(self) -> None:
        """Cancel the selected job (queued or running)."""
        if (job := self.current_job()) is not None:
            self.tasks.start(self._change(self.store.cancel(job.id)), name="cancel")

    def retry_selected(self) -> None:
        """Queue the selected failed or cancelled job again."""
        if (job := self.current_job()) is not None:
            self.tasks.start(self._change(self.store.retry(job.id), follow=True), name="retry")

    def remove_selected(self) -> None:
        """Remove the selected finished job from the history."""
        if (job := self.current_job()) is not None:
            self.tasks.start(self._remove(job.id), name="remove")

    async def _change(self, write: Any, *, follow: bool = False) -> None:
        job = await write
        if job is not None and job.id == self.selected_id:
            self._show(JobRow.of(job))
            if follow:
                self._follow(job.id)
        self.feed.refresh_now()

    async def _remove(self, job_id: uuid.UUID) -> None:
        if await self.store.delete(job_id) and job_id == self.selected_id:
            self.selected_id = None
            self._stop_follow()
            self._show(None)
        self.feed.refresh_now()

    def open_output(self) -> None:
        """Open the study guide (or the document of a text-only job) with the system's application."""
        if self.output_path is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.output_path)))

    def show_in_folder(self) -> None:
        """Open the folder that holds the output (or the source document)."""
        job = self.current_job()
        target = self.output_path or (source_path(job) if job is not None else None)
        if target is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(target.parent)))

    def open_settings(self) -> None:
        """Open the settings dialog (non-modal)."""
        self.settings_dialog = SettingsDialog(self.settings, self)
        self.settings_dialog.saved.connect(self._settings_saved)
        self.settings_dialog.open()

    def _settings_saved(self, settings: Settings) -> None:
        self.settings = settings
        if self.tray is not None:
            self.tray.notifications = settings.notifications

    # -- selection and following --------------------------------------------------------------------------

    def select_job(self, job_id: uuid.UUID) -> bool:
        """Select a loaded job in the table (``False`` when it is not loaded)."""
        row = self.model.row_of(job_id)
        if row is None:
            return False
        self.view.selectRow(row)
        self.view.setCurrentIndex(self.model.index(row, 0))
        return True

    def _on_current(self, index: Any) -> None:
        row = self.model.job_at(index.row()) if index.isValid() else None
        if row is None:
            self.selected_id = None
            self._stop_follow()
            self._show(None)
            return
        if row.id != self.selected_id:
            self.selected_id = row.id
            self._show(row)
            self._follow(row.id)

    def _follow(self, job_id: uuid.UUID) -> None:
        self._stop_follow()
        self._follow_task = self.tasks.start(
            self._watch(job_id), name="follow", on_error=lambda e: isinstance(e, JobNotFoundError)
        )

    def _stop_follow(self) -> None:
        if self._follow_task is not None and not self._follow_task.done():
            self._follow_task.cancel()
        self._follow_task = None

    async def _watch(self, job_id: uuid.UUID) -> None:
        async for job in self.store.watch(job_id, interval=self.watch_interval, emit_on=WATCH_FIELDS):
            if job_id != self.selected_id:
                return
            self._show(JobRow.of(job))

    def _show(self, row: JobRow | None) -> None:
        previous = self.details.job
        self.details.show_job(row)
        self._update_actions(row)
        if row is not None and row.status == "done" and (previous is None or previous.status != "done" or
                                                         previous.id != row.id):  # fmt: skip
            self.tasks.start(self._resolve_output(row), name="output")

    async def _resolve_output(self, row: JobRow) -> None:
        path = await find_output(self.db, row)
        if row.id == self.selected_id:
            self.output_path = path
            self._update_actions(self.details.job)

    def _update_actions(self, row: JobRow | None) -> None:
        status = row.status if row is not None else None
        if row is None or row.status != "done":
            self.output_path = None
        self.cancel_action.setEnabled(status in ("queued", "running"))
        self.retry_action.setEnabled(status in ("failed", "cancelled"))
        self.remove_action.setEnabled(status in ("done", "failed", "cancelled"))
        self.open_action.setEnabled(self.output_path is not None)
        self.folder_action.setEnabled(
            self.output_path is not None or (row is not None and source_path(row) is not None)
        )

    def _on_refreshed(self, changed: list[int], finished: list[JobRow]) -> None:
        shown = self.model.rowCount()
        total = self.model.total
        self.count_label.setText(
            QCoreApplication.translate("MainWindow", "{shown} of {total} jobs").format(shown=shown, total=total)
        )
        if self.selected_id is not None:
            i = self.model.row_of(self.selected_id)
            if i is not None and i in changed and (self._follow_task is None or self._follow_task.done()):
                row = self.model.rows[i]
                self._show(row)
                if row.status in ("queued", "running") and self.isVisible():
                    self._follow(row.id)
            elif i is not None and self.view.currentIndex().row() != i:
                self.view.setCurrentIndex(self.model.index(i, 0))
        for row in finished:
            if self.tray is not None:
                if row.status == "done":
                    self.tray.notify(
                        QCoreApplication.translate("MainWindow", "Finished: {name}").format(name=row.display_name),
                        QCoreApplication.translate("MainWindow", "The job is done."),
                    )
                else:
                    self.tray.notify(
                        QCoreApplication.translate("MainWindow", "Stopped: {name}").format(name=row.display_name),
                        row.error or "",
                        error=True,
                    )

    def _guard(self, func: Any, *args: Any) -> Any:
        try:
            return func(*args)
        except Exception as exc:
            self.reporter.report(exc)
            return None

"""The study guide of the selected document, rendered in the window and filled in while it is written.

:meth:`GuideViewer.show_job` takes a job id; while visible the viewer watches that row and its parts through the store
(:meth:`core.app.documents.pipelines.Pipelines.watch`; a stored section marks its job changed) and reads the guide again
only after one of them changed. UI thread only; queries run as tasks of the window's :class:`~gui.tasks.TaskGroup`.
Opening and saving: :mod:`gui.guide.files`. Design: docs/design/window.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtGui import QDesktopServices, QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from core.app.documents.pipelines import Pipelines
from core.app.guides.rewrite import rewrite_section
from core.app.guides.stored import GuideText, guide_job_for, guide_wanted, read_guide
from core.app.storage.schema import Job
from core.store import JobStore
from gui.guide.export_dialog import ExportDialog
from gui.guide.files import GuideFiles, Opener
from gui.guide.section_cursor import section_under_cursor
from gui.tasks import TaskGroup

__all__ = ["GuideViewer", "Opener"]


class GuideViewer(GuideFiles, QWidget):
    """Shows one document's study guide. UI thread only.

    Args:
        store: The application's job store (its database's engine lives on the qasync loop).
        tasks: Where the queries run (their errors reach the window's reporter).
        opener: Hands a file to the system (default ``QDesktopServices.openUrl``).
        summaries: Whether the model in the settings writes section summaries now (default: yes); "Rewrite this
            section" with one that does not (its sections quote the document) would give the same text, and says so.
        interval: Seconds between change checks of the shown row while the viewer is visible (on SQLite a check
            costs no query while nothing was committed).

    Signals:
        show_requested: The guide should be brought into view (the system could not open it).
    """

    show_requested = Signal()

    def __init__(
        self,
        store: JobStore[Job],
        tasks: TaskGroup,
        *,
        opener: Opener | None = None,
        summaries: Callable[[], bool] | None = None,
        interval: float = 0.25,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.db, self.tasks = store.db, tasks
        self.pipelines = Pipelines(store)
        self.opener: Opener = opener or QDesktopServices.openUrl
        self.summaries: Callable[[], bool] = summaries or (lambda: True)
        self.job_id: uuid.UUID | None = None
        self.guide: GuideText | None = None
        self.wanted = True  # whether the row shown is to have a guide (False: added for its text only)
        self.notice: QMessageBox | None = None
        self.save_dialog: QFileDialog | None = None
        self.export_dialog: ExportDialog | None = None
        self._shown_markdown = ""
        self._generation = 0
        self.last_read = 0.0  # time.monotonic() of the last read started
        self._busy = False
        self._loading: asyncio.Task[Any] | None = None
        self._follow: asyncio.Task[Any] | None = None
        self.interval = interval
        self._make_widgets()
        self._show_guide(None)

    def _make_widgets(self) -> None:
        layout = QVBoxLayout(self)
        self.state = QLabel()
        self.state.setWordWrap(True)
        self.state.setAccessibleName(QCoreApplication.translate("GuideViewer", "Study guide status"))
        layout.addWidget(self.state)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setAccessibleName(QCoreApplication.translate("GuideViewer", "Note about the study guide"))
        self.note.setVisible(False)
        layout.addWidget(self.note)
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(True)
        self.browser.setAccessibleName(QCoreApplication.translate("GuideViewer", "Study guide"))
        layout.addWidget(self.browser, 1)
        buttons = QHBoxLayout()
        self.open_button = QPushButton(QCoreApplication.translate("GuideViewer", "Open in another app"))
        self.open_button.setToolTip(
            QCoreApplication.translate(
                "GuideViewer", "Open the study guide file with the app your system uses for Markdown"
            )
        )
        self.open_button.clicked.connect(lambda _checked=False: self._guard(self.open_in_other_app))
        self.save_button = QPushButton(QCoreApplication.translate("GuideViewer", "Save as…"))
        self.save_button.setToolTip(
            QCoreApplication.translate("GuideViewer", "Save a copy of the study guide as a Markdown file")
        )
        self.save_button.clicked.connect(lambda _checked=False: self._guard(self.save_as))
        self.export_button = QPushButton(QCoreApplication.translate("GuideViewer", "Export…"))
        self.export_button.setToolTip(
            QCoreApplication.translate("GuideViewer", "Save the study guide as Word, PDF, Anki flashcards or a table")
        )
        self.export_button.clicked.connect(lambda _checked=False: self._guard(self.export))
        self.rewrite_button = QPushButton(QCoreApplication.translate("GuideViewer", "Rewrite this section"))
        self.rewrite_button.setToolTip(self._rewrite_tip())
        self.rewrite_button.clicked.connect(lambda _checked=False: self._guard(self.rewrite_current_section))
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.export_button)
        buttons.addWidget(self.rewrite_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)

    # -- what is shown ------------------------------------------------------------------------------------

    def show_job(self, job_id: uuid.UUID | None) -> None:
        """Show the guide of the row ``job_id`` (``None``: nothing selected). The same id again changes nothing."""
        if job_id == self.job_id:
            return
        self.job_id = job_id
        self.wanted = True
        self._generation += 1
        self._busy = False
        self.note.setVisible(False)
        self._show_guide(None)
        self._stop_following()
        self._start_following()  # its first look reads the guide

    @property
    def reading(self) -> bool:
        """Whether a read of the guide is under way."""
        return self._busy

    def reload(self) -> None:
        """Read the guide again now (nothing happens when no row is shown or the viewer is hidden)."""
        if self.job_id is None or not self.isVisible():
            return
        self.last_read = time.monotonic()
        self._busy = True
        generation = self._generation
        task = self._loading = self.tasks.start(self._load(generation, self.job_id), name="guide-load")
        if task is None:
            self._busy = False
        else:
            task.add_done_callback(lambda _t: self._loaded(generation))

    def _loaded(self, generation: int) -> None:
        if generation == self._generation:
            self._busy = False

    async def _load(self, generation: int, job_id: uuid.UUID) -> None:
        guide_job = await guide_job_for(self.db, job_id)
        shown = self.guide
        if shown is not None and shown.complete and shown.job_id == guide_job:
            return  # the finished guide shown is still the newest one
        text = await read_guide(self.db, guide_job) if guide_job is not None else None
        wanted = text is not None or await guide_wanted(self.db, job_id)
        if generation == self._generation:
            self.wanted = wanted
            self._show_guide(text)

    def _show_guide(self, guide: GuideText | None) -> None:
        self.guide = guide
        if guide is None and self.job_id is None:
            self.state.setText(
                QCoreApplication.translate("GuideViewer", "Choose a document in the list to read its study guide.")
            )
        elif guide is None and not self.wanted:
            self.state.setText(
                QCoreApplication.translate(
                    "GuideViewer", "This document was added for its text only: it has no study guide."
                )
            )
        elif guide is None:
            self.state.setText(
                QCoreApplication.translate(
                    "GuideViewer", "No study guide yet. It appears here as soon as its first section is written."
                )
            )
        elif not guide.complete:
            self.state.setText(self._writing_text(guide.sections))
        elif guide.path is not None:
            self.state.setText(
                QCoreApplication.translate("GuideViewer", "Finished: {file}").format(file=guide.path.name)
            )
        else:
            self.state.setText(QCoreApplication.translate("GuideViewer", "Finished."))
        markdown = guide.markdown if guide is not None else ""
        if markdown != self._shown_markdown:
            self._render(markdown, follow_end=guide is not None and not guide.complete)
        self.open_button.setEnabled(guide is not None and guide.complete and guide.path is not None)
        self.save_button.setEnabled(bool(markdown))
        self.export_button.setEnabled(guide is not None and guide.complete)
        self.rewrite_button.setEnabled(guide is not None and guide.complete)
        self.rewrite_button.setToolTip(self._rewrite_tip())

    def _rewrite_tip(self) -> str:
        """What "Rewrite this section" does, or why it cannot with the model in use (it writes no summaries)."""
        if not self.summaries():
            return self._no_summaries_text()
        return QCoreApplication.translate(
            "GuideViewer", "Write the section where the cursor is again, with other words"
        )

    @staticmethod
    def _no_summaries_text() -> str:
        return QCoreApplication.translate(
            "GuideViewer",
            "The model chosen in Settings quotes the document instead of writing summaries, so this section "
            "would come out the same. To have it written in other words, choose a model that writes "
            "summaries in Settings → Model.",
        )

    @staticmethod
    def _writing_text(sections: int) -> str:
        if sections == 0:
            return QCoreApplication.translate("GuideViewer", "Writing… (no section yet)")
        if sections == 1:
            return QCoreApplication.translate("GuideViewer", "Writing… (1 section so far)")
        return QCoreApplication.translate("GuideViewer", "Writing… ({count} sections so far)").format(count=sections)

    def _render(self, markdown: str, *, follow_end: bool) -> None:
        bar = self.browser.verticalScrollBar()
        position = bar.value()
        at_end = position > 0 and position >= bar.maximum() - 4
        self.browser.setMarkdown(markdown)
        self._shown_markdown = markdown
        bar.setValue(bar.maximum() if follow_end and at_end else position)

    # -- following the worker -----------------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        """Read the guide again and follow it while visible."""
        super().showEvent(event)
        self._start_following()

    def hideEvent(self, event: QHideEvent) -> None:
        """Stop following while hidden (another tab, the window in the tray)."""
        super().hideEvent(event)
        self._stop_following()

    def _start_following(self) -> None:
        """Watch the shown row unless it is already watched, nothing is shown or the viewer is hidden."""
        if self.job_id is None or not self.isVisible():
            return
        if self._follow is None or self._follow.done():
            self._follow = self.tasks.start(self._follow_changes(self.job_id), name="guide-follow")

    def _stop_following(self) -> None:
        if self._follow is not None:
            self._follow.cancel()
            self._follow = None

    async def _follow_changes(self, job_id: uuid.UUID) -> None:
        """Read the guide at once, then after each change of the row ``job_id`` or of one of its parts (a part
        added, a status, a progress or a stored section). Changes during a read are read after it."""
        changes = self.pipelines.watch([job_id], interval=self.interval)
        async with contextlib.aclosing(changes):
            async for _ in changes:
                if job_id != self.job_id or not self.wanted:
                    continue  # a row added for its text only never has a guide to read
                loading = self._loading
                if not (self._busy and loading is not None):
                    self.reload()
                    loading = self._loading if self._busy else None
                if loading is not None:
                    await asyncio.wait([loading])

    def rewrite_current_section(self) -> bool:
        """Queue the job that writes the section under the cursor of the finished guide shown again (the
        coverage table at the end is not a section); says so, or says why not (no section under the cursor, or a
        model that writes no summaries). The new guide replaces this one
        here once it is done."""
        if not self.summaries():
            self._note(self._no_summaries_text())
            return False
        guide, found = self.guide, section_under_cursor(self.browser)
        if guide is None or not guide.complete or found is None or found[0] > guide.sections:
            self._note(QCoreApplication.translate("GuideViewer", "Click in a section of the guide first."))
            return False
        position, title = found

        async def queue() -> None:
            queued = await rewrite_section(self.db, guide.job_id, position)
            if queued is None:
                self._note(QCoreApplication.translate("GuideViewer", "This guide cannot have a section rewritten."))
            else:
                note = QCoreApplication.translate("GuideViewer", "“{title}” will be written again.")
                self._note(note.format(title=title))

        return self.tasks.start(queue(), name="guide-rewrite") is not None

    def _note(self, text: str) -> None:
        self.note.setText(text)
        self.note.setVisible(True)

    def _guard(self, func: Callable[..., Any], *args: Any) -> Any:
        try:
            return func(*args)
        except Exception as exc:
            self.tasks.reporter.report(exc)
            return None

"""Handing the study guide shown to the system and to files: the window's "Open study guide", "Open in another
app", "Save as…" and "Export…".

A base class of :class:`gui.guide.viewer.GuideViewer`. A guide the system cannot open is shown in the viewer with
a note, never dropped. UI thread only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QStandardPaths, Qt, QUrl
from PySide6.QtWidgets import QFileDialog, QLabel, QMessageBox

from core.app.guides.stored import GuideText
from core.app.storage.files import write_atomically
from core.db import AsyncDatabaseManager
from gui.guide.export_dialog import ExportDialog
from gui.tasks import TaskGroup

__all__ = ["GuideFiles", "Opener"]

log = logging.getLogger(__name__)

Opener = Callable[[QUrl], bool]
"""Hands a file URL to the system; ``False`` when nothing opened it (``QDesktopServices.openUrl``)."""


class GuideFiles:
    """The guide's file commands: a base class of :class:`gui.guide.viewer.GuideViewer`, which owns every attribute
    below and the members these commands use (``show_requested``, ``reload``, ``_guard``, and Qt's widget methods:
    the dialogs are the viewer's children)."""

    db: AsyncDatabaseManager
    tasks: TaskGroup
    opener: Opener
    guide: GuideText | None
    note: QLabel
    notice: QMessageBox | None
    save_dialog: QFileDialog | None
    export_dialog: ExportDialog | None

    def open_or_show(self, path: Path) -> bool:
        """Open ``path`` with the system's app; when that cannot be done, show the guide here and say why.

        Returns whether the system opened it. A file that is not a guide (a text-only job's document) that
        the system cannot open gets a message instead.
        """
        if path.exists() and self.opener(QUrl.fromLocalFile(str(path))):
            return True
        if path.suffix.lower() != ".md":
            self._tell(
                QCoreApplication.translate("GuideViewer", "No app on this computer could open {file}.").format(
                    file=path
                )
            )
            return False
        if path.exists():
            reason = QCoreApplication.translate(
                "GuideViewer",
                "No app on this computer is set up to open Markdown files, so the study guide is shown here.",
            )
        else:
            reason = QCoreApplication.translate(
                "GuideViewer",
                "The file {file} is no longer there. This is the copy StudyJobs kept; use Save as… to write it again.",
            ).format(file=path)
        self.note.setText(reason)
        self.note.setVisible(True)
        self.show_requested.emit()  # the tab comes to the front, and the viewer reads the guide as it shows
        self.reload()
        return False

    def open_in_other_app(self) -> bool:
        """Hand the guide's file to the system; a short non-modal message when nothing opened it."""
        guide = self.guide
        if guide is None or guide.path is None:
            return False
        if not guide.path.exists():
            self._tell(
                QCoreApplication.translate(
                    "GuideViewer", "The file {file} is no longer there. Use Save as… to write the study guide again."
                ).format(file=guide.path)
            )
            return False
        if self.opener(QUrl.fromLocalFile(str(guide.path))):
            return True
        self._tell(
            QCoreApplication.translate(
                "GuideViewer",
                "No app on this computer is set up to open Markdown files. You can read the study guide here, "
                "or use Save as… and open the copy with an app you choose.",
            )
        )
        return False

    def save_as(self) -> QFileDialog | None:
        """Ask where to save the guide (non-modal; kept in :attr:`save_dialog`), then write it there."""
        guide = self.guide
        if guide is None or not guide.markdown:
            return None
        name = (
            guide.path.name
            if guide.path is not None
            else f"{guide.title or QCoreApplication.translate('GuideViewer', 'Study guide')}.md"
        )
        folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
        dialog = QFileDialog(
            self,
            QCoreApplication.translate("GuideViewer", "Save the study guide"),
            folder,
            QCoreApplication.translate("GuideViewer", "Markdown files (*.md)"),
        )
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix("md")
        dialog.selectFile(name)
        dialog.fileSelected.connect(lambda chosen: self._guard(self.save_to, Path(chosen)))
        if self.save_dialog is not None:
            self.save_dialog.deleteLater()
        self.save_dialog = dialog
        dialog.open()
        return dialog

    def export(self) -> ExportDialog | None:
        """Open the non-modal export dialog (kept in :attr:`export_dialog`) for the finished guide shown."""
        guide = self.guide
        if guide is None or not guide.complete:
            return None
        if self.export_dialog is not None:
            self.export_dialog.deleteLater()
        self.export_dialog = ExportDialog(self.db, self.tasks, guide.job_id, guide.title, self)
        self.export_dialog.show()
        return self.export_dialog

    def save_to(self, path: Path) -> bool:
        """Write the guide's Markdown (as shown now) to ``path`` and say where it went."""
        guide = self.guide
        if guide is None:
            return False
        try:
            write_atomically(path, guide.markdown)  # whole or not at all: a full disk leaves the old file
        except OSError as error:
            log.warning("could not save the study guide to %s", path, exc_info=True)
            self._tell(
                QCoreApplication.translate(
                    "GuideViewer", "The study guide could not be saved to {file}: {reason}"
                ).format(file=path, reason=error.strerror or str(error))
            )
            return False
        self.note.setText(QCoreApplication.translate("GuideViewer", "Saved to {file}.").format(file=path))
        self.note.setVisible(True)
        return True

    def _tell(self, text: str) -> None:
        if self.notice is not None:
            self.notice.deleteLater()
        self.notice = QMessageBox(QMessageBox.Icon.Information, "StudyJobs", text, QMessageBox.StandardButton.Ok, self)
        self.notice.setWindowModality(Qt.WindowModality.NonModal)  # the guide stays readable beside it
        self.notice.show()

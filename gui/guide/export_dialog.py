"""The "Export…" dialog of the guide viewer: a finished study guide written as Markdown, Word, PDF, Anki or CSV.

Non-modal. UI thread only; PDF is written on the UI thread (:mod:`gui.guide.export_pdf`), the other formats on a worker
thread, as a task of the window's :class:`~gui.tasks.TaskGroup`.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QStandardPaths, Signal
from PySide6.QtWidgets import QComboBox, QDialog, QFileDialog, QFormLayout, QHBoxLayout, QLabel, QPushButton, QWidget

from core.app.guides.export.service import FORMATS, SUFFIXES, default_file_name, load_export, write_export
from core.db import AsyncDatabaseManager
from gui.guide.export_pdf import write_pdf
from gui.tasks import TaskGroup

__all__ = ["ExportDialog"]

log = logging.getLogger(__name__)


def _format_names() -> dict[str, str]:
    return {
        "md": QCoreApplication.translate("ExportDialog", "Markdown text (.md)"),
        "docx": QCoreApplication.translate("ExportDialog", "Word document (.docx)"),
        "pdf": QCoreApplication.translate("ExportDialog", "PDF document (.pdf)"),
        "anki": QCoreApplication.translate("ExportDialog", "Anki flashcards (.apkg)"),
        "csv": QCoreApplication.translate("ExportDialog", "Table of terms and questions (.csv)"),
    }


class ExportDialog(QDialog):
    """Exports the guide of one row. UI thread only.

    Args:
        db: The application database.
        tasks: Where the export runs (its errors reach the window's reporter).
        job_id: The row whose guide is exported (a document's root job or a ``generate`` job).
        title: The guide's title (the file's suggested name).

    Signals:
        exported: A file was written (its path).
    """

    exported = Signal(Path)

    def __init__(
        self, db: AsyncDatabaseManager, tasks: TaskGroup, job_id: uuid.UUID, title: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.db, self.tasks, self.job_id, self.title = db, tasks, job_id, title
        self.file_dialog: QFileDialog | None = None
        self.setWindowTitle(QCoreApplication.translate("ExportDialog", "Export the study guide"))
        layout = QFormLayout(self)
        self.guide_label = QLabel(title or QCoreApplication.translate("ExportDialog", "Study guide"))
        self.guide_label.setWordWrap(True)
        self.guide_label.setAccessibleName(QCoreApplication.translate("ExportDialog", "The study guide to export"))
        layout.addRow(QCoreApplication.translate("ExportDialog", "Guide:"), self.guide_label)
        self.format_box = QComboBox()
        for key, name in _format_names().items():
            self.format_box.addItem(name, key)
        self.format_box.setAccessibleName(QCoreApplication.translate("ExportDialog", "File format"))
        layout.addRow(QCoreApplication.translate("ExportDialog", "Format:"), self.format_box)
        self.result = QLabel()
        self.result.setWordWrap(True)
        self.result.setAccessibleName(QCoreApplication.translate("ExportDialog", "Export result"))
        layout.addRow(self.result)
        buttons = QHBoxLayout()
        self.export_button = QPushButton(QCoreApplication.translate("ExportDialog", "Choose the file…"))
        self.export_button.setDefault(True)
        self.export_button.clicked.connect(lambda _checked=False: self.choose_file())
        close = QPushButton(QCoreApplication.translate("ExportDialog", "Close"))
        close.clicked.connect(self.close)
        buttons.addStretch(1)
        buttons.addWidget(self.export_button)
        buttons.addWidget(close)
        layout.addRow(buttons)

    def format_name(self) -> str:
        """The chosen format (one of :data:`core.app.guides.export.service.FORMATS`)."""
        return str(self.format_box.currentData() or FORMATS[0])

    def choose_format(self, format_name: str) -> None:
        """Select ``format_name`` in the list."""
        self.format_box.setCurrentIndex(max(0, self.format_box.findData(format_name)))

    def choose_file(self) -> QFileDialog:
        """Ask where to write the chosen format (non-modal), then export there."""
        format_name = self.format_name()
        suffix = SUFFIXES[format_name]
        folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
        dialog = QFileDialog(
            self,
            QCoreApplication.translate("ExportDialog", "Export the study guide"),
            folder,
            f"{_format_names()[format_name]} (*{suffix})",
        )
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix(suffix.lstrip("."))
        dialog.selectFile(default_file_name(self.title, format_name))
        dialog.fileSelected.connect(lambda chosen: self.export_to(Path(chosen), format_name))
        if self.file_dialog is not None:
            self.file_dialog.deleteLater()
        self.file_dialog = dialog
        dialog.open()
        return dialog

    def export_to(self, path: Path, format_name: str) -> asyncio.Task[bool] | None:
        """Write the guide to ``path`` as ``format_name`` (a task; it answers whether the file was written)."""
        self.export_button.setEnabled(False)
        self.result.setText(QCoreApplication.translate("ExportDialog", "Writing {file}…").format(file=path.name))
        task = self.tasks.start(self._export(path, format_name), name="guide-export")
        if task is None:
            self.export_button.setEnabled(True)
        return task

    async def _export(self, path: Path, format_name: str) -> bool:
        try:
            guide = await load_export(self.db, self.job_id)
            if guide is None:
                self.result.setText(QCoreApplication.translate("ExportDialog", "This document has no study guide."))
                return False
            try:
                if format_name == "pdf":
                    write_pdf(guide.markdown, path, guide.title)
                else:
                    await asyncio.to_thread(write_export, guide, format_name, path)
            except OSError as error:
                log.warning("could not export the study guide to %s", path, exc_info=True)
                self.result.setText(
                    QCoreApplication.translate("ExportDialog", "The file {file} could not be written: {reason}").format(
                        file=path, reason=error.strerror or str(error)
                    )
                )
                return False
            self.result.setText(QCoreApplication.translate("ExportDialog", "Saved to {file}.").format(file=path))
            self.exported.emit(path)
            return True
        finally:
            self.export_button.setEnabled(True)

"""Adding documents: the user picks what to make of them (a study guide, or the text only).

The dialog is opened with ``open()`` (never ``exec()``); :attr:`AddDialog.chosen` carries the answer. Files that
StudyJobs cannot read are split off by :func:`split_supported` *before* the dialog, so no job is ever made for
them.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QListWidget,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from core.app.documents.formats import SUPPORTED_SUFFIXES, is_supported
from core.app.guides.languages import GUIDE_LANGUAGE_NAMES, GUIDE_LANGUAGES

__all__ = ["AddDialog", "file_picker", "refused_text", "split_supported"]


def split_supported(paths: Iterable[str | Path]) -> tuple[list[Path], list[Path]]:
    """``(supported, refused)``: absolute paths of readable files, and of folders, missing or unknown files."""
    ok: list[Path] = []
    refused: list[Path] = []
    for raw in paths:
        path = Path(raw).expanduser().absolute()
        (ok if path.is_file() and is_supported(path) else refused).append(path)
    return ok, refused


def refused_text(refused: Iterable[Path]) -> str:
    """The message that lists files StudyJobs cannot read, and says which kinds it reads."""
    names = "\n".join(f"• {p.name or p}" for p in refused)
    kinds = ", ".join(sorted({s.lstrip(".").upper() for s in SUPPORTED_SUFFIXES}))
    return QCoreApplication.translate(
        "MainWindow", "These files cannot be added:\n{names}\n\nStudyJobs reads {kinds} files."
    ).format(names=names, kinds=kinds)


def file_picker(parent: QWidget) -> QFileDialog:
    """A file dialog for existing documents, filtered to the supported kinds (open it with ``open()``)."""
    patterns = " ".join(f"*{s}" for s in SUPPORTED_SUFFIXES)
    dialog = QFileDialog(parent, QCoreApplication.translate("MainWindow", "Add documents"))
    dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
    dialog.setNameFilters(
        [
            QCoreApplication.translate("MainWindow", "Documents ({patterns})").format(patterns=patterns),
            QCoreApplication.translate("MainWindow", "All files (*)"),
        ]
    )
    return dialog


class AddDialog(QDialog):
    """Asks what to make of the chosen files.

    Signals:
        chosen: ``(paths, only_extract, language)`` when the user confirms; ``language`` is the code of the
            language picked for the study guide, or ``""`` for the document's own language.
    """

    chosen = Signal(list, bool, str)

    def __init__(self, paths: list[Path], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.paths = paths
        self.setWindowTitle(QCoreApplication.translate("AddDialog", "Add documents"))
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(QCoreApplication.translate("AddDialog", "These documents will be added:")))
        self.list = QListWidget()
        self.list.setAccessibleName(QCoreApplication.translate("AddDialog", "Documents to add"))
        self.list.addItems([p.name for p in paths])
        for i, p in enumerate(paths):
            self.list.item(i).setToolTip(str(p))
        layout.addWidget(self.list)
        layout.addWidget(QLabel(QCoreApplication.translate("AddDialog", "What should StudyJobs make of them?")))
        self.guide = QRadioButton(
            QCoreApplication.translate("AddDialog", "A &study guide (reads the text, then writes the guide)")
        )
        self.extract = QRadioButton(QCoreApplication.translate("AddDialog", "&Only the text (extraction, no guide)"))
        self.guide.setChecked(True)
        group = QButtonGroup(self)
        for button in (self.guide, self.extract):
            group.addButton(button)
            button.setAccessibleName(button.text().replace("&", ""))
            layout.addWidget(button)
        layout.addWidget(QLabel(QCoreApplication.translate("AddDialog", "Language of the study guide:")))
        self.language = QComboBox()
        self.language.setAccessibleName(QCoreApplication.translate("AddDialog", "Language of the study guide"))
        self.language.addItem(QCoreApplication.translate("AddDialog", "The document's language"), "")
        for code in GUIDE_LANGUAGES:
            self.language.addItem(GUIDE_LANGUAGE_NAMES[code], code)
        self.extract.toggled.connect(lambda only: self.language.setEnabled(not only))
        layout.addWidget(self.language)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText(QCoreApplication.translate("AddDialog", "Add"))
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(
            QCoreApplication.translate("AddDialog", "Cancel")
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

    @property
    def only_extract(self) -> bool:
        """Whether the user chose the text only."""
        return self.extract.isChecked()

    @property
    def guide_language(self) -> str:
        """The language picked for the study guide (``"pt"``, ``"en"`` …), or ``""`` for the document's own."""
        return str(self.language.currentData() or "")

    def accept(self) -> None:
        """Confirm: emit :attr:`chosen` and close."""
        self.chosen.emit(list(self.paths), self.only_extract, self.guide_language)
        super().accept()

"""Adding a file whose content was already added: the question, and how the window finds out.

:func:`file_sha256` reads a file in chunks (call it off the UI thread: ``gui.details.job_log.off_ui_thread``); its hex
digest is what the ``ingest`` job stores in ``documents.content_hash``, so :func:`already_added` finds the documents
that have the same content, whatever the file is called now. :class:`DuplicateDialog` asks, without blocking the
window, whether to add those files again; :attr:`DuplicateDialog.answered` carries the files to add.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QListWidget, QVBoxLayout, QWidget
from sqlalchemy import select

from core.app.storage.schema import Document
from core.db import AsyncDatabaseManager

__all__ = ["DuplicateDialog", "already_added", "file_sha256"]

_CHUNK = 1 << 20


def file_sha256(path: Path) -> str | None:
    """The hex SHA-256 of the file's bytes; ``None`` when it cannot be read. Blocking: not on the UI thread."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as file:
            while chunk := file.read(_CHUNK):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()


async def already_added(db: AsyncDatabaseManager, hashes: Iterable[str]) -> dict[str, str]:
    """Content hash → the name the document had when it was added, for the hashes some document already has."""
    wanted = sorted(set(hashes))
    if not wanted:
        return {}
    stmt = select(Document.content_hash, Document.source_name).where(Document.content_hash.in_(wanted))
    async with db.get_session_context() as session:
        return {digest: name for digest, name in (await session.execute(stmt)).all()}


class DuplicateDialog(QDialog):
    """Asks whether to add again files whose content StudyJobs already has; not modal (shown with ``show()``).

    Args:
        paths: Every file the user chose, in their order.
        repeated: Those whose content was added before → the name the document had then.

    Signals:
        answered: The files to add: all of them ("Add again"), or only the new ones ("Skip those").
    """

    answered = Signal(list)

    def __init__(self, paths: list[Path], repeated: dict[Path, str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.paths = list(paths)
        self.repeated = dict(repeated)
        self.setModal(False)
        self.setWindowTitle(QCoreApplication.translate("DuplicateDialog", "Already added"))
        layout = QVBoxLayout(self)
        self.question = QLabel(
            QCoreApplication.translate(
                "DuplicateDialog", "StudyJobs already has the content of these files. Add them again?"
            )
        )
        self.question.setWordWrap(True)
        layout.addWidget(self.question)
        self.list = QListWidget()
        self.list.setAccessibleName(QCoreApplication.translate("DuplicateDialog", "Files added before"))
        for path, name in self.repeated.items():
            shown = path.name if name == path.name else f"{path.name} ({name})"
            self.list.addItem(shown)
            self.list.item(self.list.count() - 1).setToolTip(str(path))
        layout.addWidget(self.list)
        self.buttons = QDialogButtonBox()
        self.again = self.buttons.addButton(
            QCoreApplication.translate("DuplicateDialog", "Add again"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.skip = self.buttons.addButton(
            QCoreApplication.translate("DuplicateDialog", "Skip those"), QDialogButtonBox.ButtonRole.RejectRole
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

    def accept(self) -> None:
        """Add every file, the repeated ones too."""
        self.answered.emit(list(self.paths))
        super().accept()

    def reject(self) -> None:
        """Add only the files nobody added before (closing the dialog means the same)."""
        self.answered.emit([path for path in self.paths if path not in self.repeated])
        super().reject()

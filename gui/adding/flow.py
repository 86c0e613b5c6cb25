"""Adding documents from the window: supported files only, a guide or the text, and a question for repeats.

Nothing blocks the window: hashes are computed on a helper thread, each file is queued with
:func:`core.app.documents.adding.add_document` (as the command line does). UI thread only; database work runs as tasks
of the window's :class:`~gui.tasks.TaskGroup`. The steps: docs/design/window.md.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QMessageBox, QWidget

from core.app.documents.adding import add_document
from core.store import JobStore
from gui.adding.dialog import AddDialog, refused_text, split_supported
from gui.adding.duplicate_dialog import DuplicateDialog, already_added, file_sha256
from gui.details.job_log import off_ui_thread
from gui.tasks import TaskGroup

__all__ = ["DocumentAdder"]


class DocumentAdder:
    """The window's way of turning chosen files into documents.

    Args:
        parent: The window (the dialogs' parent).
        store: The job store.
        tasks: Where the hashing, the lookup and the enqueues run.
        added: Called after jobs were queued (the window refreshes its table).
        guard: Runs a slot so that its errors reach the error reporter.
    """

    def __init__(
        self,
        parent: QWidget,
        store: JobStore[Any],
        tasks: TaskGroup,
        *,
        added: Callable[[], None],
        guard: Callable[..., Any],
    ) -> None:
        self.parent, self.store, self.tasks, self.added, self.guard = parent, store, tasks, added, guard
        self.add_dialog: AddDialog | None = None
        self.duplicate_dialog: DuplicateDialog | None = None
        self.notice: QMessageBox | None = None

    def add_files(self, paths: list[str] | list[Path]) -> AddDialog | None:
        """Refuse unsupported files with a message, then ask what to make of the rest (returns that dialog)."""
        ok, refused = split_supported(paths)
        if refused:
            self.show_notice(refused_text(refused))
        if not ok:
            return None
        self.add_dialog = AddDialog(ok, self.parent)
        self.add_dialog.chosen.connect(lambda files, only, language: self.guard(self.enqueue, files, only, language))
        self.add_dialog.open()
        return self.add_dialog

    def enqueue(self, paths: list[Path], only_extract: bool, language: str = "") -> None:
        """Look for content added before (asking about it), then make one ``ingest`` job per file (``language``:
        the study guide's language, ``""`` for the document's own)."""
        self.tasks.start(self._check_then_enqueue(list(paths), only_extract, language), name="enqueue")

    def show_notice(self, text: str) -> None:
        """A non-modal information message (kept in :attr:`notice`)."""
        if self.notice is not None:
            self.notice.deleteLater()
        self.notice = QMessageBox(
            QMessageBox.Icon.Information, "StudyJobs", text, QMessageBox.StandardButton.Ok, self.parent
        )
        self.notice.open()

    async def _check_then_enqueue(self, paths: list[Path], only_extract: bool, language: str) -> None:
        # a daemon thread of its own rather than the loop's executor (qasync's runs on Qt threads)
        hashes = await off_ui_thread(lambda: {path: file_sha256(path) for path in paths})
        known = await already_added(self.store.db, [h for h in hashes.values() if h is not None])
        repeated = {path: known[digest] for path, digest in hashes.items() if digest is not None and digest in known}
        if not repeated:
            await self._enqueue(paths, only_extract, language)
            return
        if self.duplicate_dialog is not None:
            self.duplicate_dialog.deleteLater()
        self.duplicate_dialog = DuplicateDialog(paths, repeated, self.parent)
        self.duplicate_dialog.answered.connect(
            lambda chosen: self.guard(
                lambda: (
                    self.tasks.start(self._enqueue(chosen, only_extract, language), name="enqueue") if chosen else None
                )
            )
        )
        self.duplicate_dialog.show()  # not modal: the window stays usable while the question waits

    async def _enqueue(self, paths: list[Path], only_extract: bool, language: str) -> None:
        for path in paths:
            await add_document(self.store, path, only_extract=only_extract, language=language)
        self.added()

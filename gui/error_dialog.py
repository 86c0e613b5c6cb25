"""The one dialog for unexpected errors: a plain sentence, the details folded away, and a Copy details button.

:class:`ErrorReporter` is the boundary every Qt slot and background task reports to: it logs the error with its
traceback and shows it once (the same error twice in a row never stacks a second dialog). Dialogs are opened with
``open()`` (never a modal ``exec()``), so the event loop keeps running and tests can inspect them.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

__all__ = ["ErrorDialog", "ErrorReporter", "guarded"]

log = logging.getLogger(__name__)
F = TypeVar("F", bound=Callable[..., Any])


class ErrorDialog(QDialog):
    """Shows one error: a sentence for the user and the technical details with a Copy details button.

    Args:
        message: What went wrong, in plain words.
        details: The traceback or technical text (copied by Copy details).
        parent: The window it belongs to.
    """

    def __init__(self, message: str, details: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(QCoreApplication.translate("ErrorDialog", "Something went wrong"))
        self.details = details
        layout = QVBoxLayout(self)
        self.message_label = QLabel(message)
        self.message_label.setWordWrap(True)
        layout.addWidget(self.message_label)
        hint = QLabel(
            QCoreApplication.translate(
                "ErrorDialog", "StudyJobs kept running. The details below were written to the log file."
            )
        )
        hint.setWordWrap(True)
        layout.addWidget(hint)
        self.details_box = QPlainTextEdit(details)
        self.details_box.setReadOnly(True)
        self.details_box.setAccessibleName(QCoreApplication.translate("ErrorDialog", "Error details"))
        self.details_box.setMinimumHeight(120)
        layout.addWidget(self.details_box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = QPushButton(QCoreApplication.translate("ErrorDialog", "Copy details"))
        self.copy_button.setAccessibleName(QCoreApplication.translate("ErrorDialog", "Copy details"))
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(self.copy_details)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(560, 320)

    def copy_details(self) -> None:
        """Put the message and the details on the clipboard."""
        QGuiApplication.clipboard().setText(f"{self.message_label.text()}\n\n{self.details}")


class ErrorReporter(QObject):
    """Logs unexpected errors with their traceback and shows each one once in an :class:`ErrorDialog`.

    Use from the UI thread; other threads emit :attr:`reported` (a queued connection brings it here).

    Args:
        parent_widget: The window the dialogs belong to (``None`` before the window exists).
        show_dialogs: ``False`` only logs (a headless run).
    """

    reported = Signal(str, str)

    def __init__(self, parent_widget: QWidget | None = None, *, show_dialogs: bool = True) -> None:
        super().__init__()
        self.parent_widget = parent_widget
        self.show_dialogs = show_dialogs
        self.dialog: ErrorDialog | None = None
        self.shown: list[str] = []
        self._last_key: str | None = None
        self.reported.connect(self._show)

    def report(self, exc: BaseException, message: str | None = None) -> None:
        """Log ``exc`` with its traceback and show it (once)."""
        details = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        log.error("unexpected error: %s\n%s", exc, details)
        text = message or QCoreApplication.translate("ErrorDialog", "An unexpected error happened: {error}").format(
            error=str(exc) or type(exc).__name__
        )
        self.reported.emit(text, details)

    def _show(self, message: str, details: str) -> None:
        key = details.strip().splitlines()[-1] if details.strip() else message
        self.shown.append(message)
        if not self.show_dialogs or (key == self._last_key and self.dialog is not None and self.dialog.isVisible()):
            return
        self._last_key = key
        if self.dialog is not None:
            self.dialog.deleteLater()
        self.dialog = ErrorDialog(message, details, self.parent_widget)
        self.dialog.open()


def guarded(reporter_of: Callable[[Any], ErrorReporter]) -> Callable[[F], F]:
    """Decorate a Qt slot (a method) so that an exception is reported instead of escaping into Qt.

    Args:
        reporter_of: Given ``self``, returns the :class:`ErrorReporter`.
    """

    def wrap(func: F) -> F:
        def slot(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return func(self, *args, **kwargs)
            except Exception as exc:
                reporter_of(self).report(exc)
                return None

        slot.__name__ = func.__name__
        slot.__doc__ = func.__doc__
        return slot  # type: ignore[return-value]

    return wrap

"""The current document in full: one bar per phase of both its parts, the message, counters, attempts, the next
retry and the error of the part that failed.

Display only: the window feeds it documents and lends it its ``QAction`` objects. UI thread only.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QFont, QGuiApplication
from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QGridLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from core.stored_messages import decode
from gui.details.phase_bars import PhaseBars
from gui.documents.table_model import JobRow, document_kind_label, error_text, message_text
from gui.texts import counters_text, duration_text, eta_text, status_label, stored_text, timestamp_text
from gui.theme import error_text_style

__all__ = ["DetailsPanel"]


class DetailsPanel(QFrame):
    """Shows one document (or a hint when nothing is selected). UI thread only.

    Args:
        actions: The window's job actions, shown as buttons under the title.
    """

    def __init__(self, actions: Sequence[QAction] = (), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAccessibleName(QCoreApplication.translate("DetailsPanel", "Job details"))
        self.job: JobRow | None = None
        layout = QVBoxLayout(self)
        layout.addWidget(self._title())
        self.status = QLabel()
        self.status.setAccessibleName(QCoreApplication.translate("DetailsPanel", "Status"))
        layout.addWidget(self.status)
        layout.addLayout(self._buttons(actions))
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setAccessibleName(QCoreApplication.translate("DetailsPanel", "What it is doing"))
        layout.addWidget(self.message)
        self.phases = PhaseBars()
        layout.addWidget(self.phases)
        layout.addWidget(self._error_box())
        layout.addLayout(self._fields_form())
        layout.addStretch(1)
        self.show_job(None)

    def _title(self) -> QLabel:
        """The document's name, larger and bold, selectable."""
        self.title = QLabel()
        font = QFont(self.title.font())
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        self.title.setFont(font)
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        return self.title

    def _buttons(self, actions: Sequence[QAction]) -> QGridLayout:
        """The window's job actions as buttons, three to a row."""
        buttons = QGridLayout()
        self.buttons: list[QToolButton] = []
        for i, action in enumerate(actions):
            button = QToolButton()
            button.setDefaultAction(action)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            button.setAccessibleName(action.text().replace("&", ""))
            buttons.addWidget(button, i // 3, i % 3)
            self.buttons.append(button)
        return buttons

    def _error_box(self) -> QFrame:
        """Why the job stopped, and Copy details."""
        self.error_box = QFrame()
        error_layout = QVBoxLayout(self.error_box)
        error_layout.setContentsMargins(0, 0, 0, 0)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error.setAccessibleName(QCoreApplication.translate("DetailsPanel", "Why it stopped"))
        error_layout.addWidget(self.error)
        self.copy_button = QPushButton(QCoreApplication.translate("DetailsPanel", "Copy details"))
        self.copy_button.setAccessibleName(QCoreApplication.translate("DetailsPanel", "Copy details"))
        self.copy_button.clicked.connect(self.copy_details)
        error_layout.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignLeft)
        return self.error_box

    def _fields_form(self) -> QFormLayout:
        """The labelled figures: progress, time left, attempts, the next try and the times."""
        self.form = QFormLayout()
        self.fields: dict[str, QLabel] = {}
        for key, label in (
            ("counters", QCoreApplication.translate("DetailsPanel", "Progress")),
            ("eta", QCoreApplication.translate("DetailsPanel", "Time left")),
            ("attempts", QCoreApplication.translate("DetailsPanel", "Attempts")),
            ("retry", QCoreApplication.translate("DetailsPanel", "Next try")),
            ("created", QCoreApplication.translate("DetailsPanel", "Added")),
            ("started", QCoreApplication.translate("DetailsPanel", "Started")),
            ("finished", QCoreApplication.translate("DetailsPanel", "Finished")),
            ("duration", QCoreApplication.translate("DetailsPanel", "Duration")),
        ):
            value = QLabel()
            value.setWordWrap(True)
            value.setAccessibleName(label)
            self.fields[key] = value
            self.form.addRow(label, value)
        return self.form

    def show_job(self, job: JobRow | None) -> None:
        """Show ``job``, or the empty state for ``None``."""
        self.job = job
        if job is None:
            self.title.setText(QCoreApplication.translate("DetailsPanel", "No document selected"))
            self.status.setText(
                QCoreApplication.translate(
                    "DetailsPanel", "Choose a document in the list to see its phases, messages and errors."
                )
            )
            for widget in (self.message, self.phases, self.error_box):
                widget.setVisible(False)
            for key, value in self.fields.items():
                self._set_field(key, value, "")
            return
        self.title.setText(job.display_name)
        self.status.setText(f"{status_label(job.status)} · {document_kind_label(job)}")
        message = message_text(job)
        self.message.setText(message)
        # what it was doing when it stopped is not news once it failed: the reason below says what happened
        self.message.setVisible(bool(message) and job.status != "failed")
        self.phases.setVisible(bool(job.phases))
        if job.phases:
            self.phases.show_job(job)
        self._show_error(job)
        values = {
            "counters": counters_text(job.detail),
            "eta": eta_text(job.time_left()) if job.status == "running" else "",
            "attempts": self._attempts(job),
            "retry": self._retry(job),
            "created": timestamp_text(job.created_at),
            "started": timestamp_text(job.started_at),
            "finished": timestamp_text(job.finished_at),
            "duration": duration_text(job.duration()),
        }
        for key, value in self.fields.items():
            self._set_field(key, value, values[key])

    def add_section(self, widget: QWidget) -> None:
        """Add ``widget`` under the fields (a section another module fills, such as the job's log)."""
        layout = self.layout()
        assert isinstance(layout, QVBoxLayout)
        layout.insertWidget(layout.count() - 1, widget)  # above the closing stretch

    def copy_details(self) -> None:
        """Copy the job's error (and what the job was) to the clipboard."""
        job = self.job
        if job is None:
            return
        lines = [job.display_name, f"id: {job.id}", f"status: {job.status}", f"params: {job.params}"]
        for part in (job.root, job.guide):
            if part is None:
                continue
            lines += [
                f"{part.kind} {part.id}: {part.status}, stage {part.stage or '-'}, "
                f"attempts {part.attempts}/{part.max_attempts}, transient {part.error_transient}",
                f"  error: {stored_text(part.error)}",
                f"  error code: {stored.code if (stored := decode(part.error)) else ''}",
            ]
        QGuiApplication.clipboard().setText("\n".join(lines))

    # -- parts --------------------------------------------------------------------------------------------

    def _set_field(self, key: str, value: QLabel, text: str) -> None:
        value.setText(text)
        value.setVisible(bool(text))
        label = self.form.labelForField(value)
        if label is not None:
            label.setVisible(bool(text))

    def _show_error(self, job: JobRow) -> None:
        error = error_text(job)
        if job.status == "failed" and error:
            reason = QCoreApplication.translate("DetailsPanel", "It stopped because: {reason}").format(reason=error)
            if job.error_transient:
                hint = QCoreApplication.translate(
                    "DetailsPanel", "This looked like a temporary problem, but every attempt was used. Retry later."
                )
            else:
                hint = QCoreApplication.translate("DetailsPanel", "Trying again will not help until this is fixed.")
            self.error.setText(f"{reason}\n{hint}")
            self.error.setStyleSheet(error_text_style(self.palette()))
            self.error_box.setVisible(True)
        elif job.status == "queued" and error:
            self.error.setText(
                QCoreApplication.translate("DetailsPanel", "The last try did not work: {reason}").format(reason=error)
            )
            self.error.setStyleSheet("")
            self.error_box.setVisible(True)
        else:
            self.error_box.setVisible(False)

    @staticmethod
    def _attempts(job: JobRow) -> str:
        if job.attempts <= 1 and job.status != "queued":
            return ""
        if job.attempts == 0:
            return ""
        return QCoreApplication.translate("DetailsPanel", "attempt {n} of {total}").format(
            n=job.attempts, total=job.max_attempts
        )

    @staticmethod
    def _retry(job: JobRow) -> str:
        if job.status != "queued" or job.run_after is None:
            return ""
        when = timestamp_text(job.run_after)
        if job.error_transient:
            return QCoreApplication.translate(
                "DetailsPanel", "{when} — the last error looked temporary, so it will try again by itself"
            ).format(when=when)
        return QCoreApplication.translate("DetailsPanel", "{when}").format(when=when)

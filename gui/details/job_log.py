"""The selected job's own log lines, in a collapsible "Log" section of the details.

UI thread only; the log files are read on a helper thread, only while expanded. What it reads and when:
docs/design/window.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QPlainTextEdit, QToolButton, QVBoxLayout, QWidget

from core.app.logs import job_log_lines
from core.status import OPEN_JOB_STATUSES
from gui.documents.table_model import JobRow
from gui.tasks import TaskGroup

__all__ = ["JobLogSection", "off_ui_thread"]

T = TypeVar("T")


async def off_ui_thread(fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn(*args)`` on a short-lived daemon thread and await its result on the running loop."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(result: Any, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    def work() -> None:
        try:
            result, error = fn(*args), None
        except BaseException as exc:  # handed to the awaiting coroutine
            result, error = None, exc
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits any more
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=work, name="studyjobs-read-log", daemon=True).start()
    return await future


class JobLogSection(QWidget):
    """A "Log" toggle and, when open, the shown job's log lines.

    Args:
        log_dir: The folder of the worker's log files.
        tasks: Where the reads are awaited.
        interval: Seconds between reads while an open section shows a queued or running job.
    """

    def __init__(
        self, log_dir: Path, tasks: TaskGroup, *, interval: float = 2.0, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.log_dir, self.tasks = Path(log_dir), tasks
        self.job_id: uuid.UUID | None = None
        self.status = ""
        self.lines: list[str] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.toggle = QToolButton()
        self.toggle.setText(QCoreApplication.translate("JobLogSection", "Log"))
        self.toggle.setAccessibleName(QCoreApplication.translate("JobLogSection", "Show the job's log"))
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.toggled.connect(self._toggled)
        layout.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setAccessibleName(QCoreApplication.translate("JobLogSection", "The job's log"))
        self.text.setVisible(False)
        layout.addWidget(self.text)
        self.timer = QTimer(self)
        self.timer.setInterval(round(interval * 1000))
        self.timer.timeout.connect(self.reload)
        self.setVisible(False)

    @property
    def expanded(self) -> bool:
        """Whether the lines are shown."""
        return self.toggle.isChecked()

    def show_job(self, job: JobRow | None) -> None:
        """Follow ``job`` (``None``: hide the section)."""
        self.setVisible(job is not None)
        if job is None:
            self.job_id, self.status = None, ""
            self.timer.stop()
            return
        changed = job.id != self.job_id
        was_open = self.status in OPEN_JOB_STATUSES
        self.job_id, self.status = job.id, job.status
        if changed:
            self.lines = []
            self.text.setPlainText("")
        if self.expanded and (changed or was_open):
            self.reload()
        self._keep_reading()

    def reload(self) -> None:
        """Read the shown job's lines again (on a helper thread)."""
        if self.job_id is not None and self.expanded:
            self.tasks.start(self._read(self.job_id), name="job-log")

    def stop(self) -> None:
        """Stop reading (the window closes)."""
        self.timer.stop()

    def _toggled(self, open_: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if open_ else Qt.ArrowType.RightArrow)
        self.text.setVisible(open_)
        if open_:
            self.reload()
        self._keep_reading()

    def _keep_reading(self) -> None:
        if self.expanded and self.status in OPEN_JOB_STATUSES:
            if not self.timer.isActive():
                self.timer.start()
        else:
            self.timer.stop()

    async def _read(self, job_id: uuid.UUID) -> None:
        lines = await off_ui_thread(job_log_lines, self.log_dir, job_id)
        if job_id != self.job_id or lines == self.lines:
            return
        self.lines = lines
        empty = QCoreApplication.translate("JobLogSection", "The worker has written nothing about this job yet.")
        self.text.setPlainText("\n".join(lines) if lines else empty)
        bar = self.text.verticalScrollBar()
        bar.setValue(bar.maximum())

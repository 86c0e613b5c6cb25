"""What the window's actions do to its documents: Cancel, Retry, Remove, Write again, Cancel all, Retry all failed,
Open, Show in folder (:class:`DocumentCommands`).

The window owns one and its actions (:mod:`gui.actions`) call it. Each command on documents starts one task in the
window's :class:`~gui.tasks.TaskGroup` (its errors reach the window's reporter) that writes through
:class:`core.app.documents.pipelines.Pipelines`. UI thread only.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from core.app.documents.pipelines import Pipelines
from gui.documents.feed import JobFeed
from gui.documents.follower import JobFollower
from gui.documents.results import source_path
from gui.documents.table_model import JobRow
from gui.guide.viewer import GuideViewer
from gui.tasks import TaskGroup

__all__ = ["DocumentCommands", "DocumentSelection"]


@dataclass(frozen=True)
class DocumentSelection:
    """The window's selection as the commands see and change it (callables of the window)."""

    rows: Callable[[], list[JobRow]]
    """The selected documents, in the table's order (the current one when nothing else is selected)."""
    current: Callable[[], JobRow | None]
    """The current document as last seen."""
    current_id: Callable[[], uuid.UUID | None]
    """The current document's id."""
    output: Callable[[], Path | None]
    """The current document's study guide (or a text-only document's file), once it is found."""
    show: Callable[[JobRow | None], None]
    """Show the current document's new state."""
    forget: Callable[[], None]
    """The current document is gone: select nothing, stop following it."""
    visible: Callable[[], bool]
    """Whether the window shows (a hidden one follows nothing)."""


class DocumentCommands:
    """The commands on the window's documents.

    Args:
        pipelines: Writes every change.
        tasks: The window's task group: each command on documents is one task in it.
        feed: The table's feed, refreshed after every change.
        follower: Follows the current document again after a change that runs it.
        guide_viewer: Shows a study guide that no application opens.
        selection: Which documents the commands act on.
    """

    def __init__(
        self,
        pipelines: Pipelines,
        tasks: TaskGroup,
        feed: JobFeed,
        follower: JobFollower,
        guide_viewer: GuideViewer,
        selection: DocumentSelection,
    ) -> None:
        self.pipelines = pipelines
        self.tasks = tasks
        self.feed = feed
        self.follower = follower
        self.guide_viewer = guide_viewer
        self.selection = selection

    def cancel_selected(self) -> None:
        """Stop every selected document that is waiting or running (whichever part of it is open)."""
        for row in self.selection.rows():
            self.tasks.start(self._change(self.pipelines.cancel(row.id)), name="cancel")

    def retry_selected(self) -> None:
        """Run again the part that failed or was cancelled, of every selected document."""
        for row in self.selection.rows():
            self.tasks.start(self._change(self.pipelines.retry(row.id), follow=True), name="retry")

    def remove_selected(self) -> None:
        """Remove every selected finished document (both its jobs) from the history."""
        for row in self.selection.rows():
            self.tasks.start(self._remove(row.id), name="remove")

    def write_again(self) -> None:
        """Write the current document's study guide again (the one it has stays until the new one is done)."""
        if (row := self.selection.current()) is not None:
            self.tasks.start(self._change(self.pipelines.write_again(row.id), follow=True), name="write-again")

    def cancel_all(self) -> None:
        """Stop every document that is waiting or running."""
        self.tasks.start(self._change_many(self.pipelines.cancel_all()), name="cancel-all")

    def retry_all_failed(self) -> None:
        """Run again every document that failed."""
        self.tasks.start(self._change_many(self.pipelines.retry_all_failed()), name="retry-failed")

    def open_output(self) -> None:
        """Open the study guide (or the document of a text-only job) with the system's application."""
        if (output := self.selection.output()) is not None:
            self.guide_viewer.open_or_show(output)  # shows the guide here when no app opens it

    def show_in_folder(self) -> None:
        """Open the folder that holds the output (or the source document)."""
        job = self.selection.current()
        target = self.selection.output() or (source_path(job) if job is not None else None)
        if target is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(target.parent)))

    async def _change(self, write: Awaitable[JobRow | None], *, follow: bool = False) -> None:
        view = await write
        if view is not None and view.id == self.selection.current_id():
            self.selection.show(view)
            if follow:
                self.follower.follow(view.id)
        self.feed.refresh_now()

    async def _change_many(self, write: Awaitable[int]) -> None:
        await write
        current = self.selection.current_id()
        if current is not None and self.selection.visible():
            self.follower.follow(current)
        self.feed.refresh_now()

    async def _remove(self, job_id: uuid.UUID) -> None:
        if await self.pipelines.remove(job_id) and job_id == self.selection.current_id():
            self.selection.forget()
        self.feed.refresh_now()

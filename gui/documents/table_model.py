"""The documents table's model: one row per document, newest first, loaded page by page and patched in place.

The model never touches the database: :class:`gui.documents.feed.JobFeed` hands it pages and change sets, and only rows
whose content changed repaint. A row's message and error are worded by :func:`message_text` and
:func:`error_text` only. UI thread only.
"""

from __future__ import annotations

import uuid
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QCoreApplication, QModelIndex, QPersistentModelIndex, Qt, Signal

from core.app.documents.view import DocumentView
from gui.texts import duration_text, eta_text, status_label, stored_text, timestamp_text

__all__ = ["COLUMNS", "JobRow", "JobsModel", "document_kind_label", "error_text", "message_text"]

ROW_ROLE = Qt.ItemDataRole.UserRole + 1
"""``data(index, ROW_ROLE)`` is the row's :data:`JobRow`."""

COLUMNS = ("title", "kind", "status", "progress", "eta", "started", "duration")
_Index = QModelIndex | QPersistentModelIndex

JobRow = DocumentView
"""What the screen shows of one document: a plain snapshot (no session, no payload), safe to keep."""


def message_text(row: JobRow) -> str:
    """What the document is doing now, in the window's language (its active part's stored message)."""
    return stored_text(row.message)


def error_text(row: JobRow) -> str:
    """Why the part that failed stopped, in the window's language (``""`` when there is no error)."""
    return stored_text(row.error)


def document_kind_label(row: JobRow) -> str:
    """What the document becomes: "Study guide" or "Text only"."""
    if row.wants_guide:
        return QCoreApplication.translate("JobsModel", "Study guide")
    return QCoreApplication.translate("JobsModel", "Text only")


class JobsModel(QAbstractTableModel):
    """Rows of :data:`JobRow` (one per document), newest first. UI thread only.

    Signals:
        fetch_requested: The view scrolled to the end of what is loaded and more exists.
    """

    fetch_requested = Signal()

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[JobRow] = []
        self.total = 0
        self.more = False
        self.loading = False
        self._pos: dict[uuid.UUID, int] = {}
        self._headers = {
            "title": QCoreApplication.translate("JobsModel", "Document"),
            "kind": QCoreApplication.translate("JobsModel", "Kind"),
            "status": QCoreApplication.translate("JobsModel", "Status"),
            "progress": QCoreApplication.translate("JobsModel", "Progress"),
            "eta": QCoreApplication.translate("JobsModel", "Time left"),
            "started": QCoreApplication.translate("JobsModel", "Started"),
            "duration": QCoreApplication.translate("JobsModel", "Duration"),
        }

    # -- Qt model interface --------------------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        """Loaded rows (0 under a valid parent: this is a flat table)."""
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        """The columns of :data:`COLUMNS`."""
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Display text, tooltips, alignment and the :data:`JobRow` itself (``ROW_ROLE``)."""
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        row = self.rows[index.row()]
        column = COLUMNS[index.column()]
        if role == ROW_ROLE:
            return row
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == "status" and row.status == "failed" and row.error:
                return error_text(row)
            if column in ("title", "progress") and row.message:
                return message_text(row)
            return None
        if role == Qt.ItemDataRole.TextAlignmentRole and column in ("eta", "duration"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Column titles."""
        horizontal = orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole
        if horizontal and 0 <= section < len(COLUMNS):
            return self._headers[COLUMNS[section]]
        return None

    def canFetchMore(self, parent: _Index) -> bool:
        """Whether older rows exist beyond the loaded ones."""
        return not parent.isValid() and self.more and not self.loading

    def fetchMore(self, parent: _Index) -> None:
        """Ask the feed for the next page (it arrives later through :meth:`append`)."""
        if self.canFetchMore(parent):
            self.loading = True
            self.fetch_requested.emit()

    # -- fed by JobFeed --------------------------------------------------------------------------------------

    def reset(self, rows: list[JobRow], *, more: bool, total: int) -> None:
        """Replace everything (a new filter or search)."""
        self.beginResetModel()
        self.rows = list(rows)
        self._pos = {r.id: i for i, r in enumerate(self.rows)}
        self.more, self.total, self.loading = more, total, False
        self.endResetModel()

    def append(self, rows: list[JobRow], *, more: bool) -> None:
        """Add an older page at the end (rows already shown are skipped)."""
        fresh = [r for r in rows if r.id not in self._pos]
        if fresh:
            first = len(self.rows)
            self.beginInsertRows(QModelIndex(), first, first + len(fresh) - 1)
            for r in fresh:
                self._pos[r.id] = len(self.rows)
                self.rows.append(r)
            self.endInsertRows()
        self.more, self.loading = more, False

    def apply(
        self,
        head: list[JobRow],
        updates: list[JobRow],
        *,
        total: int,
        head_complete: bool,
        removed: frozenset[uuid.UUID] = frozenset(),
    ) -> list[int]:
        """Merge a change check: ``head`` is the newest rows now; ``updates`` are other loaded rows re-read.

        New rows above the first known one are inserted at the top; loaded rows of the head range that are no
        longer in ``head`` (deleted, or no longer matching the filter) are removed; changed rows emit
        ``dataChanged``. Returns the positions that changed (for tests and benchmarks).

        Args:
            head: The newest rows matching the filter (as many as were loaded, up to the feed's head size).
            updates: Re-read rows beyond the head (open jobs that may still change).
            total: How many rows match the filter now.
            head_complete: ``head`` holds every matching row (nothing older exists).
            removed: Loaded rows beyond the head that are gone or no longer match the filter.
        """
        self.total = total
        self._remove_gone(head, head_complete=head_complete, removed=removed)
        self._insert_new(head)
        return self._replace_changed([*head, *updates])

    def _remove_gone(self, head: list[JobRow], *, head_complete: bool, removed: frozenset[uuid.UUID]) -> None:
        """Remove the rows in ``removed``, and the loaded rows inside the head's time range that ``head`` no longer
        holds (every row not in it when ``head_complete``)."""
        head_ids = {r.id for r in head}
        oldest_head = head[-1] if head else None
        oldest_key = (oldest_head.created_at, oldest_head.id) if oldest_head is not None else None
        gone = [
            i
            for i, r in enumerate(self.rows)
            if r.id in removed
            or (
                r.id not in head_ids
                and (head_complete or (oldest_key is not None and (r.created_at, r.id) >= oldest_key))
            )
        ]
        for i in reversed(gone):
            self.beginRemoveRows(QModelIndex(), i, i)
            del self.rows[i]
            self.endRemoveRows()
        if gone:
            self._pos = {r.id: i for i, r in enumerate(self.rows)}

    def _insert_new(self, head: list[JobRow]) -> None:
        """Insert at the top the rows of ``head`` newer than the newest loaded one."""
        newest_known = self.rows[0] if self.rows else None
        added = [
            r
            for r in head
            if r.id not in self._pos
            and (newest_known is None or (r.created_at, r.id) > (newest_known.created_at, newest_known.id))
        ]
        if added:
            self.beginInsertRows(QModelIndex(), 0, len(added) - 1)
            self.rows[0:0] = added
            self.endInsertRows()
            self._pos = {r.id: i for i, r in enumerate(self.rows)}

    def _replace_changed(self, fresh: list[JobRow]) -> list[int]:
        """Replace the loaded rows that differ from their ``fresh`` reading (``dataChanged`` for each); returns
        their positions."""
        changed: list[int] = []
        for r in fresh:
            i = self._pos.get(r.id)
            if i is None:
                continue
            old = self.rows[i]
            if old != r or old.eta != r.eta:
                self.rows[i] = r
                changed.append(i)
        for i in changed:
            self.dataChanged.emit(self.index(i, 0), self.index(i, len(COLUMNS) - 1))
        return changed

    def tick_running(self) -> None:
        """Repaint the time columns of running rows (durations grow with the clock)."""
        first, last = COLUMNS.index("eta"), COLUMNS.index("duration")
        for i, r in enumerate(self.rows):
            if r.status == "running":
                self.dataChanged.emit(self.index(i, first), self.index(i, last))

    # -- helpers -----------------------------------------------------------------------------------------

    def row_of(self, job_id: uuid.UUID) -> int | None:
        """The position of a document (by its id: its root job's), or ``None`` when it is not loaded."""
        return self._pos.get(job_id)

    def job_at(self, row: int) -> JobRow | None:
        """The document at a position."""
        return self.rows[row] if 0 <= row < len(self.rows) else None

    def _display(self, row: JobRow, column: str) -> str | None:
        if column == "title":
            return row.display_name
        if column == "kind":
            return document_kind_label(row)
        if column == "status":
            if row.status == "queued" and row.run_after is not None:
                return QCoreApplication.translate("JobsModel", "Retry at {time}").format(
                    time=timestamp_text(row.run_after)
                )
            return status_label(row.status)
        if column == "progress":
            return f"{round(row.progress * 100)}%"
        if column == "eta":
            return eta_text(row.time_left()) if row.status == "running" else ""
        if column == "started":
            return timestamp_text(row.started_at)
        if column == "duration":
            return duration_text(row.duration())
        return None

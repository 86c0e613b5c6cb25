"""The jobs table's model: light row snapshots, newest first, loaded page by page and patched in place.

The model never touches the database: :class:`gui.job_feed.JobFeed` loads pages and change sets and hands them
over. ``canFetchMore``/``fetchMore`` ask the feed for the next page (:attr:`JobsModel.fetch_requested`), so the
view pulls history lazily as the user scrolls. :meth:`JobsModel.apply` compares snapshots and emits
``dataChanged`` only for rows whose content changed, so only those repaint.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QCoreApplication, QModelIndex, QPersistentModelIndex, Qt, Signal

from core.progress import eta_seconds
from gui.texts import duration_text, eta_text, kind_label, status_label, stored_text, timestamp_text

__all__ = ["COLUMNS", "JobRow", "JobsModel"]

ROW_ROLE = Qt.ItemDataRole.UserRole + 1
"""``data(index, ROW_ROLE)`` is the row's :class:`JobRow`."""

COLUMNS = ("title", "kind", "status", "progress", "eta", "started", "duration")
_Index = QModelIndex | QPersistentModelIndex


@dataclass(slots=True)
class JobRow:
    """What the screen shows of one job (no payload, no session): a plain snapshot safe to keep."""

    id: uuid.UUID
    kind: str
    title: str
    status: str
    stage: str
    progress: float
    message: str
    error: str | None
    error_transient: bool
    attempts: int
    max_attempts: int
    phases: list[dict[str, Any]]
    detail: dict[str, Any]
    params: dict[str, Any]
    result_id: uuid.UUID | None
    run_after: datetime | None
    started_at: datetime | None
    finished_at: datetime | None
    created_at: datetime
    updated_at: datetime
    eta: float | None = field(default=None, compare=False)

    @classmethod
    def of(cls, job: Any) -> JobRow:
        """A snapshot of a store row (``core.schema.Job``)."""
        row = cls(
            id=job.id,
            kind=job.kind,
            title=job.title or "",
            status=job.status,
            stage=job.stage or "",
            progress=float(job.progress or 0.0),
            message=job.message or "",
            error=job.error,
            error_transient=bool(job.error_transient),
            attempts=int(job.attempts or 0),
            max_attempts=int(job.max_attempts or 0),
            phases=list(job.phases or []),
            detail=dict(job.detail or {}),
            params=dict(job.params or {}),
            result_id=job.result_id,
            run_after=job.run_after,
            started_at=job.started_at,
            finished_at=job.finished_at,
            created_at=job.created_at,
            updated_at=job.updated_at,
        )
        row.eta = eta_seconds(row)
        return row

    @property
    def only_extract(self) -> bool:
        """Whether the user asked for the text only (no study guide)."""
        return bool(self.params.get("only_extract", False))

    @property
    def display_name(self) -> str:
        """The title, or the file name of the document, or the id."""
        return self.title or str(self.params.get("path", "")).rsplit("/", 1)[-1] or str(self.id)[:8]

    def duration(self, now: datetime | None = None) -> float | None:
        """Seconds from start to finish (to now while running)."""
        if self.started_at is None:
            return None
        end = self.finished_at or (now or datetime.now(UTC))
        return max((end - self.started_at).total_seconds(), 0.0)


class JobsModel(QAbstractTableModel):
    """Rows of :class:`JobRow`, newest first. UI thread only.

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
        """Display text, tooltips, alignment and the :class:`JobRow` itself (``ROW_ROLE``)."""
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
                return stored_text(row.error)
            if column in ("title", "progress") and row.message:
                return stored_text(row.message)
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
        head_ids = {r.id for r in head}
        oldest_head = head[-1] if head else None
        # rows removed: inside the head's time range but not in the head
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
        # rows added at the top
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
        changed: list[int] = []
        for r in [*head, *updates]:
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
        """The position of a job, or ``None`` when it is not loaded."""
        return self._pos.get(job_id)

    def job_at(self, row: int) -> JobRow | None:
        """The row at a position."""
        return self.rows[row] if 0 <= row < len(self.rows) else None

    def _display(self, row: JobRow, column: str) -> str | None:
        if column == "title":
            return row.display_name
        if column == "kind":
            return kind_label(row.kind, row.only_extract)
        if column == "status":
            if row.status == "queued" and row.run_after is not None:
                return QCoreApplication.translate("JobsModel", "Retry at {time}").format(
                    time=timestamp_text(row.run_after)
                )
            return status_label(row.status)
        if column == "progress":
            return f"{round(row.progress * 100)}%"
        if column == "eta":
            return eta_text(row.eta) if row.status == "running" else ""
        if column == "started":
            return timestamp_text(row.started_at)
        if column == "duration":
            return duration_text(row.duration())
        return None

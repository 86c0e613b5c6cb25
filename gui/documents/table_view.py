"""The documents table's view: whole rows, several at once (Shift and Ctrl), no editing, a bar in the Progress column.

UI thread only. Column widths are the first-run defaults; the window saves and restores the header's state.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from gui.documents.progress_delegate import ProgressDelegate
from gui.documents.table_model import COLUMNS, JobsModel

__all__ = ["COLUMN_WIDTHS", "JobsView"]

COLUMN_WIDTHS = {"title": 200, "kind": 100, "status": 120, "progress": 130, "eta": 120, "started": 70, "duration": 90}
"""First-run widths of the columns, in pixels (the last column stretches)."""


class JobsView(QTableView):
    """A :class:`QTableView` over a :class:`~gui.documents.table_model.JobsModel`, set up for the jobs list."""

    def __init__(self, model: JobsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModel(model)
        self.setAccessibleName(QCoreApplication.translate("MainWindow", "Jobs"))
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(True)
        self.setShowGrid(False)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(28)
        self.setWordWrap(False)
        self.delegate = ProgressDelegate(self)
        self.setItemDelegateForColumn(COLUMNS.index("progress"), self.delegate)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in COLUMN_WIDTHS.items():
            self.setColumnWidth(COLUMNS.index(column), width)

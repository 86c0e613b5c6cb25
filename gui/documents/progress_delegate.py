"""Paints the Progress column as a bar, straight from the row snapshot — no widget per row, so it scales.

The bar's colour says the status (:func:`gui.theme.status_color`): a cancelled job is grey, never the error
colour. The text on the bar is the percentage, or the status for rows that did not run.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from gui.documents.table_model import ROW_ROLE, JobRow
from gui.theme import status_color

__all__ = ["ProgressDelegate"]


class ProgressDelegate(QStyledItemDelegate):
    """Draws one progress bar per row.

    Attributes:
        on_paint: Optional hook called with ``(row, time.perf_counter())`` after a bar is painted (benchmarks).
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.on_paint: Callable[[JobRow, float], None] | None = None

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        """Paint the selection background, the track, the filled part and the percentage."""
        row: JobRow | None = index.data(ROW_ROLE)
        if row is None:
            super().paint(painter, option, index)
            return
        palette: QPalette = option.palette  # type: ignore[attr-defined]
        rect: QRect = option.rect  # type: ignore[attr-defined]
        selected = bool(option.state & QStyle.StateFlag.State_Selected)  # type: ignore[attr-defined]
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if selected:
            painter.fillRect(rect, palette.color(QPalette.ColorRole.Highlight).lighter(130))
        track = rect.adjusted(4, 4, -4, -4)
        painter.setPen(palette.color(QPalette.ColorRole.Mid))
        painter.setBrush(palette.color(QPalette.ColorRole.Base))
        painter.drawRoundedRect(track, 3, 3)
        fraction = min(max(row.progress, 0.0), 1.0)
        if fraction > 0:
            filled = QRect(track)
            filled.setWidth(max(round(track.width() * fraction), 2))
            color: QColor = status_color(row.status, palette)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(color)
            painter.drawRoundedRect(filled, 3, 3)
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        # The text may straddle the filled part and the track: each half is written in the colour that reads on it.
        split = track.left() + round(track.width() * fraction) if fraction > 0 else track.left()
        on_fill = QColor("#000000") if status_color(row.status, palette).lightness() > 140 else QColor("#ffffff")
        for colour, clip in (
            (on_fill, QRect(track.left(), rect.top(), split - track.left(), rect.height())),
            (
                palette.color(QPalette.ColorRole.Text),
                QRect(split, rect.top(), track.right() - split + 1, rect.height()),
            ),
        ):
            if clip.width() > 0:
                painter.save()
                painter.setClipRect(clip)
                painter.setPen(colour)
                painter.drawText(track, Qt.AlignmentFlag.AlignCenter, text)
                painter.restore()
        painter.restore()
        if self.on_paint is not None:
            self.on_paint(row, time.perf_counter())

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        """At least 120 px wide."""
        hint = super().sizeHint(option, index)
        return QSize(max(hint.width(), 120), hint.height())

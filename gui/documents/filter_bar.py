"""The bar above the jobs table: one button per status filter, and the search box (debounced).

The bar only reports what the user chose (:attr:`FilterBar.filter_chosen`, :attr:`FilterBar.search_changed`); the
window hands that to :class:`~gui.documents.feed.JobFeed`. UI thread only. The texts keep the ``MainWindow`` translation
context they had when they lived in :mod:`gui.main_window`.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QTimer, Signal
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QLineEdit, QPushButton, QWidget

__all__ = ["FilterBar"]


class FilterBar(QWidget):
    """Filter buttons (All, Active, Done, Failed, Cancelled) and the search box.

    Args:
        search_delay: Milliseconds of quiet typing before :attr:`search_changed` fires.

    Signals:
        filter_chosen: The key of the filter button clicked (``"all"``, ``"active"``, ``"done"``, …).
        search_changed: The search text, once the user paused typing.
    """

    filter_chosen = Signal(str)
    search_changed = Signal(str)

    def __init__(self, *, search_delay: int = 250, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.group = QButtonGroup(self)
        self.buttons: dict[str, QPushButton] = {}
        names = {
            "all": QCoreApplication.translate("MainWindow", "All"),
            "active": QCoreApplication.translate("MainWindow", "Active"),
            "done": QCoreApplication.translate("MainWindow", "Done"),
            "failed": QCoreApplication.translate("MainWindow", "Failed"),
            "cancelled": QCoreApplication.translate("MainWindow", "Cancelled"),
        }
        for key, text in names.items():
            button = QPushButton(text)
            button.setCheckable(True)
            button.setAccessibleName(QCoreApplication.translate("MainWindow", "Show: {filter}").format(filter=text))
            button.clicked.connect(lambda _c=False, k=key: self.filter_chosen.emit(k))
            self.group.addButton(button)
            self.buttons[key] = button
            layout.addWidget(button)
        self.buttons["all"].setChecked(True)
        layout.addStretch(1)
        self.search = QLineEdit()
        self.search.setPlaceholderText(QCoreApplication.translate("MainWindow", "Search documents"))
        self.search.setAccessibleName(QCoreApplication.translate("MainWindow", "Search documents"))
        self.search.setClearButtonEnabled(True)
        self.search.setMinimumWidth(220)
        self.search_timer = QTimer(self)
        self.search_timer.setSingleShot(True)
        self.search_timer.setInterval(search_delay)
        self.search_timer.timeout.connect(lambda: self.search_changed.emit(self.search.text()))
        self.search.textChanged.connect(lambda _t: self.search_timer.start())
        layout.addWidget(self.search)

    def stop(self) -> None:
        """Drop a pending search (the window is shutting down)."""
        self.search_timer.stop()

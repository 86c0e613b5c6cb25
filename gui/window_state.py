"""Where the main window remembers its size, toolbar, column widths and splitter: ``<data_dir>/window.ini``.

UI thread only. Nothing is restored from a value that is missing or empty, so a first run keeps the defaults.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QMainWindow, QSplitter, QTableView

__all__ = ["DEFAULT_SIZE", "restore_window_state", "save_window_state"]

DEFAULT_SIZE = (1320, 680)
"""The window's size on a first run."""


def _store(data_dir: Path) -> QSettings:
    return QSettings(str(data_dir / "window.ini"), QSettings.Format.IniFormat)


def save_window_state(data_dir: Path, window: QMainWindow, view: QTableView, splitter: QSplitter) -> None:
    """Write the geometry, the dock/toolbar state, the table header and the splitter."""
    store = _store(data_dir)
    store.setValue("geometry", window.saveGeometry())
    store.setValue("state", window.saveState())
    store.setValue("columns", view.horizontalHeader().saveState())
    store.setValue("splitter", splitter.saveState())
    store.sync()


def restore_window_state(data_dir: Path, window: QMainWindow, view: QTableView, splitter: QSplitter) -> None:
    """Apply what :func:`save_window_state` wrote; a first run gets :data:`DEFAULT_SIZE`."""
    store = _store(data_dir)
    for key, restore in (
        ("geometry", window.restoreGeometry),
        ("state", window.restoreState),
        ("columns", view.horizontalHeader().restoreState),
        ("splitter", splitter.restoreState),
    ):
        value = store.value(key)
        if isinstance(value, QByteArray) and not value.isEmpty():
            restore(value)
    if store.value("geometry") is None:
        window.resize(*DEFAULT_SIZE)

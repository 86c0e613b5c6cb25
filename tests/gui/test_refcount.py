"""The PySide6 pin: 6.12.0 on Python 3.11 corrupts the refcount of None and aborts after ~5,000 Qt calls."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from importlib.metadata import version

SCRIPT = textwrap.dedent(
    """
    import sys
    from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
    from PySide6.QtWidgets import QApplication, QLabel

    class Empty(QAbstractTableModel):
        def rowCount(self, parent=QModelIndex()):
            return 0 if parent.isValid() else 1
        def columnCount(self, parent=QModelIndex()):
            return 0 if parent.isValid() else 1
        def data(self, index, role=Qt.ItemDataRole.DisplayRole):
            return None

    app = QApplication([])
    label = QLabel()
    model = Empty()
    index = model.index(0, 0)
    before = sys.getrefcount(None)
    calls = 0
    for i in range(7000):
        label.setToolTip("")          # returns None
        label.toolTip()
        model.data(index)             # Python data() returning None, through Qt
        index.data(Qt.ItemDataRole.ToolTipRole)   # C++ calls data(), gets None back
        calls += 4
    after = sys.getrefcount(None)
    print(calls, before, after)
    """
)


def test_many_qt_calls_returning_none_do_not_abort_the_interpreter():
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    calls, before, after = map(int, done.stdout.split())
    assert calls >= 20_000
    assert after >= before - 100, "the refcount of None went down: PySide6 is dropping references to None"


def test_the_installed_pyside6_is_below_6_12():
    major, minor = (int(x) for x in version("PySide6-Essentials").split(".")[:2])
    assert (major, minor) < (6, 12)
    assert (major, minor) >= (6, 9)

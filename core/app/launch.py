"""The command that starts the worker detached and quietly: what the login entry runs and what ``studyjobs start``
and the window launch.

Stdlib only; never imports ``daemon`` (the worker is named by its module path) nor Qt.
"""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["WORKER_EXECUTABLE", "worker_command"]

WORKER_EXECUTABLE = "studyjobs-worker"
"""The worker's executable in a frozen bundle (``.exe`` added on Windows), next to the GUI's."""


def worker_command() -> tuple[str, list[str]]:
    """The program and arguments that start the worker quietly at login.

    In a frozen bundle (PyInstaller, the macOS ``.app``): the ``studyjobs-worker`` executable next to
    ``sys.executable`` with ``daemon --autostart --watch``. From source: ``sys.executable -m daemon.cli daemon
    --autostart --watch`` (``pythonw.exe`` on Windows when it exists, so no console window opens at login).
    ``--watch`` starts the worker again if it crashes (``daemon.watchdog``): nobody watches a worker started at
    login.
    """
    here = Path(sys.executable)
    if getattr(sys, "frozen", False):
        name = WORKER_EXECUTABLE + (".exe" if sys.platform == "win32" else "")
        return str(here.with_name(name)), ["daemon", "--autostart", "--watch"]
    exe = here
    if sys.platform == "win32" and here.name.lower() == "python.exe" and here.with_name("pythonw.exe").is_file():
        exe = here.with_name("pythonw.exe")
    return str(exe), ["-m", "daemon.cli", "daemon", "--autostart", "--watch"]

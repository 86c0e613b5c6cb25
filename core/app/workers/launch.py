"""The command that starts the worker detached and quietly: what the login entry runs and what ``studyjobs start``
and the window launch.

Stdlib only; never imports ``daemon`` (the worker is named by its module path) nor Qt.
"""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["BACKGROUND_LAUNCHER", "WORKER_EXECUTABLE", "login_command", "worker_command"]

WORKER_EXECUTABLE = "studyjobs-worker"
"""The worker's executable in a frozen bundle (``.exe`` added on Windows), next to the GUI's."""
BACKGROUND_LAUNCHER = "studyjobs-background.exe"
"""In the Windows bundle, the windowed launcher that starts the (console) worker without a console window
(packaging/windows/background_launcher.c)."""


def worker_command() -> tuple[str, list[str]]:
    """The program and arguments that start the worker quietly at login.

    In a frozen bundle (PyInstaller, the macOS ``.app``): the ``studyjobs-worker`` executable next to
    ``sys.executable`` with ``daemon --autostart --watch``. From source: ``sys.executable -m daemon.cli.main daemon
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
    return str(exe), ["-m", "daemon.cli.main", "daemon", "--autostart", "--watch"]


def login_command(platform: str = sys.platform) -> tuple[str, list[str]]:
    """The command of the login entry: :func:`worker_command`, except in the Windows bundle.

    There the worker is a console program, and Windows opens a console window for one started at login: the entry
    runs :data:`BACKGROUND_LAUNCHER` next to it instead, with the same arguments, which starts the worker without
    a window (the worker still writes its rotating log).
    """
    exe, args = worker_command()
    if platform == "win32" and getattr(sys, "frozen", False):
        return str(Path(exe).with_name(BACKGROUND_LAUNCHER)), args
    return exe, args

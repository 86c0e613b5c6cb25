"""``studyjobs daemon --watch``: keep a worker running — start it as a child, and again whenever it dies.

The exit codes of :mod:`core.app.exit_codes` (restart, job stuck, idle, already running, usage) are the contract
with the child; the crash back-off and when the watchdog gives up are in docs/design/worker.md.
Threading: one thread; the signal handlers only set an event.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from core.app.exit_codes import EXIT_ALREADY_RUNNING, EXIT_IDLE, EXIT_JOB_STUCK, EXIT_RESTART, EXIT_USAGE
from daemon.signals import stop_on_signals

if TYPE_CHECKING:
    from core.app.settings.config import Settings

__all__ = [
    "ENV_GAVE_BACK",
    "ENV_WATCHED",
    "MAX_QUICK_CRASHES",
    "RESTART_DELAYS",
    "STEADY_AFTER",
    "child_command",
    "describe_exit",
    "restart_delays",
    "run_watchdog",
    "watch",
    "watch_settled",
]

log = logging.getLogger(__name__)

RESTART_DELAYS: tuple[float, ...] = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
"""Seconds before each restart after crashes in a row (the last one repeats)."""
STEADY_AFTER = 60.0
"""A child that ran this long before it died crashed once, not in a loop: the delays start again."""
MAX_QUICK_CRASHES = 10
"""Crashes in a row, each within :data:`STEADY_AFTER` of its start, after which the watchdog gives up."""
STOP_TIMEOUT = 15.0
"""How long a stop waits for the child's graceful stop (which itself takes at most ~10 s) before killing it."""
ENV_GAVE_BACK = "STUDYJOBS_GAVE_BACK"
"""Set, for a worker started again after :data:`EXIT_IDLE`, to the pid of the worker that exited: the new one has no
model loaded, starts no reader process until a job needs one, and its row replaces the row the old one left."""
ENV_WATCHED = "STUDYJOBS_WATCHED"
"""Set to ``"1"`` in the child's environment: a worker under a watchdog leaves a restart to it."""
ENV_DELAYS = "STUDYJOBS_WATCHDOG_DELAYS"
"""``"0.1,0.2"`` replaces :data:`RESTART_DELAYS` (tests)."""

_SIGNALS = {
    "SIGILL": "an illegal instruction: a program built for processor instructions this machine does not have",
    "SIGSEGV": "a segmentation fault",
    "SIGBUS": "a bus error",
    "SIGABRT": "an abort inside a native library",
    "SIGFPE": "an arithmetic fault",
    "SIGKILL": "killed from outside, perhaps by the system for lack of memory",
}
_WINDOWS_EXCEPTIONS = {
    0xC000001D: "an illegal instruction: a program built for processor instructions this machine does not have",
    0xC0000005: "an access violation",
    0xC0000409: "a fail-fast abort inside a native library",
    0xC00000FD: "a stack overflow",
}


def describe_exit(returncode: int) -> str:
    """How a process that ended with ``returncode`` crashed, in words; ``""`` when it exited by itself.

    POSIX: a small negative code is the signal that killed it. Windows: the NTSTATUS of the exception that
    ended it (``subprocess`` reports it unsigned; either way is accepted).
    """
    if -64 < returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            return f"signal {-returncode}"
        return f"{name}, {_SIGNALS[name]}" if name in _SIGNALS else name
    status = returncode & 0xFFFFFFFF
    if status in _WINDOWS_EXCEPTIONS:
        return f"0x{status:08X}, {_WINDOWS_EXCEPTIONS[status]}"
    return ""


def restart_delays() -> tuple[float, ...]:
    """:data:`RESTART_DELAYS`, or the delays in ``$STUDYJOBS_WATCHDOG_DELAYS``."""
    raw = os.environ.get(ENV_DELAYS, "").strip()
    return tuple(float(x) for x in raw.split(",")) if raw else RESTART_DELAYS


def child_command(options: Sequence[str]) -> list[str]:
    """The worker to start: this executable's ``daemon`` command (a bundle's worker executable is the CLI)."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "daemon", *options]
    return [sys.executable, "-m", "daemon.cli.main", "daemon", *options]


def watch(options: Sequence[str]) -> int:
    """``studyjobs daemon --watch``: open the watchdog's log in the log folder and run :func:`run_watchdog`.

    The watchdog lives as long as its worker, so it imports only what it uses: the folders of the settings
    (:func:`core.app.settings.config.app_folders`, not the database layer nor anything of the jobs) and the log. The
    worker reads and checks the settings; bad ones end it with :data:`EXIT_USAGE`, and the watchdog with it.
    """
    from core.app.settings.config import app_folders

    return _watch_logged(app_folders()[1], options)


def watch_settled(settings: Settings, options: Sequence[str]) -> int:
    """:func:`run_watchdog` with its log in the log folder of ``settings``."""
    return _watch_logged(settings.log_dir, options)


def _watch_logged(log_dir: Path, options: Sequence[str]) -> int:
    from core.app.logs import configure_logging

    configure_logging(log_dir, "watchdog")
    return run_watchdog(options)


def run_watchdog(options: Sequence[str]) -> int:
    """Run ``studyjobs daemon <options>`` as a child until it stops by itself or we are told to stop.

    Returns:
        The exit code: 0 after a stop, the child's code when it ended by itself, 1 after giving up.
    """
    stop = stop_on_signals("the watchdog and its worker")
    delays = restart_delays()
    command = child_command(options)
    quick_crashes = 0
    log.info("watching the worker: %s", " ".join(command))
    gave_back_by: int | None = None
    while True:
        started = time.monotonic()
        try:
            child = subprocess.Popen(command, stdin=subprocess.DEVNULL, env=_child_env(gave_back_by=gave_back_by))
        except OSError:
            log.exception("the worker could not be started: %s", " ".join(command))
            return 1
        code = _wait(child, stop)
        if code is None:
            return _stop(child)
        gave_back_by = child.pid if code == EXIT_IDLE else None
        if code in (EXIT_RESTART, EXIT_IDLE):
            why = "gave its memory back" if gave_back_by else "stopped to start again with new settings"
            log.info("the worker %s; starting it now", why)
            quick_crashes = 0
            continue
        if code == EXIT_JOB_STUCK:
            log.warning("the worker ended itself to free a stuck job; starting it again now")
            quick_crashes = 0
            continue
        if code in (0, EXIT_ALREADY_RUNNING, EXIT_USAGE):
            log.info("the worker ended by itself (exit code %d)", code)
            return code
        ran = time.monotonic() - started
        quick_crashes = quick_crashes + 1 if ran < STEADY_AFTER else 1
        how = describe_exit(code) or f"exit code {code}"
        if quick_crashes >= MAX_QUICK_CRASHES:
            log.error(
                "the worker stopped %d times in a row soon after starting (last: %s); giving up", quick_crashes, how
            )
            return 1
        delay = delays[min(quick_crashes, len(delays)) - 1]
        log.warning("the worker stopped unexpectedly after %.0f s (%s); starting it again in %g s", ran, how, delay)
        if stop.wait(delay):
            return 0


def _child_env(*, gave_back_by: int | None) -> dict[str, str]:
    """The worker's environment: this one, watched, and :data:`ENV_GAVE_BACK` (the pid of the worker that gave its
    memory back) only after :data:`EXIT_IDLE`."""
    env = {key: value for key, value in os.environ.items() if key != ENV_GAVE_BACK}
    return {**env, ENV_WATCHED: "1", **({ENV_GAVE_BACK: str(gave_back_by)} if gave_back_by is not None else {})}


def _wait(child: subprocess.Popen[bytes], stop: threading.Event) -> int | None:
    """The child's exit code, or ``None`` as soon as a stop is requested."""
    while not stop.is_set():
        try:
            return child.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            continue
    return None


def _stop(child: subprocess.Popen[bytes]) -> int:
    if child.poll() is None:
        if sys.platform == "win32":
            child.terminate()
        else:
            child.send_signal(signal.SIGTERM)  # the worker's graceful stop
        try:
            child.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            log.warning("the worker did not stop within %.0f s; killing it", STOP_TIMEOUT)
            child.kill()
            child.wait()
    log.info("the worker stopped (exit code %s)", child.returncode)
    return 0

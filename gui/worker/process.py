"""Starting the worker daemon as a detached process (the GUI never imports it).

``studyjobs daemon --watch`` (module ``daemon.cli.main``; the watchdog starts the worker again if it crashes) is started
with ``[sys.executable, "-m", "daemon.cli.main", "daemon", "--watch"]`` in a new session, so it outlives the window.
Whether it really came up is decided later, by the ``workers`` table; this module only reports a process that could
not be started or that ended at once, in plain words.
"""

from __future__ import annotations

import logging
import os
import shlex
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from core.app.workers.launch import worker_command

__all__ = ["DEFAULT_COMMAND", "ENV_DAEMON_COMMAND", "START_LOG_LIMIT", "DaemonLauncher", "LaunchResult"]

log = logging.getLogger(__name__)

_WORKER, _WORKER_ARGS = worker_command()
START_LOG_LIMIT = 1_000_000
"""Bytes after which ``daemon-start.log`` is moved to ``daemon-start.log.1`` (one old copy kept) at the next start."""


def _keep_small(path: Path) -> None:
    """Move ``path`` aside to ``<path>.1`` when it has grown past :data:`START_LOG_LIMIT`; never raises."""
    try:
        if path.stat().st_size > START_LOG_LIMIT:
            path.replace(path.with_name(path.name + ".1"))
    except OSError:
        pass  # no log yet, or it cannot be moved: the worker still starts


DEFAULT_COMMAND: tuple[str, ...] = (_WORKER, *(a for a in _WORKER_ARGS if a != "--autostart"))
"""The worker next to this program, under its watchdog (started again if it crashes): ``python -m daemon.cli.main daemon
--watch`` from source, ``studyjobs-worker daemon --watch`` in a bundle (there ``sys.executable`` is the app itself,
which knows no ``-m``)."""
ENV_DAEMON_COMMAND = "STUDYJOBS_DAEMON_COMMAND"
"""A shell-quoted command that replaces :data:`DEFAULT_COMMAND` (tests, portable installs); ``off`` starts none."""


@dataclass(frozen=True)
class LaunchResult:
    """What happened when the daemon was started.

    Attributes:
        ok: The process started and was still alive when last looked at.
        pid: Its process id (``None`` when it could not start).
        error: What went wrong, for the log and the status bar (``""`` when ``ok``).
    """

    ok: bool
    pid: int | None = None
    error: str = ""


class DaemonLauncher:
    """Starts the daemon detached and tells whether it stayed up.

    Args:
        command: The command line; default :data:`DEFAULT_COMMAND`, or ``$STUDYJOBS_DAEMON_COMMAND``.
        log_dir: Where its start-up output goes (``daemon-start.log``), so a crash at start is explained.
        env: The environment to pass (default: this process's).
    """

    def __init__(
        self,
        command: Sequence[str] | None = None,
        *,
        log_dir: Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        if command is None:
            override = os.environ.get(ENV_DAEMON_COMMAND, "").strip()
            command = shlex.split(override) if override else DEFAULT_COMMAND
        self.command = list(command)
        self.log_dir = log_dir
        self.env = dict(env) if env is not None else None
        self.process: subprocess.Popen[bytes] | None = None
        self._log_path: Path | None = None

    @property
    def enabled(self) -> bool:
        """``False`` when the command is ``off`` (start nothing)."""
        return self.command != ["off"]

    def start(self) -> LaunchResult:
        """Start the process in a new session; never raises."""
        if not self.enabled:
            return LaunchResult(False, error="starting the worker is turned off")
        out = subprocess.DEVNULL
        try:
            if self.log_dir is not None:
                self.log_dir.mkdir(parents=True, exist_ok=True)
                self._log_path = self.log_dir / "daemon-start.log"
                _keep_small(self._log_path)
                out = open(self._log_path, "ab")  # noqa: SIM115 - handed to the child, closed below
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=out,
                start_new_session=True,
                env=self.env,
                close_fds=True,
            )
        except OSError as exc:
            log.warning("could not start the worker %s: %s", self.command, exc)
            return LaunchResult(False, error=str(exc.strerror or exc))
        finally:
            if out is not subprocess.DEVNULL:
                out.close()  # type: ignore[union-attr]
        log.info("started the worker: pid %s, %s", self.process.pid, self.command)
        return LaunchResult(True, pid=self.process.pid)

    def check(self) -> LaunchResult:
        """Whether the process started last is still alive; if it ended, why (the tail of its output)."""
        if self.process is None:
            return LaunchResult(False, error="not started")
        code = self.process.poll()
        if code is None:
            return LaunchResult(True, pid=self.process.pid)
        return LaunchResult(False, pid=self.process.pid, error=self._tail() or f"exit code {code}")

    def wait_started(self, seconds: float = 1.0) -> LaunchResult:
        """Poll :meth:`check` for up to ``seconds`` (a blocking helper for scripts and tests, not the UI)."""
        deadline = time.monotonic() + seconds
        result = self.check()
        while result.ok and time.monotonic() < deadline:
            time.sleep(0.05)
            result = self.check()
        return result

    def _tail(self) -> str:
        if self._log_path is None or not self._log_path.exists():
            return ""
        lines = [ln for ln in self._log_path.read_text(encoding="utf-8", errors="replace").splitlines() if ln.strip()]
        return lines[-1].strip() if lines else ""

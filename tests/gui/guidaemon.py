"""A real worker daemon for the window's tests: the tiny model, the daemon's settings, the process, the CLI.

Everything daemon-side runs in subprocesses (``python -m daemon.cli.main …``): the GUI tests never import ``daemon``.
:class:`DaemonProcess` stops what it started (SIGTERM, then wait; SIGKILL only if it does not stop in 15 s).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import tomli_w

from core.app.settings.config import ENV_DATA_DIR

ROOT = Path(__file__).resolve().parents[2]


def write_tiny_model(path: Path) -> Path:
    """Write the suite's tiny deterministic GGUF model at ``path`` (in a subprocess) and return ``path``."""
    code = (
        "import sys, pathlib; from devkit.tiny_gguf import write_tiny_model; "
        "write_tiny_model(pathlib.Path(sys.argv[1]))"
    )
    subprocess.run([sys.executable, "-c", code, str(path)], cwd=ROOT, check=True, timeout=120)
    return path


def write_settings(
    data: Path, output: Path, *, language: str = "en", model: Path, stale_after: float | None = 5.0
) -> None:
    """The ``settings.toml`` the daemon and the CLI read from ``data``: ``language`` and the GGUF ``model``.

    ``stale_after`` (seconds; ``None`` keeps the default) is short by default, so a test that stops a worker sees
    its job come back quickly.
    """
    doc: dict[str, Any] = {
        "output_dir": str(output),
        "language": language,
        "hide_to_tray": False,
        "model": {"kind": "gguf", "gguf_path": str(model), "n_threads": 1},
    }
    if stale_after is not None:
        doc["stale_after"] = stale_after
    (data / "settings.toml").write_text(tomli_w.dumps(doc), encoding="utf-8")


def environment(data: Path, **extra: str) -> dict[str, str]:
    """This process's environment without ``STUDYJOBS_*`` knobs, pointed at ``data``, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("STUDYJOBS_")}
    env.update({ENV_DATA_DIR: str(data), "PYTHONPATH": str(ROOT), **extra})
    return env


def stop_process(process: subprocess.Popen[Any] | None) -> None:
    """Stop ``process`` if it still runs: SIGTERM and wait, SIGKILL only if it has not stopped after 15 s."""
    if process is None or process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def studyjobs(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the ``studyjobs`` command line on ``data`` and return what it printed (it must succeed)."""
    return subprocess.run(
        [sys.executable, "-m", "daemon.cli.main", *args],
        cwd=ROOT,
        env=environment(data),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


class DaemonProcess:
    """``python -m daemon.cli.main daemon`` on ``data`` while the ``with`` block runs (stopped gracefully after)."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> DaemonProcess:
        log = (self.data / "daemon-test.out").open("wb")
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "daemon.cli.main", "daemon"],
                cwd=ROOT,
                env=environment(self.data),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        finally:
            log.close()
        return self

    def __exit__(self, *exc: object) -> None:
        stop_process(self.process)

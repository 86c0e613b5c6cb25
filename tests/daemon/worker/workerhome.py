"""Helpers for the worker daemon's tests: a data folder with settings, real daemon processes, polling."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import tomli_w

ROOT = Path(__file__).resolve().parents[3]


class DaemonHome:
    """A data folder with its settings, and the daemons started on it (all stopped at teardown)."""

    def __init__(self, root: Path, settings: dict) -> None:
        self.root = root
        self.data_dir = root / "data"
        self.output_dir = root / "guides"
        self.data_dir.mkdir(parents=True)
        self.settings = {"output_dir": str(self.output_dir), "stale_after": 3.0, "language": "pt_BR", **settings}
        self.write_settings()
        self.processes: list[subprocess.Popen[str]] = []

    def write_settings(self) -> None:
        (self.data_dir / "settings.toml").write_text(tomli_w.dumps(self.settings), encoding="utf-8")

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("STUDYJOBS_")}
        env.update({"STUDYJOBS_DATA_DIR": str(self.data_dir), "PYTHONPATH": str(ROOT), **extra})
        return env

    def start(self, *args: str, **env: str) -> subprocess.Popen[str]:
        process = subprocess.Popen(
            [sys.executable, "-m", "daemon.cli.main", "daemon", *args],
            env=self.env(**env),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.processes.append(process)
        return process

    def cli(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "daemon.cli.main", *args],
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def stop_all(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
            if process.stdout:
                process.stdout.close()


def run(coro):
    """Run one coroutine on a fresh loop (the tests here are plain functions driving real processes)."""
    return asyncio.run(coro)

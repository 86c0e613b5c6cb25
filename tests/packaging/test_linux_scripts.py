"""The tarball's install.sh and uninstall.sh, run for real in a temporary HOME on a stand-in bundle."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gui.worker import autostart

ROOT = Path(__file__).resolve().parents[2]
LINUX = ROOT / "packaging" / "linux"
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the Linux tarball's scripts")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "STUDYJOBS_DATA_DIR"):
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture
def stage(tmp_path: Path) -> Path:
    """An unpacked tarball whose ``studyjobs-worker`` is a copy of ``sleep`` (so a running "worker" can be stopped)."""
    stage = tmp_path / "StudyJobs-0.1.0-linux-x86_64"
    bundle = stage / "StudyJobs"
    bundle.mkdir(parents=True)
    shutil.copy2(shutil.which("sleep") or "/bin/sleep", bundle / "studyjobs-worker")
    (bundle / "StudyJobs").write_text("#!/bin/sh\nexit 0\n")
    (bundle / "StudyJobs").chmod(0o755)
    for name in ("studyjobs.desktop", "install.sh", "uninstall.sh", "README.txt"):
        shutil.copy2(LINUX / name, stage / name)
    shutil.copy2(ROOT / "resources" / "icons" / "studyjobs.svg", stage / "studyjobs.svg")
    return stage


def _run(*command: str | Path, answer: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(c) for c in command], input=answer, capture_output=True, text=True, timeout=60, check=True, env=os.environ
    )


def test_install_puts_the_folder_menu_entry_and_command_in_place(home: Path, stage: Path) -> None:
    prefix = home / "My Apps" / "Study$Jobs"  # a space and a dollar: the menu entry must quote and escape
    _run("sh", stage / "install.sh", "--prefix", prefix)
    assert (prefix / "StudyJobs").is_file() and (prefix / "uninstall.sh").is_file()
    entry = (home / ".local/share/applications/studyjobs.desktop").read_text("utf-8")
    exec_line = next(line for line in entry.splitlines() if line.startswith("Exec="))
    expected = autostart.render_desktop_entry(str(prefix / "StudyJobs"), []).split("Exec=")[1].splitlines()[0]
    assert exec_line == f"Exec={expected} %F"
    assert (home / ".local/share/icons/hicolor/scalable/apps/studyjobs.svg").is_file()
    assert (home / ".local/bin/studyjobs").resolve() == (prefix / "studyjobs-worker").resolve()


def test_uninstall_keeps_the_data_folder_and_purge_deletes_it(home: Path, stage: Path) -> None:
    prefix = home / ".local/opt/StudyJobs"
    _run("sh", stage / "install.sh")
    autostart.enable(str(prefix / "studyjobs-worker"), ["daemon", "--autostart"])
    data = home / ".local/share/StudyJobs"
    data.mkdir(parents=True)
    (data / "studyjobs.db").write_bytes(b"jobs")
    logs = home / ".local/state/StudyJobs/log"
    logs.mkdir(parents=True)
    stranger = subprocess.Popen(["sleep", "60"])  # a process not from the install: never stopped
    worker = subprocess.Popen([str(prefix / "studyjobs-worker"), "60"])
    try:
        (data / "daemon.lock").write_text(str(worker.pid))
        result = _run("sh", prefix / "uninstall.sh")
        assert worker.wait(timeout=10) == -15  # SIGTERM: the installed worker was asked to stop
        assert stranger.poll() is None
    finally:
        for process in (worker, stranger):
            process.kill()
            process.wait()
    assert not prefix.exists()
    assert autostart.status() is autostart.AutostartStatus.DISABLED
    assert not (home / ".local/share/applications/studyjobs.desktop").exists()
    assert not (home / ".local/bin/studyjobs").exists()
    assert (data / "studyjobs.db").read_bytes() == b"jobs"
    assert "Kept your jobs" in result.stdout

    declined = _run("sh", stage / "uninstall.sh", "--purge", answer="n\n")
    assert (data / "studyjobs.db").exists() and "Kept" in declined.stdout
    _run("sh", stage / "uninstall.sh", "--purge", "--yes")
    assert not data.exists() and not logs.parent.exists()


def test_uninstall_leaves_a_folder_that_is_not_studyjobs(home: Path, stage: Path) -> None:
    other = home / "Documents"
    other.mkdir()
    (other / "thesis.txt").write_text("mine")
    result = subprocess.run(
        ["sh", str(stage / "uninstall.sh"), "--prefix", str(other)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0
    assert (other / "thesis.txt").read_text() == "mine"
    assert "does not look like a StudyJobs installation" in result.stderr

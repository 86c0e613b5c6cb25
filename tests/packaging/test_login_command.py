"""The login entry's command: the worker itself, except in the Windows bundle, where a launcher without a console
window starts it (packaging/windows/background_launcher.c; the installed Run value is checked under Wine by
test_packaging_windows.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from core.app.workers.launch import BACKGROUND_LAUNCHER, login_command, worker_command

ROOT = Path(__file__).resolve().parents[2]


def test_from_source_the_login_entry_runs_the_worker_command() -> None:
    assert login_command("win32") == worker_command()
    assert login_command("linux") == worker_command()


def test_in_a_frozen_bundle_on_windows_the_login_entry_runs_the_background_launcher(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "StudyJobs.exe"))
    worker, args = worker_command()
    exe, login_args = login_command("win32")
    assert Path(exe) == tmp_path / BACKGROUND_LAUNCHER
    assert login_args == args == ["daemon", "--autostart", "--watch"]
    assert login_command("darwin") == (worker, args)  # the macOS LaunchAgent starts no window


def test_the_installer_and_the_build_name_the_same_launcher() -> None:
    windows = ROOT / "packaging" / "windows"
    assert f'"$INSTDIR\\{BACKGROUND_LAUNCHER}" daemon --autostart --watch' in (windows / "studyjobs.nsi").read_text()
    assert f"$DIST/{BACKGROUND_LAUNCHER}" in (windows / "build.sh").read_text()

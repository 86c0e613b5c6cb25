"""The .deb, installed for real with apt-get on this machine, used from a fresh home, then removed.

Needs root (apt-get installs into /opt, /usr/bin and /usr/share) and the build of ``linux_build`` (only with
``STUDYJOBS_BUILD_BUNDLE=1``). A real login cannot be had here: the worker "at login" is the command of the XDG
autostart entry the installed window wrote, run the way a desktop runs it (its ``Exec`` line, the user's home, no
terminal), and it must take a document added from the installed command line.
"""

from __future__ import annotations

import configparser
import json
import os
import shlex
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from tests.packaging.linuxbuild import LinuxBuild, needs_build
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
PREFIX = Path("/opt/studyjobs")
MENU_ENTRY = Path("/usr/share/applications/studyjobs.desktop")
PDF = ROOT / "resources" / "selftest" / "photosynthesis.pdf"

pytestmark = [
    *needs_build,
    pytest.mark.skipif(
        not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("apt-get") is None,
        reason="installs the .deb with apt-get, which needs root on a Debian or Ubuntu machine",
    ),
]


def _run(command: list[str], home: Path | None = None, timeout: float = 600, **env: str) -> str:
    result = subprocess.run(
        command, env=_env(home, **env), capture_output=True, text=True, timeout=timeout, check=False
    )
    assert result.returncode == 0, (
        f"{command}: exit {result.returncode}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    )
    return result.stdout


def _env(home: Path | None, **extra: str) -> dict[str, str]:
    """A user's environment, not the test run's: no STUDYJOBS_* or XDG_* overrides, a UTF-8 locale."""
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}
    if home is not None:
        env["HOME"] = str(home)
    env["DEBIAN_FRONTEND"] = "noninteractive"
    return {**env, **extra}


def _apt_install(deb: Path) -> None:
    command = ["apt-get", "install", "-y", "-q", "--reinstall", "--no-install-recommends", f"./{deb.name}"]
    result = subprocess.run(command, cwd=deb.parent, env=_env(None), capture_output=True, text=True, timeout=900)
    if result.returncode != 0:  # a dependency not in the package lists yet: read them, then try once more
        subprocess.run(["apt-get", "update", "-q"], env=_env(None), capture_output=True, timeout=600, check=False)
        result = subprocess.run(command, cwd=deb.parent, env=_env(None), capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]


def _installed_processes(home: Path) -> list[psutil.Process]:
    """Running programs of the installed package started with ``home`` as their home."""
    found = []
    for process in psutil.process_iter(["exe"]):
        try:
            if str(process.info["exe"] or "").startswith(f"{PREFIX}/") and process.environ().get("HOME") == str(home):
                found.append(process)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


def _stop_installed_processes(home: Path) -> None:
    processes = _installed_processes(home)
    for process in processes:
        process.send_signal(signal.SIGTERM)
    _, alive = psutil.wait_procs(processes, timeout=20)
    for process in alive:
        process.kill()


def _desktop_keys(path: Path) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(path, encoding="utf-8")
    return dict(parser["Desktop Entry"])


@pytest.fixture
def installed(linux_build: LinuxBuild) -> Iterator[Path]:
    """The .deb installed with apt-get; removed (and purged) afterwards whatever happened."""
    linux_build.check()
    debs = list(linux_build.folder.glob("studyjobs_*_amd64.deb"))
    assert len(debs) == 1, f"no .deb in {linux_build.folder}: {linux_build.stdout[-2000:]}"
    _apt_install(debs[0])
    try:
        yield debs[0]
    finally:
        subprocess.run(["dpkg", "--purge", "studyjobs"], env=_env(None), capture_output=True, timeout=300, check=False)


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    home = tmp_path / "ana"
    home.mkdir()
    try:
        yield home
    finally:
        _stop_installed_processes(home)


@pytest.mark.timeout(2400)
def test_the_deb_installs_self_tests_starts_the_worker_at_login_and_removes_keeping_the_data(
    installed: Path, home: Path, linux_build: LinuxBuild
) -> None:
    assert "glibc:" in linux_build.stdout and "Debian 12" in linux_build.stdout
    _check_the_menu_entry_and_icons()
    worker = _run([str(PREFIX / "studyjobs-worker"), "--self-test"], home)
    assert "StudyJobs self-test passed (studyjobs-worker" in worker and "study guide of photosynthesis.pdf" in worker
    assert "text recognition (" in worker
    window = _run([str(PREFIX / "StudyJobs"), "--self-test"], home, QT_QPA_PLATFORM="offscreen")
    assert "StudyJobs self-test passed (StudyJobs" in window

    login_command = _the_window_writes_the_login_entry(home)
    login_worker = subprocess.Popen(
        login_command, env=_env(home), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_until(
            lambda: _alive_worker_under(login_worker, home),
            timeout=180,
            what="the worker started at login",
            interval=0.01,
        )
        _run(["studyjobs", "add", str(PDF), "--wait", "--no-start"], home)
    finally:
        login_worker.send_signal(signal.SIGTERM)
        login_worker.wait(timeout=30)
        _stop_installed_processes(home)
    data = home / ".local/share/StudyJobs"
    guides = {p: p.read_bytes() for p in (home / "Documents/StudyJobs").glob("*.md")}
    assert len(guides) == 1, list(home.rglob("*.md"))

    removed = subprocess.run(
        ["apt-get", "remove", "-y", "-q", "studyjobs"], env=_env(None), capture_output=True, text=True, timeout=600
    )
    assert removed.returncode == 0, removed.stderr[-3000:]
    assert not PREFIX.exists() and not MENU_ENTRY.exists() and not Path("/usr/bin/studyjobs").exists()
    assert (data / "settings.toml").read_text("utf-8") == "autostart = true\n"
    assert (data / "studyjobs.db").stat().st_size > 0
    assert {p: p.read_bytes() for p in guides if p.is_file()} == guides
    entry = _desktop_keys(home / ".config/autostart/studyjobs-worker.desktop")  # the user's: kept, and now inert
    assert entry["TryExec"] == str(PREFIX / "studyjobs-worker") and not Path(entry["TryExec"]).exists()


def _alive_worker_under(process: subprocess.Popen[bytes], home: Path) -> bool:
    """A worker that ``process`` or one of its children runs is registered alive (``studyjobs workers``)."""
    assert process.poll() is None, f"the login command exited with {process.returncode}"
    try:
        pids = {process.pid} | {c.pid for c in psutil.Process(process.pid).children(recursive=True)}
    except psutil.NoSuchProcess:
        return False
    result = subprocess.run(
        ["studyjobs", "workers", "--json"], env=_env(home), capture_output=True, text=True, timeout=60, check=False
    )
    rows = json.loads(result.stdout) if result.returncode == 0 and result.stdout.strip() else []
    return any(row["alive"] and row["pid"] in pids for row in rows)


def _check_the_menu_entry_and_icons() -> None:
    keys = _desktop_keys(MENU_ENTRY)
    assert keys["Exec"] == f"{PREFIX}/StudyJobs %F" and keys["TryExec"] == f"{PREFIX}/StudyJobs"
    assert keys["Icon"] == "studyjobs" and keys["Type"] == "Application"
    if shutil.which("desktop-file-validate"):
        _run(["desktop-file-validate", str(MENU_ENTRY)])
    icons = Path("/usr/share/icons/hicolor")
    assert (icons / "scalable/apps/studyjobs.svg").is_file()
    for size in (48, 128, 256):
        assert (icons / f"{size}x{size}/apps/studyjobs.png").stat().st_size > 500
    assert Path("/usr/bin/studyjobs").resolve() == PREFIX / "studyjobs-worker"


def _the_window_writes_the_login_entry(home: Path) -> list[str]:
    """Start the installed window with "start the worker when I log in" on; the command of the entry it writes."""
    settings = home / ".local/share/StudyJobs/settings.toml"
    settings.parent.mkdir(parents=True)
    settings.write_text("autostart = true\n", encoding="utf-8")
    entry = home / ".config/autostart/studyjobs-worker.desktop"
    window = subprocess.Popen(
        [str(PREFIX / "StudyJobs")],
        env=_env(home, QT_QPA_PLATFORM="offscreen"),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until(
            lambda: entry.is_file() or window.poll() is not None, timeout=120, what="the login entry", interval=0.01
        )
        assert window.poll() is None, f"the window exited with {window.returncode}"
    finally:
        window.terminate()
        window.wait(timeout=30)
        _stop_installed_processes(home)  # the worker the window started
    keys = _desktop_keys(entry)
    command = shlex.split(keys["Exec"])
    assert command == [str(PREFIX / "studyjobs-worker"), "daemon", "--autostart", "--watch"]
    assert keys["TryExec"] == command[0]
    return command

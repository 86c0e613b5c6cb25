"""The app as users start it: one instance per data folder, files handed over, a clean and quick exit."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.app.settings.config import default_database_url
from core.app.storage.database import make_app_store, open_app_database
from core.app.workers.registry import register_worker
from gui.worker.process import DEFAULT_COMMAND, START_LOG_LIMIT, DaemonLauncher, LaunchResult
from tests import waiting
from tests.jobhistory import seed_showcase

ROOT = Path(__file__).resolve().parents[2]


def _env(data: Path, **extra: str) -> dict[str, str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "STUDYJOBS_DATA_DIR": str(data)}
    env.pop("STUDYJOBS_DATABASE_URL", None)
    env.update(extra)
    return env


def _logged(log: Path, text: str, proc: subprocess.Popen[str]) -> None:
    """Wait for ``text`` in the app's ``log``; fail at once if the app ended."""

    def seen() -> bool:
        if log.exists() and text in log.read_text(encoding="utf-8"):
            return True
        if proc.poll() is not None:
            raise AssertionError(f"the app ended early: {proc.stderr.read() if proc.stderr else ''}")
        return False

    waiting.wait_until(seen, timeout=30.0, what=f"{text!r} in {log}")


@pytest.mark.slow  # the app in a process of its own: the conftest's rule cannot see it
def test_a_second_launch_hands_over_and_the_app_quits_cleanly_in_under_two_seconds(tmp_path):
    data = tmp_path / "data"
    data.mkdir()

    async def prepare() -> None:
        db = await open_app_database(default_database_url(data))
        try:
            ids = await seed_showcase(make_app_store(db))
            assert ids["running"]
        finally:
            await db.dispose()

    asyncio.run(prepare())
    env = _env(data, STUDYJOBS_DAEMON_COMMAND="off")
    first = subprocess.Popen([sys.executable, "-m", "gui"], cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    try:
        log = data / "logs" / "gui.log"
        _logged(log, "window shown", first)
        doc = tmp_path / "Aula 1.pdf"
        doc.write_bytes(b"%PDF-1.4")
        second = subprocess.run([sys.executable, "-m", "gui", str(doc)], cwd=ROOT, env=env, capture_output=True,
                                text=True, timeout=60)  # fmt: skip
        assert second.returncode == 0, second.stderr
        _logged(log, "a second launch handed over 1 file(s)", first)
        assert first.poll() is None
        quitter = subprocess.run([sys.executable, "-m", "gui", "--quit"], cwd=ROOT, env=env, capture_output=True,
                                 text=True, timeout=60)  # fmt: skip
        assert quitter.returncode == 0, quitter.stderr
        began = time.monotonic()  # the request is sent: from here the window's own way out is timed
        code = first.wait(timeout=10)
        took = time.monotonic() - began
        stderr = first.stderr.read() if first.stderr else ""
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
        if first.stderr:
            first.stderr.close()
    assert code == 0, stderr
    assert "Traceback" not in stderr
    assert took < 2.0, took
    text = log.read_text(encoding="utf-8")
    assert "quitting" in text and "Traceback" not in text


@pytest.mark.slow  # the app in a process of its own: the conftest's rule cannot see it
def test_the_app_exits_on_sigterm_with_a_job_running(tmp_path):
    data = tmp_path / "data"
    data.mkdir()

    async def prepare() -> None:
        db = await open_app_database(default_database_url(data))
        try:
            await seed_showcase(make_app_store(db))
        finally:
            await db.dispose()

    asyncio.run(prepare())
    proc = subprocess.Popen([sys.executable, "-m", "gui", "--no-daemon"], cwd=ROOT, env=_env(data),
                            stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        _logged(data / "logs" / "gui.log", "window shown", proc)
        time.sleep(0.5)  # let the table load and the change check tick
        began = time.monotonic()
        proc.terminate()
        code = proc.wait(timeout=10)
        took = time.monotonic() - began
        stderr = proc.stderr.read() if proc.stderr else ""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr:
            proc.stderr.close()
    assert code == 0, stderr
    assert took < 2.0, took
    assert "Traceback" not in stderr


def test_a_daemon_that_cannot_start_is_a_clear_message_not_a_crash(window, tmp_path, run, wait_until):
    assert (sys.executable, "-m", "daemon.cli.main", "daemon", "--watch") == DEFAULT_COMMAND
    # a module that is not there, the way daemon.cli.main was missing before the daemon landed (never a real daemon
    # here: it would outlive the test)
    launcher = DaemonLauncher([sys.executable, "-m", "studyjobs_no_such_daemon", "daemon"], log_dir=tmp_path / "logs")
    window.daemon_bar.launcher = launcher

    async def scenario() -> None:
        await wait_until(lambda: window.daemon_bar.start_button.isVisible(), what="the Start button")
        window.daemon_bar.start_button.click()
        await wait_until(lambda: window.daemon_bar.launch_error, timeout=15, what="the launch error")

    run(scenario())
    assert "could not start" in window.daemon_bar.label.text()
    assert "No module named studyjobs_no_such_daemon" in window.daemon_bar.label.text()
    assert window.daemon_bar.start_button.isVisible() and window.daemon_bar.start_button.isEnabled()


def test_the_launcher_starts_a_detached_process_and_reports_an_early_exit(tmp_path):
    crash = DaemonLauncher([sys.executable, "-c", "import sys; print('no model found', file=sys.stderr); sys.exit(3)"],
                           log_dir=tmp_path)  # fmt: skip
    assert crash.start().ok
    result = crash.wait_started(5.0)
    if result.ok:  # each look waits 0.2 s for the process itself

        def ended() -> LaunchResult | None:
            looked = crash.wait_started(0.2)
            return None if looked.ok else looked

        result = waiting.wait_until(ended, timeout=5, what="the launcher to report the early exit", interval=0)
    assert not result.ok and result.error == "no model found"
    sleeper = DaemonLauncher([sys.executable, "-c", "import time; time.sleep(30)"], log_dir=tmp_path)
    started = sleeper.start()
    try:
        assert started.ok and sleeper.wait_started(0.3).ok
        assert os.getsid(started.pid) != os.getsid(0)  # its own session: it outlives the window
    finally:
        assert sleeper.process is not None
        sleeper.process.kill()
        sleeper.process.wait()
    missing = DaemonLauncher(["/nonexistent/studyjobs-daemon"]).start()
    assert not missing.ok and missing.error


def test_the_status_bar_shows_a_live_worker_and_hides_start(window, app_db, run, wait_until):
    async def scenario() -> None:
        await register_worker(app_db, host="pc", pid=1234, version="0.1.0", threads=2, broker="sqlite:///q.db")
        window.daemon_bar.look()
        await wait_until(lambda: window.daemon_bar.alive, what="the worker")

    run(scenario())
    assert "0 of 2" in window.daemon_bar.label.text()
    assert window.daemon_bar.start_button.isHidden()


def test_a_start_log_grown_past_its_limit_is_moved_aside_and_a_fresh_one_is_written(tmp_path):
    log = tmp_path / "daemon-start.log"
    log.write_bytes(b"old start output\n" * (START_LOG_LIMIT // 17 + 1))
    launcher = DaemonLauncher([sys.executable, "-c", "print('fresh start')"], log_dir=tmp_path)
    assert launcher.start().ok
    assert launcher.process is not None and launcher.process.wait(30) == 0
    assert (tmp_path / "daemon-start.log.1").stat().st_size > START_LOG_LIMIT
    assert log.read_text(encoding="utf-8") == "fresh start\n"
    small = DaemonLauncher([sys.executable, "-c", "print('second start')"], log_dir=tmp_path)
    assert small.start().ok
    assert small.process is not None and small.process.wait(30) == 0
    assert log.read_text(encoding="utf-8") == "fresh start\nsecond start\n"  # a small log is kept and appended to

"""``studyjobs daemon --watch``: a real watchdog process over real worker processes, killed for real."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.app.documents.job_ids import generate_job_id_for
from core.app.exit_codes import EXIT_ALREADY_RUNNING
from daemon.watchdog import child_command, describe_exit
from tests.daemon.worker.faults import PORTUGUESE, add, wait_ended, wait_job
from tests.daemon.worker.workerhome import DaemonHome
from tests.waiting import wait_until

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="signals")

QUICK = {"STUDYJOBS_WATCHDOG_DELAYS": "0.2"}


def _alive_worker_pids(home: DaemonHome) -> set[int]:
    result = home.cli("workers", "--json")
    return {w["pid"] for w in json.loads(result.stdout) if w["alive"]} if result.returncode == 0 else set()


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_worker_killed_mid_job_is_started_again_and_finishes_the_job_once(home: DaemonHome, tmp_path: Path):
    watchdog = home.start("--watch", **QUICK)
    (first,) = wait_until(lambda: _alive_worker_pids(home), what="the first worker", timeout=60.0)  # type: ignore[misc]
    assert first != watchdog.pid  # the worker is the watchdog's child, not the watchdog
    source = tmp_path / "longo.txt"
    source.write_text("\n\n".join([PORTUGUESE] * 80), encoding="utf-8")
    (ingest,) = add(home, source)
    generate = generate_job_id_for(ingest)
    wait_job(home, generate, lambda row: row.status == "running", timeout=120, what="the generate job to run")
    os.kill(first, signal.SIGKILL)  # as a native crash inside llama.cpp would end it
    second = wait_until(lambda: _alive_worker_pids(home) - {first}, what="a new worker", timeout=60.0)
    done = wait_ended(home, [generate], timeout=180)
    row = done.jobs[generate]
    assert (row.status, row.attempts) == ("done", 2), row.error
    assert watchdog.poll() is None
    log = (home.data_dir / "logs" / "watchdog.log").read_text(encoding="utf-8")
    assert "the worker stopped unexpectedly" in log and "SIGKILL" in log

    started = time.monotonic()
    watchdog.send_signal(signal.SIGTERM)
    assert watchdog.wait(20) == 0
    assert time.monotonic() - started < 15
    (pid,) = second  # type: ignore[misc]
    assert not _running(pid)  # stopped with it, gracefully
    assert pid not in {w["pid"] for w in json.loads(home.cli("workers", "--json").stdout)}  # its row is gone


def test_a_second_watchdog_ends_with_its_worker_when_the_folder_is_taken(home: DaemonHome):
    home.start("--watch", **QUICK)
    wait_until(lambda: _alive_worker_pids(home), what="the first worker", timeout=60.0)
    second = home.start("--watch", **QUICK)
    assert second.wait(60) == EXIT_ALREADY_RUNNING
    quiet = home.start("--watch", "--autostart", **QUICK)
    assert quiet.wait(60) == 0  # at login: silently, and no restart loop
    assert len(_alive_worker_pids(home)) == 1


def test_a_worker_that_cannot_start_is_given_up_after_repeated_crashes(home: DaemonHome):
    home.settings["database_url"] = "postgresql+asyncpg://postgres@127.0.0.1:1/unreachable"
    home.write_settings()
    # Ten tracebacks would fill a pipe nobody reads: the output goes nowhere, the log tells.
    command = [sys.executable, "-m", "daemon.cli.main", "daemon", "--watch"]
    env = home.env(STUDYJOBS_WATCHDOG_DELAYS="0.05")
    watchdog = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    home.processes.append(watchdog)  # type: ignore[arg-type]
    assert watchdog.wait(120) == 1
    log = (home.data_dir / "logs" / "watchdog.log").read_text(encoding="utf-8")
    assert log.count("starting it again") == 9 and "giving up" in log


def test_exit_codes_are_told_apart_from_crashes_in_words() -> None:
    assert describe_exit(0) == "" and describe_exit(1) == "" and describe_exit(EXIT_ALREADY_RUNNING) == ""
    assert describe_exit(-signal.SIGSEGV).startswith("SIGSEGV, a segmentation fault")
    assert "illegal instruction" in describe_exit(-signal.SIGILL)
    assert "illegal instruction" in describe_exit(0xC000001D)  # STATUS_ILLEGAL_INSTRUCTION, as Windows reports it
    assert "illegal instruction" in describe_exit(0xC000001D - 2**32)  # the same code read as signed


def test_the_child_is_this_python_running_the_daemon_command_with_the_same_options() -> None:
    assert child_command(["--autostart"]) == [sys.executable, "-m", "daemon.cli.main", "daemon", "--autostart"]


def test_settings_the_worker_cannot_use_end_the_watchdog_at_once_with_exit_2(home: DaemonHome):
    home.settings["no_such_setting"] = 1
    home.write_settings()
    watchdog = home.start("--watch", **QUICK)
    assert watchdog.wait(60) == 2
    assert "Settings problem" in watchdog.stdout.read()
    log = (home.data_dir / "logs" / "watchdog.log").read_text(encoding="utf-8")
    assert "starting it again" not in log and "ended by itself (exit code 2)" in log

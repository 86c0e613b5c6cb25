"""Time limits, with real worker processes: a model server that trickles is stopped at the job's soft limit (and cut
by the request's total deadline); a generation stuck in a thread that ignores its stop ends its worker, which the
watchdog starts again, and the job is retried against its attempts. The worker then runs the next job."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest

from core.app.documents.job_ids import generate_job_id_for
from core.stored_messages import encode
from daemon.llm import OpenAICompatibleGenerator, ServerTimeoutError
from devkit.hanging import hang_on
from tests.daemon.worker.faults import PORTUGUESE, add, daemon_log, guide_files, wait_ended, wait_job, write_documents
from tests.daemon.worker.trickle import TricklingServer
from tests.daemon.worker.workerhome import DaemonHome
from tests.waiting import wait_until

FAST = {"STUDYJOBS_BACKOFF": "0.5,0.5", "STUDYJOBS_REDISPATCH_AFTER": "2"}
QUICK_RESTART = {"STUDYJOBS_WATCHDOG_DELAYS": "0.2"}
MARKER = "ESTE-TEXTO-NUNCA-TERMINA"


def _use_server(home: DaemonHome, server: TricklingServer, **limits: float) -> None:
    home.settings["model"] = {"kind": "http", "endpoint": server.endpoint, "model_name": server.model}
    home.settings["limits"] = limits
    home.write_settings()


def _next_job_runs(home: DaemonHome, folder: Path, *, only_extract: bool) -> None:
    (document,) = write_documents(folder, 1, prefix="depois")
    (ingest,) = add(home, document, only_extract=only_extract)
    wanted = [ingest] if only_extract else [ingest, generate_job_id_for(ingest)]
    final = wait_ended(home, wanted, timeout=150)
    assert [final.jobs[j].status for j in wanted] == ["done"] * len(wanted), [final.jobs[j].error for j in wanted]


async def test_a_request_to_a_server_that_trickles_ends_at_its_total_deadline_though_bytes_keep_coming() -> None:
    with TricklingServer(every=0.05) as server:
        generator = OpenAICompatibleGenerator(server.endpoint, server.model, read_timeout=0.5, total_timeout=1.0)
        started = time.monotonic()
        try:
            with pytest.raises(ServerTimeoutError) as caught:
                await generator.chat([{"role": "user", "content": "Olá"}], max_tokens=1_000_000)
        finally:
            await generator.aclose()
        took = time.monotonic() - started
    assert caught.value.transient
    assert 1.0 <= took < 2.0, took


def test_a_trickling_server_is_cut_by_the_request_deadline_of_the_settings_and_the_job_retried_then_failed(
    home: DaemonHome, tmp_path: Path
):
    with TricklingServer() as server:
        _use_server(home, server, request_seconds=1.5)
        daemon = home.start(**FAST)
        (document,) = write_documents(tmp_path / "docs", 1)
        (ingest,) = add(home, document)
        generate = generate_job_id_for(ingest)
        row = wait_ended(home, [generate], timeout=90).jobs[generate]
        assert (row.status, row.attempts, row.error) == ("failed", 3, encode("server_timeout"))
        durations = wait_until(
            lambda: len(server.durations()) >= 3 and server.durations(), what="three requests to end", timeout=60.0
        )
        assert all(1.4 <= d < 3.0 for d in durations), durations  # type: ignore[union-attr]
        _next_job_runs(home, tmp_path / "more", only_extract=True)
        assert daemon.poll() is None, "the daemon died"


def test_a_trickling_server_is_stopped_at_the_soft_time_limit_on_every_attempt_and_the_worker_runs_the_next_job(
    home: DaemonHome, tmp_path: Path
):
    with TricklingServer(every=0.05) as server:
        _use_server(home, server, generate_seconds=2, times_expected=0.01, grace_seconds=10)
        daemon = home.start(**FAST)
        (document,) = write_documents(tmp_path / "docs", 1)
        (ingest,) = add(home, document)
        generate = generate_job_id_for(ingest)
        final = wait_ended(home, [generate], timeout=90)
        row = final.jobs[generate]
        # The cause is the server: transient, so each of the three attempts was stopped at its limit.
        assert (row.status, row.attempts, row.error) == ("failed", 3, encode("time_limit_server", minutes=1))
        durations = wait_until(
            lambda: len(server.durations()) >= 3 and server.durations(), what="three requests to end", timeout=60.0
        )
        # Each request ends within the limit, plus the supervisor's look at the limits (every 0.5 s) and the server
        # noticing that its client went away (a write or two later).
        assert len(durations) == 3 and all(d < 3.5 for d in durations), durations  # type: ignore[arg-type]
        assert (row.finished_at - row.started_at).total_seconds() < 3.5  # the last attempt, from its claim
        assert not guide_files(home)
        _next_job_runs(home, tmp_path / "more", only_extract=True)
        assert daemon.poll() is None, "the daemon died"
        assert "passed its time limit of 2 s" in daemon_log(home)


@pytest.mark.skipif(sys.platform == "win32", reason="the watchdog's restart is tested where signals exist")
def test_a_generation_stuck_in_a_thread_that_ignores_its_stop_ends_its_worker_and_is_retried_against_its_attempts(
    home: DaemonHome, tmp_path: Path
):
    home.settings["limits"] = {"generate_seconds": 5, "times_expected": 0.01, "grace_seconds": 1}
    home.write_settings()
    watchdog = home.start("--watch", **hang_on(MARKER), **QUICK_RESTART, **FAST)
    stuck = tmp_path / "docs" / "trava.txt"
    stuck.parent.mkdir(parents=True)
    stuck.write_text(f"{PORTUGUESE}\n\n{MARKER}", encoding="utf-8")
    (ingest,) = add(home, stuck)
    generate = generate_job_id_for(ingest)
    wait_job(home, generate, lambda r: r.status == "running", timeout=60, what="the generate job to start")
    started = time.monotonic()
    row = wait_ended(home, [generate], timeout=120).jobs[generate]
    took = time.monotonic() - started
    assert (row.status, row.attempts, row.max_attempts) == ("failed", 3, 3), row.error
    assert row.error == encode("job_stuck")
    # Three attempts of 5 s + 1 s of grace, two new workers and two 0.5 s waits between them.
    assert took < 45, took
    watchdog_log = home.data_dir / "logs" / "watchdog.log"
    ended = "the worker ended itself to free a stuck job"
    # The job is failed before its last worker ends; the watchdog writes its line once that process is gone.
    wait_until(
        lambda: watchdog_log.read_text(encoding="utf-8").count(ended) >= 3, timeout=30, what="the third worker's end"
    )
    log = watchdog_log.read_text(encoding="utf-8")
    assert log.count(ended) == 3
    assert "the worker stopped unexpectedly" not in log
    assert watchdog.poll() is None
    _next_job_runs(home, tmp_path / "more", only_extract=False)  # a guide by the tiny model, in a fresh worker
    assert guide_files(home)


@pytest.mark.skipif(sys.platform == "win32", reason="the watchdog's restart is tested where signals exist")
def test_a_job_that_writes_no_progress_while_its_lease_is_renewed_ends_its_worker_and_is_retried(
    home: DaemonHome, tmp_path: Path
):
    home.settings["limits"] = {"no_progress_seconds": 3}  # the soft limit stays far away (30 minutes)
    home.write_settings()
    watchdog = home.start("--watch", **hang_on(f"loop:{MARKER}"), **QUICK_RESTART, **FAST)
    stuck = tmp_path / "docs" / "trava.txt"
    stuck.parent.mkdir(parents=True)
    stuck.write_text(f"{PORTUGUESE}\n\n{MARKER}", encoding="utf-8")
    (ingest,) = add(home, stuck)
    generate = generate_job_id_for(ingest)
    wait_job(home, generate, lambda r: r.status == "running", timeout=60, what="the generate job to start")
    started = time.monotonic()
    row = wait_ended(home, [generate], timeout=120).jobs[generate]
    took = time.monotonic() - started
    assert (row.status, row.attempts, row.error) == ("failed", 3, encode("job_stuck"))
    assert took < 45, took  # three silences of 3 s, two new workers, two 0.5 s waits
    assert daemon_log(home).count("wrote no progress for") == 3
    assert watchdog.poll() is None
    _next_job_runs(home, tmp_path / "more", only_extract=False)


@pytest.mark.skipif(sys.platform == "win32", reason="exec")
def test_without_a_watchdog_a_worker_that_ends_itself_for_a_stuck_job_becomes_a_new_worker_in_the_same_process(
    home: DaemonHome, tmp_path: Path
):
    home.settings["limits"] = {"generate_seconds": 5, "times_expected": 0.01, "grace_seconds": 1}
    home.write_settings()
    daemon = home.start(**hang_on(MARKER), **FAST)
    stuck = tmp_path / "docs" / "trava.txt"
    stuck.parent.mkdir(parents=True)
    stuck.write_text(f"{PORTUGUESE}\n\n{MARKER}", encoding="utf-8")
    (ingest,) = add(home, stuck)
    generate = generate_job_id_for(ingest)
    row = wait_ended(home, [ingest, generate], timeout=150).jobs[generate]
    assert (row.status, row.attempts, row.error) == ("failed", 3, encode("job_stuck"))
    assert daemon.poll() is None  # the same process, running a new worker image each time
    _next_job_runs(home, tmp_path / "more", only_extract=True)
    started = re.findall(r"\[(\d+) MainThread\] worker \S+ started", daemon_log(home))
    assert started == [str(daemon.pid)] * 4  # the first worker, then one per stuck attempt: all in one process

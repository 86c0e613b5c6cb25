"""The window's switches, obeyed by real daemon processes: the queue paused and resumed, and a worker asked to
start again (at once, or once idle) after a settings change — the new process runs on the new settings."""

from __future__ import annotations

import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.app.documents.job_ids import generate_job_id_for
from core.app.storage.database import open_app_database
from core.app.workers.controls import RESTART_NOW, RESTART_WHEN_IDLE, queue_paused, request_restart, set_queue_paused
from core.app.workers.registry import alive_workers
from devkit.tiny_gguf import write_tiny_model
from tests.daemon.worker.faults import (
    PORTUGUESE,
    add,
    daemon_log,
    database_url_of,
    redis_for_test,
    state,
    temporary_pg_database,
    wait_ended,
    wait_job,
)
from tests.daemon.worker.workerhome import DaemonHome, run
from tests.waiting import wait_until

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="signals")
QUICK = {"STUDYJOBS_WATCHDOG_DELAYS": "0.2"}
QUIET_FOR = 3.0
"""Seconds a paused queue is watched to keep its job queued (what "stays queued" means in these tests)."""


async def _with_db(home: DaemonHome, action):  # type: ignore[no-untyped-def]
    db = await open_app_database(database_url_of(home))
    try:
        return await action(db)
    finally:
        await db.dispose()


def _pause(home: DaemonHome, paused: bool) -> None:
    run(_with_db(home, lambda db: set_queue_paused(db, paused)))


def _workers(home: DaemonHome) -> list:
    return run(_with_db(home, alive_workers))


def _restart(home: DaemonHome, mode: str) -> int:
    return run(_with_db(home, lambda db: request_restart(db, mode)))


def _stays_queued(home: DaemonHome, job_id: uuid.UUID, seconds: float = QUIET_FOR) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        row = state(home).jobs[job_id]
        assert (row.status, row.attempts) == ("queued", 0), (row.status, row.attempts, daemon_log(home)[-3000:])
        time.sleep(0.1)


def _document(folder: Path, name: str, repeat: int = 1) -> Path:
    path = folder / name
    path.write_text("\n\n".join([PORTUGUESE] * repeat), encoding="utf-8")
    return path


def test_a_paused_queue_keeps_its_job_queued_across_a_worker_restart_and_resumed_the_job_runs_once(
    home: DaemonHome, tmp_path: Path
):
    home.start()
    wait_until(lambda: _workers(home), what="the worker", timeout=60.0)
    _pause(home, True)
    wait_until(lambda: "the queue is paused" in daemon_log(home), what="the worker to see the pause", timeout=60.0)
    (first,) = add(home, _document(tmp_path, "pausada.txt"), only_extract=True)
    _stays_queued(home, first)  # the paused worker does not take it: it waits, no attempt spent

    home.stop_all()  # a new worker, started while the queue is paused, obeys it from its first message
    home.processes.clear()
    home.start()
    wait_until(
        lambda: daemon_log(home).count("the queue is paused") >= 2,
        what="the second worker to see the pause",
        timeout=60.0,
    )
    (second,) = add(home, _document(tmp_path, "segunda.txt"), only_extract=True)
    _stays_queued(home, first)
    assert state(home).jobs[second].status == "queued"
    assert run(_with_db(home, queue_paused))

    _pause(home, False)
    final = wait_ended(home, [first, second], timeout=60)
    assert [(final.jobs[j].status, final.jobs[j].attempts) for j in (first, second)] == [("done", 1), ("done", 1)]
    assert "the queue is resumed" in daemon_log(home)


@pytest.fixture
def redis_url() -> Iterator[str]:
    with redis_for_test() as url:
        yield url


@pytest.fixture
def pg_url() -> Iterator[str]:
    with temporary_pg_database() as url:
        yield url


@pytest.mark.postgres
def test_on_postgresql_and_redis_a_paused_queue_sends_no_message_and_resumed_its_job_runs(
    home: DaemonHome, tmp_path: Path, redis_url: str, pg_url: str
):
    home.settings.update(database_url=pg_url, broker_url=redis_url)
    home.write_settings()
    _pause(home, True)
    home.start()
    wait_until(lambda: _workers(home), what="the worker", timeout=60.0)
    (job_id,) = add(home, _document(tmp_path, "redis.txt"), only_extract=True)
    _stays_queued(home, job_id)
    _pause(home, False)
    final = wait_ended(home, [job_id], timeout=60)
    assert (final.jobs[job_id].status, final.jobs[job_id].attempts) == ("done", 1)


def test_a_worker_asked_to_start_again_when_idle_comes_back_at_once_and_writes_with_the_new_model(
    home: DaemonHome, tmp_path: Path, tiny_gguf: Path
):
    watchdog = home.start("--watch", **QUICK)
    (before,) = wait_until(lambda: _workers(home), what="the first worker", timeout=60.0)  # type: ignore[misc]
    other = write_tiny_model(tmp_path / "other-model.gguf")
    home.settings["model"] = {"kind": "gguf", "gguf_path": str(other), "n_threads": 1}
    home.write_settings()
    assert _restart(home, RESTART_WHEN_IDLE) == 1
    (after,) = wait_until(lambda: [w for w in _workers(home) if w.id != before.id], what="a new worker", timeout=60.0)  # type: ignore[misc]
    assert after.pid != before.pid and after.restart_requested is None
    assert watchdog.poll() is None
    (ingest,) = add(home, _document(tmp_path, "modelo.txt"))
    generate = generate_job_id_for(ingest)
    final = wait_ended(home, [ingest, generate], timeout=120)
    assert final.jobs[generate].status == "done", final.jobs[generate].error
    (guide,) = final.guides_of(generate)
    assert guide.model_name == "other-model.gguf"
    log = (home.data_dir / "logs" / "watchdog.log").read_text(encoding="utf-8")
    assert "start again with new settings" in log and "unexpectedly" not in log


def test_a_worker_asked_to_start_again_now_hands_its_running_job_back_without_spending_an_attempt(
    home: DaemonHome, tmp_path: Path
):
    home.start("--watch", **QUICK)
    (before,) = wait_until(lambda: _workers(home), what="the first worker", timeout=60.0)  # type: ignore[misc]
    (ingest,) = add(home, _document(tmp_path, "longo.txt", repeat=80))
    generate = generate_job_id_for(ingest)
    wait_job(home, generate, lambda row: row.status == "running", timeout=120, what="the generate job to run")
    assert _restart(home, RESTART_NOW) == 1
    wait_until(lambda: [w for w in _workers(home) if w.id != before.id], what="a new worker", timeout=60.0)
    final = wait_ended(home, [generate], timeout=180)
    assert (final.jobs[generate].status, final.jobs[generate].attempts) == ("done", 1), final.jobs[generate].error
    log = daemon_log(home)
    assert f"handed job {generate} back to the queue" in log


def test_a_worker_without_a_watchdog_asked_to_start_again_becomes_a_new_worker_in_the_same_process(
    home: DaemonHome, tmp_path: Path
):
    process = home.start()  # `studyjobs daemon` in a terminal: nobody would start it again
    (before,) = wait_until(lambda: _workers(home), what="the worker", timeout=60.0)  # type: ignore[misc]
    assert before.pid == process.pid
    assert _restart(home, RESTART_WHEN_IDLE) == 1
    (after,) = wait_until(lambda: [w for w in _workers(home) if w.id != before.id], what="the new worker", timeout=60.0)  # type: ignore[misc]
    assert after.pid == process.pid and process.poll() is None  # it replaced itself (exec), same process
    (job_id,) = add(home, _document(tmp_path, "depois.txt"), only_extract=True)
    final = wait_ended(home, [job_id], timeout=60)
    assert final.jobs[job_id].status == "done"

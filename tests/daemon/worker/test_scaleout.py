"""The daemon on Redis and PostgreSQL: a Redis restart mid-run, a flushed queue, and two daemons sharing one
database and one broker. Real daemon processes, the machine's Redis and PostgreSQL, the tiny real model."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.app.documents.job_ids import generate_job_id_for
from tests.daemon.worker.faults import (
    add,
    daemon_log,
    flush_redis,
    guide_files,
    redis_cli,
    redis_for_test,
    start_redis,
    state,
    stop_redis,
    temporary_pg_database,
    wait_ended,
    wait_job,
    write_documents,
)
from tests.daemon.worker.workerhome import DaemonHome
from tests.waiting import wait_until

FAST = {"STUDYJOBS_BACKOFF": "0.5,0.5", "STUDYJOBS_REDISPATCH_AFTER": "2"}
QUEUE_KEY = "dramatiq:studyjobs"


@pytest.fixture
def redis_url() -> Iterator[str]:
    """The tests' Redis database, empty; Redis is running again afterwards whatever the test did to it."""
    with redis_for_test() as url:
        yield url


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database, dropped afterwards."""
    with temporary_pg_database() as url:
        yield url


def _use(home: DaemonHome, **settings: object) -> None:
    home.settings.update(settings)
    home.write_settings()


def _all_done(final, job_ids) -> dict:
    return {str(j): (row.status, row.error) for j in job_ids if (row := final.jobs[j]).status != "done"}


def test_restarting_redis_mid_run_loses_no_job(home: DaemonHome, tmp_path: Path, redis_url: str):
    _use(home, broker_url=redis_url, stale_after=2.0)
    documents = write_documents(tmp_path / "docs", 10, repeat=2)
    daemon = home.start(**FAST)
    extract_only = add(home, *documents[:5], only_extract=True)
    guided = add(home, *documents[5:])
    generates = [generate_job_id_for(j) for j in guided]
    every_job = [*extract_only, *guided, *generates]

    def midway() -> bool:
        jobs = state(home).jobs.values()
        return sum(j.status == "done" for j in jobs) >= 3 and any(j.status == "running" for j in jobs)

    wait_until(midway, timeout=120, interval=0.05, what="the run to be midway")
    stop_redis()  # every queue and unacked message is gone
    start_redis()
    final = wait_ended(home, every_job, timeout=180)
    assert not _all_done(final, every_job), f"{_all_done(final, every_job)}\n{daemon_log(home)[-4000:]}"
    for job_id in generates:
        assert len(final.guides_of(job_id)) == 1
    assert len(guide_files(home)) == len(generates)
    assert daemon.poll() is None


def test_a_flushed_redis_queue_is_refilled_by_the_sweep_and_its_job_runs(
    home: DaemonHome, tmp_path: Path, redis_url: str
):
    _use(home, broker_url=redis_url)
    (long,) = write_documents(tmp_path / "long", 1, prefix="long", repeat=20)
    (short,) = write_documents(tmp_path / "short", 1, prefix="short")
    daemon = home.start(**FAST)  # one thread: the short job's message waits in the queue
    (ingest,) = add(home, long)
    generate = generate_job_id_for(ingest)
    wait_job(home, generate, lambda j: j.status == "running" and j.stage == "outline", what="the long generate")
    (waiting,) = add(home, short, only_extract=True)
    wait_until(
        lambda: int(redis_cli("llen", QUEUE_KEY).stdout.strip() or 0) >= 1,
        what="the waiting job's message",
        timeout=60.0,
    )
    flush_redis()
    assert int(redis_cli("llen", QUEUE_KEY).stdout.strip() or 0) == 0
    final = wait_ended(home, [generate, waiting], timeout=120)
    assert (final.jobs[waiting].status, final.jobs[waiting].attempts) == ("done", 1)
    assert (final.jobs[generate].status, final.jobs[generate].attempts) == ("done", 1)
    assert daemon.poll() is None


def test_two_daemons_over_one_postgresql_and_one_redis_run_every_job_once_and_both_work(
    home: DaemonHome, tmp_path: Path, tiny_gguf: Path, redis_url: str, pg_url: str
):
    # Nothing is killed here: a lease lapsing because a loaded machine delayed a heartbeat is not what this tests.
    shared = {"database_url": pg_url, "broker_url": redis_url, "stale_after": 60.0}
    _use(home, **shared)
    other = DaemonHome(tmp_path / "other", {**home.settings, "output_dir": str(home.output_dir)})
    try:
        first, second = home.start(**FAST), other.start(**FAST)

        def both_registered() -> bool:
            return len(json.loads(home.cli("workers", "--json").stdout or "[]")) == 2

        wait_until(both_registered, timeout=60, interval=0.2, what="both workers to register")
        documents = write_documents(tmp_path / "docs", 20, repeat=2)
        extract_only = add(home, *documents[:10], only_extract=True)
        guided = add(home, *documents[10:])
        generates = [generate_job_id_for(j) for j in guided]
        every_job = [*extract_only, *guided, *generates]
        final = wait_ended(home, every_job, timeout=180)
        assert not _all_done(final, every_job), _all_done(final, every_job)
        assert {final.jobs[j].attempts for j in every_job} == {1}
        for job_id in generates:
            assert len(final.guides_of(job_id)) == 1
        assert len(final.guides) == len(generates) and len(guide_files(home)) == len(generates)
        workers = {final.jobs[j].worker_id for j in every_job}
        assert len(workers) == 2, f"only {workers} did work"
        assert first.poll() is None and second.poll() is None
    finally:
        other.stop_all()

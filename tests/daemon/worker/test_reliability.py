"""The daemon under faults, embedded mode: kill -9 at random moments, a database an earlier daemon left with its
queue tables, two daemons on one SQLite file, a job longer than its lease, and the bad-input corpus. Real daemon
processes, real documents, the tiny real model."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import sqlite3
import time
import uuid
from pathlib import Path

import pytest

from core.app.documents.job_ids import generate_job_id_for
from core.app.messages.sentences import render
from core.status import OPEN_JOB_STATUSES
from core.stored_messages import decode
from tests.daemon.worker.faults import (
    TERMINAL,
    add,
    daemon_log,
    embedded_queue_leftovers,
    guide_files,
    state,
    wait_ended,
    wait_job,
    write_documents,
)
from tests.daemon.worker.workerhome import DaemonHome
from tests.waiting import wait_until

FAST = {"STUDYJOBS_BACKOFF": "0.5,0.5", "STUDYJOBS_REDISPATCH_AFTER": "2"}


def _set(home: DaemonHome, **settings: object) -> None:
    home.settings.update(settings)
    home.write_settings()


def test_kill_9_at_random_moments_leaves_every_job_done_exactly_once_with_one_guide_each(
    home: DaemonHome, tmp_path: Path
):
    _set(home, stale_after=2.0)
    seed = int(os.environ.get("STUDYJOBS_TEST_SEED") or time.time())
    rng = random.Random(seed)
    documents = write_documents(tmp_path / "docs", 20, repeat=6)
    daemon = home.start(**FAST)
    extract_only = add(home, *documents[:10], only_extract=True)
    guided = add(home, *documents[10:])
    generates = [generate_job_id_for(j) for j in guided]
    every_job = [*extract_only, *guided, *generates]
    killed_running: set[uuid.UUID] = set()
    for round_ in range(3):
        before = sum(j.status == "done" for j in state(home).jobs.values())
        wanted = before + rng.randint(1, 3)

        def moment(wanted: int = wanted, killed_running: set[uuid.UUID] = killed_running) -> bool:
            jobs = state(home).jobs
            if all(j in jobs and jobs[j].status in TERMINAL for j in every_job):
                return True  # the run ended early: the kill still hits an idle daemon
            done = sum(j.status == "done" for j in jobs.values())
            # The job hit by the previous kill must have ended first, so no job is killed over and over.
            previous_ended = all(jobs[j].status in TERMINAL for j in killed_running)
            running = any(j.status == "running" for j in jobs.values())
            return done >= wanted and previous_ended and running

        wait_until(moment, timeout=120, interval=0.05, what=f"round {round_}'s moment to kill (seed {seed})")
        time.sleep(rng.uniform(0.0, 0.4))  # the fault's random moment, not a synchronisation
        os.kill(daemon.pid, signal.SIGKILL)
        assert daemon.wait(10) == -signal.SIGKILL
        killed_running = {j.id for j in state(home).jobs.values() if j.status == "running"}
        daemon = home.start(**FAST)

    final = wait_ended(home, every_job, timeout=240)
    problems = {str(j): (row.status, row.error) for j in every_job if (row := final.jobs[j]).status != "done"}
    assert not problems, f"seed {seed}: {problems}\n{daemon_log(home)[-4000:]}"
    assert not [j for j in final.jobs.values() if j.status in OPEN_JOB_STATUSES]
    assert len(final.jobs) == 30  # no extraction-only document got a guide job
    assert max(j.attempts for j in final.jobs.values()) <= 2
    assert len(final.documents) == 20
    for job_id in generates:
        (guide,) = final.guides_of(job_id)
        assert final.jobs[job_id].result_id == guide.id
    assert len(final.guides) == len(generates)
    assert sorted(guide_files(home)) == sorted(Path(g.path) for g in final.guides)
    assert daemon.poll() is None


def test_a_database_an_earlier_daemon_left_with_its_queue_tables_loses_them_and_its_queued_job_runs(
    home: DaemonHome, tmp_path: Path
):
    (short,) = write_documents(tmp_path / "short", 1, prefix="short")
    first = home.start(**FAST)
    wait_until(lambda: "started" in daemon_log(home), what="the first daemon", timeout=60.0)
    first.send_signal(signal.SIGTERM)
    assert first.wait(15) == 0
    with contextlib.closing(sqlite3.connect(home.data_dir / "studyjobs.db")) as conn, conn:
        conn.executescript(LEFT_BY_AN_EARLIER_DAEMON)
        conn.execute("UPDATE alembic_version SET version_num = '0006'")
    assert embedded_queue_leftovers(home) == [
        "dramatiq_consumers",
        "dramatiq_dead_messages",
        "dramatiq_messages",
        "studyjobs_outbox_insert",
    ]
    (waiting,) = add(home, short, only_extract=True)  # no daemon runs: the row waits, with no message anywhere

    daemon = home.start(**FAST)
    final = wait_ended(home, [waiting], timeout=60)
    assert final.jobs[waiting].status == "done" and final.jobs[waiting].attempts == 1
    assert embedded_queue_leftovers(home) == [], "an embedded database holds no queue tables and no triggers"
    assert daemon.poll() is None


LEFT_BY_AN_EARLIER_DAEMON = """
CREATE TABLE dramatiq_messages (id INTEGER PRIMARY KEY, queue_name TEXT, message_id TEXT, data BLOB,
    available_at INTEGER, enqueued_at INTEGER);
CREATE TABLE dramatiq_consumers (id TEXT PRIMARY KEY, seen_at INTEGER);
CREATE TABLE dramatiq_dead_messages (id INTEGER PRIMARY KEY, data BLOB, error TEXT, dead_at INTEGER);
CREATE TRIGGER studyjobs_outbox_insert AFTER INSERT ON jobs WHEN NEW.status = 'queued'
    BEGIN INSERT INTO dramatiq_messages (queue_name, message_id) VALUES ('studyjobs', NEW.id); END;
"""


def test_two_daemons_on_one_sqlite_file_run_every_job_once_and_both_work(home: DaemonHome, tmp_path: Path):
    _set(home, stale_after=60.0)  # nothing is killed here: a lease lapsing on a loaded machine is not what this tests
    database = f"sqlite:///{(home.data_dir / 'studyjobs.db').as_posix()}"
    other = DaemonHome(tmp_path / "other", {**home.settings, "database_url": database})
    try:
        first, second = home.start(**FAST), other.start(**FAST)
        wait_until(
            lambda: "started" in daemon_log(home) and "started" in daemon_log(other), what="both daemons", timeout=60.0
        )
        documents = write_documents(tmp_path / "docs", 24, repeat=2)
        extract_only = add(home, *documents[:20], only_extract=True)
        guided = add(home, *documents[20:])
        every_job = [*extract_only, *guided, *(generate_job_id_for(j) for j in guided)]
        final = wait_ended(home, every_job, timeout=180)
        problems = {
            str(j): (final.jobs[j].status, final.jobs[j].error) for j in every_job if final.jobs[j].status != "done"
        }
        assert not problems, problems
        assert {final.jobs[j].attempts for j in every_job} == {1}, "no job was claimed twice"
        assert len(final.guides) == len(guided)
        workers = {final.jobs[j].worker_id for j in every_job}
        assert len(workers) == 2, f"only {workers} did work"
        assert first.poll() is None and second.poll() is None
    finally:
        other.stop_all()


def test_a_job_running_longer_than_its_lease_is_never_reclaimed_while_its_daemon_lives(
    home: DaemonHome, tmp_path: Path
):
    _set(home, stale_after=1.0)
    (long,) = write_documents(tmp_path / "docs", 1, repeat=20)
    daemon = home.start(**FAST)
    (ingest,) = add(home, long)
    generate = generate_job_id_for(ingest)
    started = wait_job(home, generate, lambda j: j.status == "running", what="the generate job").started_at
    final = wait_ended(home, [generate], timeout=120)
    row = final.jobs[generate]
    assert (row.status, row.attempts, row.error) == ("done", 1, None)
    assert (row.finished_at - started).total_seconds() > 3 * 1.0, "the job was not longer than its lease"
    assert len(final.guides) == 1
    assert "reclaimed" not in daemon_log(home)
    assert daemon.poll() is None


def test_every_bad_file_of_the_corpus_fails_once_with_a_plain_message_and_a_good_file_still_succeeds(
    home: DaemonHome, tmp_path: Path
):
    try:
        from tests.daemon.corpus import CorpusError, fetch_corpus
        from tests.daemon.readers.badfiles import build_bad_inputs
    except ImportError as missing:
        pytest.skip(f"the bad-input corpus is not available: {missing}")
    from core.app.documents.formats import MAX_DOCUMENT_BYTES, is_supported

    try:
        corpus = fetch_corpus()
    except CorpusError as error:
        pytest.skip(f"the corpus could not be fetched: {error}")
    bad = build_bad_inputs(corpus, tmp_path / "bad")
    accepted = [b for b in bad if is_supported(b.path) and b.path.stat().st_size <= MAX_DOCUMENT_BYTES]
    assert len(accepted) >= 20
    (good,) = write_documents(tmp_path / "good", 1, prefix="bom")
    daemon = home.start(**FAST)
    bad_ids = add(home, *(b.path for b in accepted), only_extract=True)
    (good_id,) = add(home, good, only_extract=True)
    final = wait_ended(home, [*bad_ids, good_id], timeout=240)
    generic = {"internal_error", "unknown_error"}
    problems = {}
    for item, job_id in zip(accepted, bad_ids, strict=True):
        row = final.jobs[job_id]
        stored, shown = decode(row.error), render(row.error, "pt_BR")
        plain = stored and stored.code not in generic and "Traceback" not in shown and len(shown) < 400
        if not (row.status == "failed" and row.attempts == 1 and not row.error_transient and plain):
            problems[item.name] = (row.status, row.attempts, row.error)
    assert not problems, problems
    assert final.jobs[good_id].status == "done"
    assert daemon.poll() is None

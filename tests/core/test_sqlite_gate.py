"""The per-file write gate: this process's writers of one SQLite file take turns; other processes are not affected."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import threading

import pytest

from core import JobStatus
from core.sqlite_gate import gated, write_gate


def test_every_spelling_of_one_file_gives_the_same_gate_and_another_file_its_own(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    gate = write_gate(tmp_path / "data" / "jobs.db")
    assert write_gate("data/jobs.db") is gate
    assert write_gate(tmp_path / "link" / "jobs.db") is gate
    assert write_gate(tmp_path / "data" / "other.db") is not gate


def test_a_writer_goes_ahead_without_the_gate_when_another_keeps_it_past_the_timeout(tmp_path):
    gate = write_gate(tmp_path / "jobs.db")
    taken, done = threading.Event(), threading.Event()

    def keep() -> None:
        with gated(gate) as held:
            assert held
            taken.set()
            done.wait(10)

    keeper = threading.Thread(target=keep)
    keeper.start()
    try:
        assert taken.wait(10)
        with gated(gate, timeout=0.01) as held:
            assert not held
        assert gate.locked()  # going ahead did not release the keeper's gate
    finally:
        done.set()
        keeper.join()
    assert not gate.locked()


def test_the_gate_is_released_when_the_write_fails(tmp_path):
    gate = write_gate(tmp_path / "jobs.db")
    with pytest.raises(sqlite3.OperationalError), gated(gate):
        sqlite3.connect(":memory:").execute("INSERT INTO missing VALUES (1)")
    assert not gate.locked()


async def test_store_writes_and_a_transaction_of_the_same_process_interleave_and_all_land(sqlite_store, tmp_path):
    """The daemon's shape: a thread writes transactions under the gate while the loop claims and closes jobs."""
    jobs = [await sqlite_store.enqueue("demo") for _ in range(200)]
    gate = write_gate(tmp_path / "jobs.db")
    stop = threading.Event()
    commits = [0]

    def consumer_like() -> None:
        conn = sqlite3.connect(tmp_path / "jobs.db", isolation_level=None, timeout=30)
        conn.execute("CREATE TABLE IF NOT EXISTS side (n INTEGER)")
        try:
            while not stop.is_set():
                with gated(gate):
                    conn.execute("BEGIN IMMEDIATE")
                    conn.executemany("INSERT INTO side VALUES (?)", [(i,) for i in range(16)])
                    conn.execute("COMMIT")
                commits[0] += 1
        finally:
            conn.close()

    writer = threading.Thread(target=consumer_like)
    writer.start()
    try:
        for job in jobs:
            claimed = await sqlite_store.claim(job.id, worker_id="w1")
            assert claimed is not None
            await sqlite_store.succeed_without_row(job.id, attempt=claimed.attempts)
    finally:
        stop.set()
        writer.join()
    assert await sqlite_store.count(status=JobStatus.DONE) == 200
    assert commits[0] > 0


@pytest.fixture
async def queued_job(sqlite_store):
    return await sqlite_store.enqueue("demo")


@pytest.fixture
def file_locked_by_another_process(queued_job, tmp_path):
    """Another process holds the write lock of ``jobs.db`` (after ``queued_job`` was written) until the end."""
    release = tmp_path / "release"
    script = (
        "import os, sqlite3, sys, time\n"
        "conn = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "conn.execute('BEGIN IMMEDIATE')\n"
        "print('locked', flush=True)\n"
        "while not os.path.exists(sys.argv[2]):\n"
        "    time.sleep(0.01)\n"
        "conn.execute('COMMIT')\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path / "jobs.db"), str(release)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        yield release.touch
    finally:
        release.touch()
        assert holder.wait(30) == 0


async def test_a_store_write_is_not_stuck_behind_a_gate_held_while_another_process_writes(
    sqlite_store, queued_job, file_locked_by_another_process, tmp_path
):
    """A transaction of this process holds the gate while it waits for another process's write lock: the store's
    statement goes ahead after the gate's timeout, waits for the file like before, and lands when the file is free."""
    path = tmp_path / "jobs.db"
    gate = write_gate(path)
    waiting = threading.Event()

    def transaction_of_this_process() -> None:
        conn = sqlite3.connect(path, isolation_level=None, timeout=30)
        try:
            with gated(gate):
                waiting.set()
                conn.execute("BEGIN IMMEDIATE")  # waits for the other process, the gate held
                conn.execute("COMMIT")
        finally:
            conn.close()

    writer = threading.Thread(target=transaction_of_this_process)
    writer.start()
    try:
        assert waiting.wait(10)
        claim = asyncio.ensure_future(sqlite_store.claim(queued_job.id, worker_id="w1"))
        loop = asyncio.get_running_loop()
        started = loop.time()
        for _ in range(20):  # the loop keeps running: blocked at most a gate timeout per attempt
            await asyncio.sleep(0.01)
        assert loop.time() - started < 2.0
        assert not claim.done()  # the file is still the other process's
        file_locked_by_another_process()
        claimed = await asyncio.wait_for(claim, 30)
        assert claimed is not None and claimed.status == JobStatus.RUNNING
    finally:
        file_locked_by_another_process()
        await asyncio.to_thread(writer.join, 30)
    assert not writer.is_alive()

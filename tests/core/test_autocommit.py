"""The store's single-statement writes: compiled once per driver; on SQLite inline while the file is free."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import uuid

import pytest

from core import AsyncDatabaseManager, JobStatus, JobStore
from tests.jobtesting import SampleJob


async def test_a_claim_waits_for_another_writer_while_the_event_loop_keeps_running(sqlite_store, tmp_path):
    job = await sqlite_store.enqueue("demo")
    other = sqlite3.connect(tmp_path / "jobs.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        claim = asyncio.ensure_future(sqlite_store.claim(job.id, worker_id="w1"))
        loop = asyncio.get_running_loop()
        started = loop.time()
        for _ in range(20):  # other coroutines run while the claim waits for the lock
            await asyncio.sleep(0.01)
        assert loop.time() - started < 2.0
        assert not claim.done()
    finally:
        other.execute("COMMIT")
        other.close()
    claimed = await asyncio.wait_for(claim, 10)
    assert claimed is not None and claimed.status == JobStatus.RUNNING and claimed.attempts == 1


async def test_a_refused_statement_leaves_the_store_usable(sqlite_store):
    job_id = uuid.uuid4()
    first = await sqlite_store.enqueue("demo", job_id=job_id, title="first")
    again = await sqlite_store.enqueue("demo", job_id=job_id, title="second")  # the INSERT fails: same id
    assert (first.id, again.title) == (job_id, "first")
    claimed = await sqlite_store.claim(job_id)
    assert claimed is not None
    done = await sqlite_store.succeed(job_id, attempt=claimed.attempts)
    assert done.status == JobStatus.DONE and done.progress == 1.0


async def test_writes_from_two_managers_on_one_file_all_land(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'jobs.db'}"
    first, second = AsyncDatabaseManager(url), AsyncDatabaseManager(url)
    await first.create_tables()
    try:
        stores = [JobStore(first, model=SampleJob), JobStore(second, model=SampleJob)]
        jobs = await asyncio.gather(*[stores[i % 2].enqueue("demo") for i in range(200)])
        claims = await asyncio.gather(*[stores[i % 2].claim(job.id) for i, job in enumerate(jobs)])
        assert all(claim is not None for claim in claims)
        assert await stores[0].count(status=JobStatus.RUNNING) == 200
    finally:
        await first.dispose()
        await second.dispose()


async def test_a_row_written_and_returned_by_the_compiled_statements_matches_what_a_session_reads(store):
    job = await store.enqueue(
        "demo",
        title="Apostila – ação",
        params={"path": "/tmp/ção.pdf", "pages": [1, 2]},
        detail={"total": 3},
        payload=b"\x00\x01",
    )
    claimed = await store.claim(job.id, worker_id="w1")
    done = await store.succeed(job.id, attempt=claimed.attempts, result_id=job.id, message="pronto")
    read = await store.get(job.id)
    for returned in (claimed, done):
        assert (returned.id, returned.title, returned.params, returned.detail) == (
            read.id,
            read.title,
            read.params,
            read.detail,
        )
        assert returned.created_at == read.created_at and returned.created_at.tzinfo is not None
    assert claimed.payload == b"\x00\x01" and claimed.started_at == read.started_at
    assert (done.status, done.result_id, done.message, done.finished_at) == (
        JobStatus.DONE,
        job.id,
        "pronto",
        read.finished_at,
    )


@pytest.mark.parametrize("backend", ["postgresql"])
async def test_lifecycle_writes_on_postgresql_reuse_one_connection_and_survive_its_loss(store):
    from sqlalchemy import text

    async def backends() -> set[int]:
        rows = await store.db.execute(
            text("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
        )
        return {int(row["pid"]) for row in rows.rows}

    first = await store.enqueue("sample")
    await store.claim(first.id, worker_id="w")
    kept = await backends()
    for _ in range(20):
        job = await store.enqueue("sample")
        await store.claim(job.id, worker_id="w")
    assert await backends() == kept  # no new connection per statement

    await store.db.execute(
        text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = ANY(:p)"), {"p": list(kept)}
    )
    job = await store.enqueue("sample")  # the dead kept connection is dropped and the write runs again on a new one
    claimed = await store.claim(job.id, worker_id="w")

    assert claimed is not None and claimed.status == JobStatus.RUNNING
    assert (await store.get(job.id)).status == JobStatus.RUNNING


async def test_store_writes_and_a_transaction_of_another_thread_interleave_and_all_land(sqlite_store, tmp_path):
    """A thread of the same process writes transactions to the file while the loop claims and closes jobs."""
    jobs = [await sqlite_store.enqueue("demo") for _ in range(200)]
    stop = threading.Event()
    commits = [0]

    def other_writer() -> None:
        conn = sqlite3.connect(tmp_path / "jobs.db", isolation_level=None, timeout=30)
        conn.execute("CREATE TABLE IF NOT EXISTS side (n INTEGER)")
        try:
            while not stop.is_set():
                conn.execute("BEGIN IMMEDIATE")
                conn.executemany("INSERT INTO side VALUES (?)", [(i,) for i in range(16)])
                conn.execute("COMMIT")
                commits[0] += 1
        finally:
            conn.close()

    writer = threading.Thread(target=other_writer)
    writer.start()
    try:
        for job in jobs:
            claimed = await sqlite_store.claim(job.id, worker_id="w1")
            assert claimed is not None
            await sqlite_store.succeed(job.id, attempt=claimed.attempts)
    finally:
        stop.set()
        await asyncio.to_thread(writer.join, 30)
    assert await sqlite_store.count(status=JobStatus.DONE) == 200
    assert commits[0] > 0

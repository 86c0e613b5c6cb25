"""Queued-job notifications: PostgreSQL wakes a listener whenever a job becomes queued; SQLite has none."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text

from core.app.storage.database import make_app_store, open_app_database
from core.backends.postgres import QUEUED_CHANNEL, QueuedJobListener
from tests.waiting import async_wait_until

_TERMINATE = text(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE :q AND pid <> pg_backend_pid()"
)


async def test_a_listener_hears_every_way_a_job_becomes_queued_and_nothing_else(database_url: str, backend: str):
    db = await open_app_database(database_url)
    heard = asyncio.Event()
    listener = QueuedJobListener(db.engine, heard.set)
    try:
        if backend != "postgresql":
            assert await listener.start() is False and not listener.listening
            return
        assert await listener.start() and listener.listening
        store = make_app_store(db)

        job = await store.enqueue("ingest", params={"path": "/tmp/a.pdf"})  # a new row
        await asyncio.wait_for(heard.wait(), 5)
        heard.clear()

        claimed = await store.claim(job.id)
        await store.fail(job.id, "Bad file.", attempt=claimed.attempts)  # running → failed: not queued
        await asyncio.sleep(0.2)
        assert not heard.is_set()

        await store.retry(job.id)  # the retry button: queued again
        await asyncio.wait_for(heard.wait(), 5)
    finally:
        await listener.close()
        await db.dispose()


async def test_a_listener_whose_connection_was_cut_says_so(database_url: str, backend: str):
    if backend != "postgresql":
        pytest.skip("SQLite has no notifications")
    db = await open_app_database(database_url)
    listener = QueuedJobListener(db.engine, lambda: None)
    try:
        assert await listener.start()
        async with db.engine.connect() as admin:  # an administrator (or a network cut) ends the connection
            await admin.execute(_TERMINATE, {"q": f"%LISTEN%{QUEUED_CHANNEL}%"})
        await async_wait_until(lambda: not listener.listening, timeout=5, what="the listener to notice", interval=0.01)
        assert await listener.start() and listener.listening  # the supervisor listens again
    finally:
        await listener.close()
        await db.dispose()

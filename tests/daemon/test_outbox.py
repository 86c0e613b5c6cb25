"""The embedded outbox: in one SQLite file, queuing a job row writes its Dramatiq message in the same transaction,
and the sweep writes the messages that went missing."""

from __future__ import annotations

import contextlib
import sqlite3
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from core.appdb import make_app_store, open_app_database
from core.schema import Job
from core.store import JobStore
from daemon.brokers import SQLiteBroker
from daemon.brokers.sqlite_schema import connect
from daemon.outbox import Outbox, remove_outbox

QUEUE = "studyjobs"
KINDS = ("generate", "ingest")


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "studyjobs.db"


@pytest.fixture
async def store(path: Path) -> AsyncIterator[JobStore[Job]]:
    db = await open_app_database(f"sqlite+aiosqlite:///{path}")
    try:
        yield make_app_store(db, backoff=(30.0,))
    finally:
        await db.dispose()


@pytest.fixture
def broker(path: Path, store: JobStore[Job]) -> Iterator[SQLiteBroker]:
    made = SQLiteBroker(path, middleware=[], poll_seconds=0.01)
    made.declare_queue(QUEUE)
    yield made
    made.close()


@pytest.fixture
def outbox(path: Path, broker: SQLiteBroker) -> Outbox:
    made = Outbox(path, QUEUE, KINDS)
    made.install()
    return made


def messages(path: Path) -> list[tuple[str, int, int]]:
    """``(message_id, available_at, enqueued_at)`` of every message row, oldest first."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        rows = conn.execute("SELECT message_id, available_at, enqueued_at FROM dramatiq_messages ORDER BY id")
        return [(str(r[0]), int(r[1]), int(r[2])) for r in rows]


def receive(broker: SQLiteBroker, timeout: float = 5.0) -> object | None:
    consumer = broker.consume(QUEUE, prefetch=1, timeout=100)
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = next(consumer)
            if message is not None:
                consumer.ack(message)
                return message
        return None
    finally:
        consumer.close()


async def test_queuing_a_job_writes_the_message_its_actor_would_receive(
    store: JobStore[Job], broker: SQLiteBroker, outbox: Outbox
):
    job = await store.enqueue("ingest", params={"path": "/tmp/a.pdf"})

    message = receive(broker)

    assert message is not None
    assert message.actor_name == "ingest"  # type: ignore[attr-defined]
    assert message.queue_name == QUEUE  # type: ignore[attr-defined]
    assert [uuid.UUID(arg) for arg in message.args] == [job.id]  # type: ignore[attr-defined]
    assert message.kwargs == {} and message.options == {}  # type: ignore[attr-defined]
    assert uuid.UUID(message.message_id) == job.id  # type: ignore[attr-defined]


async def test_a_kind_without_an_actor_gets_no_message(store: JobStore[Job], path: Path, outbox: Outbox):
    await store.enqueue("export-to-cloud")

    assert messages(path) == []


async def test_an_enqueue_that_finds_its_job_already_there_writes_no_second_message(
    store: JobStore[Job], path: Path, outbox: Outbox
):
    job_id = uuid.uuid4()
    await store.enqueue("generate", job_id=job_id)
    await store.enqueue("generate", job_id=job_id)

    assert len(messages(path)) == 1


async def test_a_retry_writes_a_message_that_becomes_visible_at_its_retry_time(
    store: JobStore[Job], broker: SQLiteBroker, path: Path, outbox: Outbox
):
    job = await store.enqueue("generate")
    assert receive(broker) is not None
    claimed = await store.claim(job.id, worker_id="w")
    assert claimed is not None

    retried = await store.fail(job.id, "The model server is busy.", transient=True, attempt=claimed.attempts)

    assert retried.status == "queued" and retried.run_after is not None
    (_, available_at, enqueued_at) = messages(path)[-1]
    assert available_at == pytest.approx(retried.run_after.timestamp() * 1000, abs=5)
    assert available_at - enqueued_at == pytest.approx(30_000, abs=1_000)
    assert receive(broker, timeout=0.5) is None  # not before its time


async def test_a_claim_handed_back_writes_a_new_message(store: JobStore[Job], broker: SQLiteBroker, outbox: Outbox):
    job = await store.enqueue("ingest")
    assert receive(broker) is not None
    claimed = await store.claim(job.id, worker_id="w")
    assert claimed is not None

    await store.release(job.id, attempt=claimed.attempts)

    message = receive(broker)
    assert message is not None and uuid.UUID(message.args[0]) == job.id  # type: ignore[attr-defined]


async def test_the_sweep_writes_the_message_of_a_due_row_that_lost_it_and_only_that_one(
    store: JobStore[Job], broker: SQLiteBroker, path: Path, outbox: Outbox
):
    lost = await store.enqueue("ingest")
    kept = await store.enqueue("ingest")
    conn = connect(path)
    conn.execute("DELETE FROM dramatiq_messages WHERE message_id = ?", (lost.id.hex,))
    try:
        assert outbox.lost(conn) == [lost.id.hex]

        assert outbox.repair(conn) == 1
        assert outbox.lost(conn) == []
        assert outbox.repair(conn) == 0
    finally:
        conn.close()
    ids = sorted(message_id for message_id, _, _ in messages(path))
    assert ids == sorted([lost.id.hex, kept.id.hex])


async def test_installing_again_replaces_the_kinds(store: JobStore[Job], path: Path, outbox: Outbox):
    Outbox(path, QUEUE, ("ingest",)).install()

    await store.enqueue("generate")
    await store.enqueue("ingest")

    assert len(messages(path)) == 1


async def test_removing_the_outbox_stops_the_messages(store: JobStore[Job], path: Path, outbox: Outbox):
    remove_outbox(path)
    remove_outbox(path)  # idempotent

    await store.enqueue("ingest")

    assert messages(path) == []

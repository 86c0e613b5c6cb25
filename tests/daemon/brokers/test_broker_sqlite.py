"""What only the embedded SQLite broker promises: exactly-once claims across threads and processes, delays on the
rows, quick and cheap waiting, fenced acks, hand-back on close, dead letters for undecodable rows, and life in the
job store's own file."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import statistics
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from broker_kits import (
    BrokerKit,
    Child,
    consumer_waiting_for_a_slot,
    held_by_a_child,
    make_message,
    take,
    unique_queue,
    wait_until,
)
from dramatiq.common import dq_name
from dramatiq.errors import QueueJoinTimeout, QueueNotFound

from core import AsyncDatabaseManager
from daemon.brokers import QueueFileUnavailable, SQLiteBroker
from daemon.brokers.sqlite import sqlite_path_from_url


def sqlite_broker(kit: BrokerKit, **overrides: object) -> SQLiteBroker:
    broker = kit.open(**overrides)
    assert isinstance(broker, SQLiteBroker)
    return broker


def test_threads_and_processes_competing_for_one_queue_get_every_message_exactly_once(
    sqlite_kit: BrokerKit, children: list[Child]
):
    broker = sqlite_broker(sqlite_kit)
    queue = unique_queue()
    broker.declare_queue(queue)
    drainers = [Child("drain", sqlite_kit, queue, "1.5") for _ in range(2)]
    children.extend(drainers)
    for child in drainers:
        assert child.read_line(timeout=30) == "ready"

    seen: list[str] = []
    lock = threading.Lock()

    def drain() -> None:
        consumer = broker.consume(queue, prefetch=4, timeout=100)
        last = time.monotonic()
        while time.monotonic() - last < 1.5:
            message = next(consumer)
            if message is not None:
                consumer.ack(message)
                with lock:
                    seen.append(message.message_id)
                last = time.monotonic()
        consumer.close()

    threads = [threading.Thread(target=drain) for _ in range(3)]
    for thread in threads:
        thread.start()
    sent = [broker.enqueue(make_message(queue, number)).message_id for number in range(300)]
    for thread in threads:
        thread.join(timeout=60)
    for child in drainers:
        seen.extend(json.loads(child.read_line(timeout=60)))
        assert child.wait(timeout=30) == 0

    duplicates = [message_id for message_id, count in Counter(seen).items() if count > 1]
    assert duplicates == []
    assert sorted(seen) == sorted(sent)
    assert broker.pending_count(queue) == 0


def test_a_delayed_message_stays_invisible_until_its_eta_and_wakes_a_waiting_consumer(sqlite_kit: BrokerKit):
    broker = sqlite_broker(sqlite_kit)
    queue = unique_queue()
    broker.declare_queue(queue)
    consumer = broker.consume(queue, prefetch=1, timeout=5000)

    sent_at = time.monotonic()
    stored = broker.enqueue(make_message(queue, "later"), delay=600)
    received = next(consumer)  # one call: no new commit arrives, only the eta passes
    waited = time.monotonic() - sent_at

    assert received is not None and received.message_id == stored.message_id
    assert 0.59 <= waited < 3.0, waited
    assert stored.queue_name == queue and "eta" not in stored.options
    consumer.ack(received)


def test_dramatiqs_own_delay_queue_convention_is_stored_on_the_canonical_queue(sqlite_kit: BrokerKit):
    broker = sqlite_broker(sqlite_kit)
    queue = unique_queue()
    broker.declare_queue(queue)
    eta = int(time.time() * 1000) + 400
    message = make_message(queue, "dq").copy(queue_name=dq_name(queue), options={"eta": eta})

    stored = broker.enqueue(message)
    assert stored.queue_name == queue and "eta" not in stored.options
    assert broker.get_declared_delay_queues() == set()
    with pytest.raises(QueueNotFound):
        broker.consume(dq_name(queue))

    consumer = broker.consume(queue, prefetch=1, timeout=3000)
    received = next(consumer)
    assert received is not None and int(time.time() * 1000) >= eta
    consumer.ack(received)


def test_a_message_sent_by_another_process_is_picked_up_quickly(sqlite_kit: BrokerKit, children: list[Child]):
    broker = sqlite_broker(sqlite_kit)
    queue = unique_queue()
    broker.declare_queue(queue)
    consumer = broker.consume(queue, prefetch=1, timeout=100)

    sender = Child("send", sqlite_kit, queue, "10")
    children.append(sender)
    latencies = []
    while len(latencies) < 10:
        message = take(consumer, timeout=30)
        assert message is not None
        latencies.append(time.time() - message.args[0])
        consumer.ack(message)
    assert sender.read_line(timeout=30) == "done"
    # Nothing in this process wakes the consumer: only PRAGMA data_version. The real figure is in the benchmark.
    assert statistics.median(latencies) < 0.5, latencies


def test_a_waiting_consumer_does_not_spin(sqlite_kit: BrokerKit):
    broker = sqlite_broker(sqlite_kit)
    queue = unique_queue()
    broker.declare_queue(queue)
    consumer = broker.consume(queue, prefetch=1, timeout=1500)

    cpu_before, wall_before = time.thread_time(), time.monotonic()
    assert next(consumer) is None
    cpu, wall = time.thread_time() - cpu_before, time.monotonic() - wall_before

    assert wall >= 1.4
    assert cpu < 0.3, f"{cpu:.3f} s of CPU to wait {wall:.2f} s"
    consumer.close()


def test_a_consumer_whose_lease_was_lost_cannot_ack_the_message_away_from_its_new_holder(sqlite_kit: BrokerKit):
    first = sqlite_broker(sqlite_kit, lease_seconds=600.0, heartbeat_seconds=300.0)  # beats once, then not for 5 min
    second = sqlite_broker(sqlite_kit, lease_seconds=5.0, heartbeat_seconds=0.2)  # looks for dead consumers often
    queue = unique_queue()
    for broker in (first, second):
        broker.declare_queue(queue)
    first.enqueue(make_message(queue, "contested"))
    stale = take(first.consume(queue, prefetch=1, timeout=100), timeout=10)
    assert stale is not None

    # The first broker stalls past its lease (as a frozen process would): its heartbeat is made ancient — again
    # each round, because its heartbeat thread's one beat may land after our first write on a loaded machine.
    consumer = second.consume(queue, prefetch=1, timeout=100)
    deadline = time.monotonic() + 30
    fresh = None
    while fresh is None and time.monotonic() < deadline:
        with contextlib.closing(sqlite3.connect(first.path)) as conn, conn:
            conn.execute("UPDATE dramatiq_consumers SET heartbeat_at = 0 WHERE consumer_id = ?", (first.consumer_id,))
        fresh = take(consumer, timeout=1)
    assert fresh is not None and fresh.message_id == stale.message_id

    first.consume(queue, prefetch=1, timeout=100).ack(stale)  # the zombie's ack: refused, logged
    assert second.pending_count(queue) == 1
    consumer.ack(fresh)
    assert second.pending_count(queue) == 0


def test_closing_a_broker_hands_its_unacked_messages_back_at_once(sqlite_kit: BrokerKit):
    first = sqlite_broker(sqlite_kit, lease_seconds=600.0)
    queue = unique_queue()
    first.declare_queue(queue)
    sent = first.enqueue(make_message(queue, "unfinished"))
    assert take(first.consume(queue, prefetch=1, timeout=100), timeout=10) is not None
    first.close()

    second = sqlite_broker(sqlite_kit, lease_seconds=600.0)
    second.declare_queue(queue)
    again = take(second.consume(queue, prefetch=1, timeout=100), timeout=5)
    assert again is not None and again.message_id == sent.message_id
    with pytest.raises(QueueFileUnavailable):
        first.enqueue(make_message(queue, "too late"))


def test_a_requeued_message_is_delivered_again(sqlite_kit: BrokerKit):
    broker = sqlite_broker(sqlite_kit)
    queue = unique_queue()
    broker.declare_queue(queue)
    sent = broker.enqueue(make_message(queue, "shutdown"))
    consumer = broker.consume(queue, prefetch=1, timeout=100)
    first = take(consumer, timeout=10)
    assert first is not None
    consumer.requeue([first])
    second = take(consumer, timeout=10)
    assert second is not None and second.message_id == sent.message_id
    consumer.ack(second)


def test_an_undecodable_row_is_dead_lettered_and_the_next_message_still_arrives(sqlite_kit: BrokerKit):
    broker = sqlite_broker(sqlite_kit)
    queue = unique_queue()
    broker.declare_queue(queue)
    with sqlite3.connect(broker.path) as conn:
        conn.execute(
            "INSERT INTO dramatiq_messages (queue_name, message_id, data, available_at, enqueued_at) "
            "VALUES (?, 'broken', x'00ff', 0, 0)",
            (queue,),
        )
    sent = broker.enqueue(make_message(queue, "fine"))

    received = take(broker.consume(queue, prefetch=1, timeout=100), timeout=10)
    assert received is not None and received.message_id == sent.message_id
    (dead,) = broker.dead_letters(queue)
    assert dead.data == b"\x00\xff" and dead.error is not None and "decoded" in dead.error


def test_a_nacked_message_keeps_the_error_it_failed_with(sqlite_kit: BrokerKit):
    broker = sqlite_broker(sqlite_kit)
    queue = unique_queue()
    broker.declare_queue(queue)
    sent = broker.enqueue(make_message(queue, 1))
    consumer = broker.consume(queue, prefetch=1, timeout=100)
    received = take(consumer, timeout=10)
    assert received is not None
    received.stuff_exception(ValueError("the file is encrypted"))
    consumer.nack(received)

    (dead,) = broker.dead_letters(queue)
    assert dead.error == "ValueError: the file is encrypted"
    assert dead.message.message_id == sent.message_id


async def test_the_broker_lives_in_the_job_stores_own_file(tmp_path: Path):
    path = tmp_path / "studyjobs.db"
    manager = AsyncDatabaseManager(f"sqlite+aiosqlite:///{path}")
    try:
        await manager.create_tables()
        broker = SQLiteBroker(sqlite_path_from_url(f"sqlite+aiosqlite:///{path}"), middleware=[])
        try:
            queue = unique_queue()
            broker.declare_queue(queue)
            broker.enqueue(make_message(queue, "same file"))
            received = take(broker.consume(queue, prefetch=1, timeout=100), timeout=10)
            assert received is not None
        finally:
            broker.close()
    finally:
        await manager.dispose()
    with sqlite3.connect(path) as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert {"dramatiq_messages", "dramatiq_consumers", "dramatiq_dead_messages"} <= tables
    assert tables - {"dramatiq_messages", "dramatiq_consumers", "dramatiq_dead_messages", "sqlite_sequence"}


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("sqlite:////var/data/jobs.db", "/var/data/jobs.db"),
        ("sqlite:///relative/jobs.db", "relative/jobs.db"),
        ("sqlite+aiosqlite:////var/data/jobs.db", "/var/data/jobs.db"),
        ("sqlite:////var/my%20data/jobs.db?timeout=5", "/var/my data/jobs.db"),
    ],
)
def test_an_sqlite_url_names_its_file_as_sqlalchemy_does(url: str, expected: str):
    assert sqlite_path_from_url(url) == Path(expected)


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///", "sqlite:///:memory:", "sqlite://host/jobs.db"])
def test_an_sqlite_url_without_a_file_is_refused(url: str):
    with pytest.raises(ValueError, match="must name a file"):
        sqlite_path_from_url(url)


def test_impossible_durations_are_refused(tmp_path: Path):
    with pytest.raises(ValueError, match="heartbeat below the lease"):
        SQLiteBroker(tmp_path / "q.db", lease_seconds=1.0, heartbeat_seconds=2.0)


def test_waiting_for_a_queue_to_empty_times_out_while_a_message_is_left(sqlite_kit: BrokerKit):
    broker = sqlite_broker(sqlite_kit)
    queue = unique_queue()
    broker.declare_queue(queue)
    broker.enqueue(make_message(queue, "left"), delay=60_000)

    with pytest.raises(QueueJoinTimeout):
        broker.join(queue, interval=10, timeout=200)
    broker.flush(queue)
    broker.join(queue, timeout=1000)
    assert broker.pending_count(queue) == 0


def test_a_queue_file_of_the_previous_schema_keeps_its_messages_and_gets_the_ready_only_index(tmp_path: Path):
    path = tmp_path / "old.db"
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute(
            "CREATE TABLE dramatiq_messages (id INTEGER PRIMARY KEY AUTOINCREMENT, queue_name TEXT NOT NULL, "
            "message_id TEXT NOT NULL, data BLOB NOT NULL, state TEXT NOT NULL DEFAULT 'ready' "
            "CHECK (state IN ('ready', 'claimed')), available_at INTEGER NOT NULL, enqueued_at INTEGER NOT NULL, "
            "consumer_id TEXT, claimed_at INTEGER, deliveries INTEGER NOT NULL DEFAULT 0)"
        )
        conn.execute("CREATE INDEX dramatiq_messages_ready ON dramatiq_messages (queue_name, state, available_at, id)")
        queue = unique_queue()
        old = make_message(queue, "from the old version")
        conn.execute(
            "INSERT INTO dramatiq_messages (queue_name, message_id, data, available_at, enqueued_at) "
            "VALUES (?, ?, ?, 0, 0)",
            (queue, old.message_id, old.encode()),
        )
        conn.commit()
    broker = SQLiteBroker(path)
    try:
        with contextlib.closing(sqlite3.connect(path)) as conn:
            (index_sql,) = conn.execute(
                "SELECT sql FROM sqlite_master WHERE name = 'dramatiq_messages_ready'"
            ).fetchone()
        assert "WHERE state = 'ready'" in index_sql
        broker.declare_queue(queue)
        consumer = broker.consume(queue, prefetch=1, timeout=100)
        delivered = take(consumer, timeout=10)
        assert delivered is not None and delivered.message_id == old.message_id
        consumer.ack(delivered)
        consumer.close()
        assert broker.pending_count(queue) == 0
    finally:
        broker.close()


def test_an_ack_made_while_the_consumer_waits_is_written_with_its_next_claim(sqlite_kit: BrokerKit):
    broker = sqlite_broker(sqlite_kit)
    queue = unique_queue()
    broker.declare_queue(queue)
    waiting = "the consumer to wait in next()"
    with consumer_waiting_for_a_slot(broker, queue, lambda c: c._looking, waiting) as held:  # type: ignore[attr-defined]
        broker.enqueue(make_message(queue, "two"))

        held.consumer.ack(held.first)  # handed to the waiting consumer, which deletes "one" as it claims "two"

        held.waiter.join(10)
        assert [message.args for message in held.received] == [("two",)]  # type: ignore[union-attr]
        assert broker.pending_count(queue) == 1  # "two" only: "one" is gone
    assert broker.pending_count(queue) == 1  # "two", never acked, is still there to run


def test_a_consumer_holding_messages_claims_again_only_once_a_batch_of_slots_is_free(sqlite_kit: BrokerKit):
    broker = sqlite_broker(sqlite_kit, claim_batch=2)
    queue = unique_queue()
    broker.declare_queue(queue)
    for i in range(6):
        broker.enqueue(make_message(queue, i))
    consumer = broker.consume(queue, prefetch=4, timeout=10_000)
    held = [take(consumer, timeout=10) for _ in range(4)]  # holding nothing, it claimed at once: four in one go
    assert [message.args for message in held] == [(0,), (1,), (2,), (3,)]  # type: ignore[union-attr]
    received: list[object] = []
    waiter = threading.Thread(target=lambda: received.append(next(consumer)))
    waiter.start()
    try:
        wait_until(lambda: consumer._looking, timeout=10, what="the consumer to wait in next()")  # type: ignore[attr-defined]

        consumer.ack(held[0])  # one free slot is not worth a transaction: the ack waits for the batch's claim
        waiter.join(0.5)
        assert waiter.is_alive() and broker.pending_count(queue) == 6

        consumer.ack(held[1])  # two free: one transaction deletes both and claims two more
        waiter.join(10)
        assert [message.args for message in received] == [(4,)]  # type: ignore[union-attr]
        assert broker.pending_count(queue) == 4
        assert take(consumer, timeout=1).args == (5,)  # type: ignore[union-attr]  # claimed with the fifth
    finally:
        waiter.join(10)
        consumer.close()


def test_a_claim_batch_below_one_is_refused(tmp_path: Path):
    with pytest.raises(ValueError, match="at least 1"):
        SQLiteBroker(tmp_path / "queue.db", claim_batch=0)


def test_the_messages_of_a_consumer_whose_process_here_died_are_redelivered_at_once_not_after_its_lease(
    sqlite_kit: BrokerKit, children: list[Child]
):
    sqlite_kit.options.update(lease_seconds=600.0, heartbeat_seconds=300.0)  # the lease alone would take 10 min
    queue, sent, holder = held_by_a_child(sqlite_kit, sqlite_broker(sqlite_kit), children)

    holder.kill()  # kill -9: its consumer row and its claim stay behind
    restarted = sqlite_broker(sqlite_kit)  # a new daemon's broker reaps as it registers
    restarted.declare_queue(queue)
    redelivered = take(restarted.consume(queue, prefetch=1, timeout=100), timeout=10)

    assert redelivered is not None and redelivered.message_id == sent.message_id

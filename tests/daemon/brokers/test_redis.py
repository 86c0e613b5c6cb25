"""What only our Redis broker adds to Dramatiq's: Lua calls sent together in one round trip (many messages
enqueued at once; an ack made while the consumer waits, sent with its next fetch), and an idle delay queue looked
at once a second."""

from __future__ import annotations

import time

from dramatiq.broker import Consumer
from dramatiq.common import dq_name

from daemon.brokers.redis import DELAY_QUEUE_POLL_MS, RedisBroker
from tests.daemon.brokers.broker_kits import BrokerKit, consumer_waiting_for_a_slot, make_message, take, unique_queue


def drain(broker: RedisBroker, queue: str, count: int) -> list[str]:
    consumer = broker.consume(queue, prefetch=count, timeout=100)
    received = []
    try:
        while len(received) < count:
            message = take(consumer, timeout=10)
            if message is None:
                break
            consumer.ack(message)
            received.append(message.args[0])
    finally:
        consumer.close()
    return received


def test_a_batch_sent_in_one_round_trip_is_delivered_whole(redis_kit: BrokerKit):
    broker = redis_kit.open()
    assert isinstance(broker, RedisBroker)
    queue = unique_queue()
    broker.declare_queue(queue)

    sent = broker.enqueue_many([make_message(queue, f"job-{i}") for i in range(25)])

    assert len({message.options["redis_message_id"] for message in sent}) == 25
    assert sorted(drain(broker, queue, 25)) == sorted(f"job-{i}" for i in range(25))


def test_a_batch_still_lands_after_redis_forgot_its_scripts(redis_kit: BrokerKit):
    broker = redis_kit.open()
    assert isinstance(broker, RedisBroker)
    queue = unique_queue()
    broker.declare_queue(queue)
    broker.client.script_flush()  # as after a restart of redis-server

    broker.enqueue_many([make_message(queue, "a"), make_message(queue, "b")])

    assert sorted(drain(broker, queue, 2)) == ["a", "b"]


def test_an_empty_batch_sends_nothing(redis_kit: BrokerKit):
    broker = redis_kit.open()
    assert isinstance(broker, RedisBroker)

    assert broker.enqueue_many([]) == []


def test_an_ack_made_while_the_consumer_waits_is_sent_with_its_next_fetch(redis_kit: BrokerKit):
    broker = redis_kit.open()
    assert isinstance(broker, RedisBroker)
    queue = unique_queue()
    broker.declare_queue(queue)
    waiting = "the consumer to wait for a slot"
    with consumer_waiting_for_a_slot(broker, queue, lambda c: c._waiting, waiting) as held:  # type: ignore[attr-defined]
        broker.enqueue(make_message(queue, "two"))

        held.consumer.ack(held.first)  # handed to the waiting consumer: sent with its fetch of "two"

        held.waiter.join(10)
        assert [message.args for message in held.received] == [("two",)]  # type: ignore[union-attr]
        stored = broker.client.hkeys(f"{broker.namespace}:{queue}.msgs")
        assert stored == [held.received[0].options["redis_message_id"].encode()]  # type: ignore[union-attr]


def polls_in(consumer: Consumer, seconds: float) -> int:
    """How many times an idle consumer looked at Redis (each look that finds nothing returns ``None``)."""
    looks = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert next(consumer) is None
        looks += 1
    return looks


def test_an_idle_delay_queue_is_looked_at_about_once_a_second_and_the_main_queue_every_worker_timeout(
    redis_kit: BrokerKit,
):
    broker = redis_kit.open()
    queue = unique_queue()
    broker.declare_queue(queue)
    main, delayed = broker.consume(queue, timeout=20), broker.consume(dq_name(queue), timeout=20)
    try:
        assert delayed.timeout == DELAY_QUEUE_POLL_MS and main.timeout == 20
        assert polls_in(delayed, 2.0) <= 15  # a back-off that grows to a second
        assert polls_in(main, 2.0) >= 40  # a back-off capped at 20 ms
    finally:
        main.close()
        delayed.close()


def test_replies_are_parsed_by_hiredis_not_in_python():
    """hiredis is a dependency for speed: without it redis-py silently falls back to its pure-Python parser."""
    from redis.utils import HIREDIS_AVAILABLE

    assert HIREDIS_AVAILABLE

"""The job table as the embedded queue (``daemon.brokers.jobs``): a real job store on a real SQLite file (and a
PostgreSQL database), real Dramatiq consumers and workers. A queued row that may run now is its message; the store's
conditional claim takes the job."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import dramatiq
import pytest
from dramatiq.broker import Consumer

from core.app.storage.database import make_app_store, open_app_database
from core.app.storage.schema import Job
from core.store import JobStore
from daemon.brokers import JobRows, JobTableBroker, create_broker
from tests.daemon.brokers.broker_kits import take
from tests.waiting import async_wait_until

QUEUE = "studyjobs"


@pytest.fixture
async def app_store(database_url: str) -> AsyncIterator[JobStore[Job]]:
    db = await open_app_database(database_url)
    try:
        yield make_app_store(db, stale_after=0.5, backoff=(0.6,))
    finally:
        await db.dispose()


def table_broker(
    store: JobStore[Job], kinds: tuple[str, ...] = ("ingest", "generate"), **options: Any
) -> JobTableBroker:
    """A broker over ``store``'s table (on the running loop) with a no-op actor per kind."""
    broker = JobTableBroker(middleware=[], poll_seconds=0.01, idle_poll_seconds=0.05, **options)
    for kind in kinds:
        dramatiq.actor(lambda job_id: None, actor_name=kind, queue_name=QUEUE, broker=broker)
    broker.attach(JobRows(store, asyncio.get_running_loop()))
    return broker


async def next_message(consumer: Consumer, timeout: float) -> Any:
    return await asyncio.to_thread(take, consumer, timeout)


async def test_a_queued_row_is_delivered_once_as_the_message_its_actor_would_receive(app_store: JobStore[Job]):
    broker = table_broker(app_store)
    job = await app_store.enqueue("ingest", params={"path": "/tmp/a.txt"})
    consumer = broker.consume(QUEUE, prefetch=4, timeout=50)

    message = await next_message(consumer, 5)

    assert message is not None
    assert (message.queue_name, message.actor_name, message.args, message.kwargs) == (
        QUEUE,
        "ingest",
        (str(job.id),),
        {},
    )
    assert message.message_id == str(job.id)
    assert await next_message(consumer, 0.3) is None, "a row held as a message is not delivered a second time"
    consumer.close()


async def test_rows_not_due_not_queued_or_without_an_actor_are_never_delivered(app_store: JobStore[Job]):
    broker = table_broker(app_store)
    cancelled = await app_store.enqueue("ingest")
    await app_store.cancel(cancelled.id)
    done = await app_store.enqueue("ingest")
    claimed = await app_store.claim(done.id)
    assert claimed is not None
    await app_store.succeed(done.id, attempt=claimed.attempts)
    retried = await app_store.enqueue("generate")
    claimed = await app_store.claim(retried.id)
    assert claimed is not None
    store_later = make_app_store(app_store.db, backoff=(60.0,))
    await store_later.fail(retried.id, "busy", transient=True, attempt=claimed.attempts)
    await app_store.enqueue("download_model")  # no actor on this broker
    consumer = broker.consume(QUEUE, prefetch=4, timeout=50)

    assert await next_message(consumer, 0.5) is None
    consumer.close()


async def test_a_retry_is_delivered_when_its_run_after_comes_and_not_before(app_store: JobStore[Job]):
    broker = table_broker(app_store)
    job = await app_store.enqueue("ingest")
    claimed = await app_store.claim(job.id)
    assert claimed is not None
    failed = await app_store.fail(job.id, "busy", transient=True, attempt=claimed.attempts)
    assert failed.status == "queued" and failed.run_after is not None
    consumer = broker.consume(QUEUE, prefetch=1, timeout=50)
    started = time.monotonic()

    message = await next_message(consumer, 5)

    assert message is not None and message.args == (str(job.id),)
    assert time.monotonic() - started >= 0.4, "the backoff (0.6 s) is the row's run_after"
    assert (await app_store.claim(job.id)) is not None
    consumer.close()


async def test_an_acked_message_whose_job_was_claimed_is_gone_and_a_requeued_one_comes_back(app_store: JobStore[Job]):
    broker = table_broker(app_store)
    first = await app_store.enqueue("ingest")
    consumer = broker.consume(QUEUE, prefetch=1, timeout=50)
    message = await next_message(consumer, 5)
    assert await app_store.claim(first.id) is not None
    consumer.ack(message)
    assert await next_message(consumer, 0.3) is None, "the claimed row is no longer a message"

    second = await app_store.enqueue("generate")
    message = await next_message(consumer, 5)
    assert message.args == (str(second.id),)
    consumer.requeue([message])  # a worker shutting down: the row was never claimed

    again = await next_message(consumer, 5)
    assert again is not None and again.args == (str(second.id),)
    consumer.close()


async def test_nothing_is_delivered_while_jobs_are_not_taken(app_store: JobStore[Job]):
    broker = table_broker(app_store)
    taking = threading.Event()
    broker.taking_jobs = taking.is_set
    job = await app_store.enqueue("ingest")
    consumer = broker.consume(QUEUE, prefetch=2, timeout=50)

    assert await next_message(consumer, 0.4) is None
    assert (await app_store.get(job.id)).status == "queued"
    taking.set()
    broker.wake()
    message = await next_message(consumer, 5)
    assert message is not None and message.args == (str(job.id),)
    consumer.close()


async def test_a_dead_workers_job_comes_back_through_the_lease_reclaim(app_store: JobStore[Job]):
    broker = table_broker(app_store)
    job = await app_store.enqueue("ingest")
    assert await app_store.claim(job.id, worker_id="gone:1") is not None
    consumer = broker.consume(QUEUE, prefetch=1, timeout=50)
    assert await next_message(consumer, 0.3) is None, "a running row is no message"

    assert await async_wait_until(app_store.reclaim_stale, timeout=10, what="the lease reclaim") == 1
    message = await next_message(consumer, 5)
    assert message is not None and message.args == (str(job.id),)
    consumer.close()


async def test_a_message_sent_in_this_process_wakes_a_waiting_consumer_at_once(app_store: JobStore[Job]):
    broker = table_broker(app_store)
    broker.poll_seconds = 5.0  # only the wake-up can be quick
    consumer = broker.consume(QUEUE, prefetch=1, timeout=3000)
    waiting = asyncio.create_task(next_message(consumer, 3))
    await asyncio.sleep(0.2)  # the consumer has read the empty table and waits
    job = await app_store.enqueue("ingest")
    sent_at = time.monotonic()
    broker.enqueue(broker.get_actor("ingest").message(str(job.id)))

    message = await waiting
    assert message is not None and message.args == (str(job.id),)
    assert time.monotonic() - sent_at < 1.0
    consumer.close()


def test_an_sqlite_broker_url_makes_the_job_table_broker():
    broker = create_broker("sqlite:////tmp/any.db", middleware=[])
    assert isinstance(broker, JobTableBroker)
    assert broker.get_declared_delay_queues() == set()


@pytest.mark.parametrize("options", [{"poll_seconds": 0}, {"idle_poll_seconds": -1}, {"claim_batch": 0}])
def test_impossible_settings_are_refused(options: dict[str, Any]):
    with pytest.raises(ValueError):
        JobTableBroker(middleware=[], **options)


async def test_two_workers_over_one_database_run_every_job_exactly_once(database_url: str):
    """Two brokers, each with its own store and a real Dramatiq worker of two threads, over one database."""
    dbs = [await open_app_database(database_url) for _ in range(2)]
    stores = [make_app_store(db, stale_after=30.0) for db in dbs]
    loop = asyncio.get_running_loop()
    wins: list[tuple[int, str]] = []
    turned_away: list[str] = []
    lock = threading.Lock()
    workers: list[dramatiq.Worker] = []
    try:
        for index, store in enumerate(stores):
            broker = JobTableBroker(middleware=[], poll_seconds=0.01, claim_batch=2)
            run = _claim_and_succeed(store, loop, index, wins, turned_away, lock)
            dramatiq.actor(run, actor_name="ingest", queue_name=QUEUE, broker=broker)
            broker.attach(JobRows(store, loop))
            worker = dramatiq.Worker(broker, worker_threads=2, worker_timeout=50)
            worker.start()
            workers.append(worker)
        jobs = [(await stores[0].enqueue("ingest")).id for _ in range(60)]

        async def all_done() -> bool:
            return await stores[0].count(kind="ingest", status="done") >= len(jobs)

        await async_wait_until(all_done, timeout=60, what="every job done")
    finally:
        for worker in workers:
            await asyncio.to_thread(worker.stop, 5000)
        for db in dbs:
            await db.dispose()
    assert sorted(job for _, job in wins) == sorted(str(j) for j in jobs), "each job claimed exactly once"
    assert {index for index, _ in wins} == {0, 1}, "both workers took jobs"


def _claim_and_succeed(
    store: JobStore[Job],
    loop: asyncio.AbstractEventLoop,
    index: int,
    wins: list[tuple[int, str]],
    turned_away: list[str],
    lock: threading.Lock,
) -> Callable[[str], None]:
    def run(job_id: str) -> None:
        async def claim_and_succeed() -> bool:
            job = await store.claim(uuid.UUID(job_id), worker_id=f"w{index}")
            if job is None:
                return False
            await store.succeed(job.id, attempt=job.attempts)
            return True

        won = asyncio.run_coroutine_threadsafe(claim_and_succeed(), loop).result(30)
        with lock:
            (wins.append((index, job_id)) if won else turned_away.append(job_id))

    return run

"""Two workers on two connections racing one claim: exactly one wins — and the naive claim would not."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable

from sqlalchemy import select, update

from core import AsyncDatabaseManager, JobStatus, JobStore
from tests.jobtesting import SampleJob

ROUNDS = 30


async def naive_claim(db: AsyncDatabaseManager, job_id: uuid.UUID, between: Callable[[], Awaitable[None]]) -> bool:
    """The read-then-write claim the store must never do: look, then write without a condition."""
    try:
        async with db.get_session_context() as session:
            status = await session.scalar(select(SampleJob.status).where(SampleJob.id == job_id))
            if status != JobStatus.QUEUED:
                return False
            await between()
            await session.execute(
                update(SampleJob)
                .where(SampleJob.id == job_id)
                .values(status=JobStatus.RUNNING.value, attempts=SampleJob.attempts + 1)
            )
        return True
    except Exception:
        return False


def barrier(parties: int) -> Callable[[], Awaitable[None]]:
    """An asyncio barrier: every contender waits until all have arrived."""
    arrived = 0
    released = asyncio.Event()

    async def wait() -> None:
        nonlocal arrived
        arrived += 1
        if arrived == parties:
            released.set()
        await released.wait()

    return wait


async def test_two_workers_on_two_connections_racing_one_claim_exactly_one_wins(database_url: str):
    first = AsyncDatabaseManager(database_url)
    second = AsyncDatabaseManager(database_url)
    await first.create_tables()
    try:
        stores = [JobStore(first, model=SampleJob), JobStore(second, model=SampleJob)]
        for _ in range(ROUNDS):
            job = await stores[0].enqueue("extract", payload=b"x")
            start = barrier(2)

            async def contend(store: JobStore, job_id: uuid.UUID = job.id, start=start):
                await start()
                return await store.claim(job_id)

            results = await asyncio.gather(*(contend(s) for s in stores))
            winners = [r for r in results if r is not None]
            assert len(winners) == 1
            assert winners[0].attempts == 1
            row = await stores[1].get(job.id)
            assert row.status == JobStatus.RUNNING and row.attempts == 1
    finally:
        await first.dispose()
        await second.dispose()


async def test_the_naive_read_then_write_claim_double_claims_under_the_same_race(database_url: str):
    """The control that proves the race test bites: with the read and the write apart, both contenders win."""
    first = AsyncDatabaseManager(database_url)
    second = AsyncDatabaseManager(database_url)
    await first.create_tables()
    try:
        store = JobStore(first, model=SampleJob)
        broken_rounds = 0
        for _ in range(5):
            job = await store.enqueue("extract")
            between = barrier(2)
            results = await asyncio.gather(naive_claim(first, job.id, between), naive_claim(second, job.id, between))
            row = await store.get(job.id)
            if sum(results) > 1 or row.attempts > 1:
                broken_rounds += 1
        assert broken_rounds > 0, "the naive claim never lost the race: the race harness does not bite"
    finally:
        await first.dispose()
        await second.dispose()

# Section 5 of the seed (001), "O worker que morreu segurando o job". Adapted: the import lines and the broker.
from core import AsyncDatabaseManager, BaseJobModel, JobStore
from tests.core.seed_samples.inline_queue import TaskQueue


class JobModel(BaseJobModel):
    """Uma unidade de trabalho longo desta aplicação."""

    __tablename__ = "jobs"


db = AsyncDatabaseManager("sqlite+aiosqlite:///./app.db")
tq = TaskQueue.rabbitmq("amqp://guest:guest@localhost:5672/", resources=[db])
store: JobStore[JobModel] = JobStore(db, model=JobModel, stale_after=300.0)


@tq.interval(seconds=60)
async def reclaim_jobs() -> None:
    """Devolve à fila o que um worker morto deixou em RUNNING."""
    await store.reclaim_stale()


# --- driver (not part of the seed) ---
if __name__ == "__main__":
    import asyncio
    from datetime import timedelta

    from sqlalchemy import update

    from core.types import utcnow

    async def main() -> None:
        await db.create_tables()
        job = await store.enqueue("extract")
        await store.claim(job.id)
        async with db.get_session_context() as session:  # the worker died an hour ago
            await session.execute(update(JobModel).values(heartbeat_at=utcnow() - timedelta(hours=1)))
        await reclaim_jobs()
        assert (await store.get(job.id)).status == "queued"
        try:
            await JobStore(db, model=JobModel).reclaim_stale()
        except RuntimeError:
            pass
        else:
            raise AssertionError("reclaim_stale without stale_after must refuse")
        await db.dispose()

    asyncio.run(main())

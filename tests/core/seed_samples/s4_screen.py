# Section 4 of the seed (001), "A tela que pergunta 'já terminou?'". Adapted: the import line.
from uuid import UUID

from core import AsyncDatabaseManager, BaseJobModel, JobStore


class JobModel(BaseJobModel):
    """Uma unidade de trabalho longo desta aplicação."""

    __tablename__ = "jobs"


db = AsyncDatabaseManager("sqlite+aiosqlite:///./app.db")
store: JobStore[JobModel] = JobStore(db, model=JobModel)


async def show_progress(job_id: UUID) -> list[str]:
    """Acompanha o job até ele terminar.

    Args:
        job_id (UUID): O job que a tela está observando.

    Returns:
        list[str]: Cada status pelo qual o job passou.
    """
    seen: list[str] = []
    async for job in store.watch(job_id, interval=2.0):
        seen.append(job.status)
    return seen


# --- driver (not part of the seed) ---
if __name__ == "__main__":
    import asyncio

    async def main() -> None:
        await db.create_tables()
        job = await store.enqueue("extract")
        await store.claim(job.id)
        await store.succeed(job.id)
        assert await show_progress(job.id) == ["done"]  # arrived after the end: exactly one value
        await db.dispose()

    asyncio.run(main())

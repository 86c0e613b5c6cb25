# Section 6 of the seed (001), "Listar". Adapted: the import line.
from core import AsyncDatabaseManager, BaseJobModel, JobStatus, JobStore


class JobModel(BaseJobModel):
    """Uma unidade de trabalho longo desta aplicação."""

    __tablename__ = "jobs"


db = AsyncDatabaseManager("sqlite+aiosqlite:///./app.db")
store: JobStore[JobModel] = JobStore(db, model=JobModel)


async def dashboard() -> tuple[list[JobModel], list[JobModel]]:
    """Lê o que a tela de acompanhamento mostra.

    Returns:
        tuple[list[JobModel], list[JobModel]]: Os jobs recentes e os que
        estão rodando agora.
    """
    recentes = await store.list_recent(kind="extract", limit=20)
    rodando = await store.list_recent(status=JobStatus.RUNNING)
    return recentes, rodando


# --- driver (not part of the seed) ---
if __name__ == "__main__":
    import asyncio

    async def main() -> None:
        await db.create_tables()
        assert await dashboard() == ([], [])
        a = await store.enqueue("extract")
        await store.enqueue("generate")
        await store.claim(a.id)
        recentes, rodando = await dashboard()
        assert [j.id for j in recentes] == [a.id] and [j.id for j in rodando] == [a.id]
        await db.dispose()

    asyncio.run(main())

# Section 7 of the seed (001), "Cancelar" and "O worker desiste". Adapted: the import lines.
from uuid import UUID

from core import (
    AsyncDatabaseManager,
    BaseJobModel,
    JobStore,
    StageInterruptedError,
    run_cancellable,
)


class JobModel(BaseJobModel):
    """Uma unidade de trabalho longo desta aplicação."""

    __tablename__ = "jobs"


db = AsyncDatabaseManager("sqlite+aiosqlite:///./app.db")
store: JobStore[JobModel] = JobStore(db, model=JobModel)


async def cancelar(job_id: UUID) -> bool:
    """Pede para o job parar.

    Args:
        job_id (UUID): O job a cancelar.

    Returns:
        bool: True quando havia algo para parar.
    """
    job: JobModel | None = await store.cancel(job_id, reason="cancelado pelo usuário")
    return job is not None


async def resumir(texto: str) -> str:
    """Trabalho longo de verdade (chamada de rede, cancelável).

    Args:
        texto (str): O texto a resumir.

    Returns:
        str: O resumo.
    """
    return texto[:100]


async def executar(job_id: UUID) -> None:
    """Roda o job, desistindo se ele for cancelado no meio.

    Args:
        job_id (UUID): O job a executar.
    """
    job: JobModel | None = await store.claim(job_id)
    if job is None:
        return

    try:
        resumo: str = await run_cancellable(
            resumir("um texto longo"),
            interrupted=store.cancellation_watch(job_id),
        )
    except StageInterruptedError:
        return

    await store.succeed(job_id)
    print(resumo)


# --- driver (not part of the seed) ---
if __name__ == "__main__":
    import asyncio

    async def main() -> None:
        await db.create_tables()
        job = await store.enqueue("extract")
        await executar(job.id)
        assert (await store.get(job.id)).status == "done"
        assert not await cancelar(job.id)  # already done: nothing to stop, no error
        other = await store.enqueue("extract")
        assert await cancelar(other.id)
        assert await cancelar(other.id) is False
        await executar(other.id)  # claim says no: it was cancelled
        assert (await store.get(other.id)).status == "cancelled"
        await db.dispose()

    asyncio.run(main())

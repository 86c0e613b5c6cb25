# Section 8 of the seed (001), "Progresso: a barra que não mente". Adapted: the import lines.
from uuid import UUID

from core import (
    AsyncDatabaseManager,
    BaseJobModel,
    JobStatus,
    JobStore,
    PhasePlan,
    ProgressTracker,
    StageInterruptedError,
)

PLAN_WITH_SLOPES: PhasePlan = PhasePlan.from_seconds(
    {"pdf": 1.0, "table": 30.0, "reading": 19.0},
    per_kilochar={"table": 0.5, "reading": 0.2},
)


class JobModel(BaseJobModel):
    """Uma unidade de trabalho longo desta aplicação."""

    __tablename__ = "jobs"


db = AsyncDatabaseManager("sqlite+aiosqlite:///./app.db")
store: JobStore[JobModel] = JobStore(db, model=JobModel)
PLAN: PhasePlan = PhasePlan.from_seconds({"table": 30.0, "reading": 19.0})


async def ler_tabela(texto: str) -> str:
    """Chama o modelo para transcrever a tabela.

    Args:
        texto (str): As páginas que carregam a tabela.

    Returns:
        str: A resposta do modelo.
    """
    return texto


async def ler_documento(job_id: UUID, texto: str) -> None:
    """Lê um documento reportando o progresso de cada fase.

    Args:
        job_id (UUID): O job reivindicado.
        texto (str): O documento já extraído.
    """
    tracker = ProgressTracker(store, job_id, plan=PLAN)
    try:
        tabela = await tracker.run("table", ler_tabela(texto), size=len(texto))
    except StageInterruptedError:
        return
    await store.succeed(job_id, result_id=None)
    del tabela


async def acompanhar(job_id: UUID) -> list[tuple[str, float]]:
    """Segue uma leitura até o fim, quadro a quadro.

    Args:
        job_id (UUID): O job a seguir.

    Returns:
        list[tuple[str, float]]: Cada fase e o percentual naquele instante.
    """
    quadros: list[tuple[str, float]] = []
    async for job in store.watch(
        job_id,
        interval=2.0,
        emit_on=("status", "progress", "stage"),
    ):
        quadros.append((job.stage, job.progress))
    return quadros


async def em_andamento() -> list[JobModel]:
    """Lista o que a faixa de progresso mostra.

    Returns:
        list[JobModel]: Os jobs na fila e os que estão rodando.
    """
    return await store.list_recent(
        kind="extract",
        statuses=(JobStatus.QUEUED, JobStatus.RUNNING),
    )


# --- driver (not part of the seed) ---
if __name__ == "__main__":
    import asyncio

    async def main() -> None:
        await db.create_tables()
        job = await store.enqueue("extract")
        assert [j.id for j in await em_andamento()] == [job.id]
        await store.claim(job.id)
        await ler_documento(job.id, "uma tabela")
        assert await acompanhar(job.id) == [("table", 1.0)]
        assert await em_andamento() == []
        assert PLAN_WITH_SLOPES.expected_seconds("table", 40_000) == 50.0
        await db.dispose()

    asyncio.run(main())

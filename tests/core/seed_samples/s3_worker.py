# Section 3 of the seed (001), "O worker". Adapted: the import lines and the broker (inline_queue).
from uuid import UUID, uuid4

from core import AsyncDatabaseManager, BaseJobModel, JobStore
from tests.core.seed_samples.inline_queue import TaskQueue


class JobModel(BaseJobModel):
    """Uma unidade de trabalho longo desta aplicação."""

    __tablename__ = "jobs"


class UnsupportedFormat(Exception):
    """O arquivo enviado não é algo que sabemos ler."""


async def read_tender(payload: bytes | None) -> UUID:
    """O trabalho de verdade; devolve o id do que produziu.

    Args:
        payload (bytes | None): O documento reivindicado com o job.

    Returns:
        UUID: O id do rascunho gerado.

    Raises:
        UnsupportedFormat: Quando o documento não é legível.
    """
    if not payload:
        raise UnsupportedFormat("arquivo vazio")
    return uuid4()


db = AsyncDatabaseManager("sqlite+aiosqlite:///./app.db")
tq = TaskQueue.rabbitmq("amqp://guest:guest@localhost:5672/", resources=[db])
store: JobStore[JobModel] = JobStore(db, model=JobModel, stale_after=300.0)


@tq.task
async def extract_document(job_id: str) -> None:
    """Reivindica o job, faz o trabalho e fecha a linha.

    Args:
        job_id (str): O id que a rota mandou junto com a task.
    """
    job = await store.claim(UUID(job_id))
    if job is None:
        return
    try:
        draft_id = await read_tender(job.payload)
    except UnsupportedFormat as exc:
        await store.fail(job.id, f"Nao consegui ler o arquivo: {exc}")
    else:
        await store.succeed(job.id, result_id=draft_id)


# --- driver (not part of the seed) ---
if __name__ == "__main__":
    import asyncio

    from tests.core.seed_samples.inline_queue import drain

    async def main() -> None:
        await db.create_tables()
        good = await store.enqueue("extract", payload=b"%PDF")
        empty = await store.enqueue("extract", payload=b"")
        await extract_document.enqueue(str(good.id))
        await extract_document.enqueue(str(empty.id))
        await extract_document.enqueue(str(good.id))  # a duplicate message: claim says no
        await drain()
        done, failed = await store.get(good.id), await store.get(empty.id)
        assert (done.status, done.attempts, done.result_id is not None) == ("done", 1, True)
        assert (failed.status, failed.error) == ("failed", "Nao consegui ler o arquivo: arquivo vazio")
        await db.dispose()

    asyncio.run(main())

# Section 2 of the seed (001), "Enfileirar": src/api/routers/extraction.py with src/tasks inlined.
# Adapted: the import lines (core instead of the SDK) and the broker (inline_queue).
from uuid import UUID, uuid4

from fastapi import APIRouter, UploadFile

from core import AsyncDatabaseManager, BaseJobModel, JobStore
from tests.core.seed_samples.inline_queue import TaskQueue


class JobModel(BaseJobModel):
    """Uma unidade de trabalho longo desta aplicação."""

    __tablename__ = "jobs"


db = AsyncDatabaseManager("sqlite+aiosqlite:///./app.db")
tq = TaskQueue.rabbitmq("amqp://guest:guest@localhost:5672/", resources=[db])


@tq.task
async def extract_document(job_id: str) -> None:
    pass


router = APIRouter(prefix="/api/extraction")
store: JobStore[JobModel] = JobStore(db, model=JobModel, stale_after=300.0)


@router.post("/")
async def start_extraction(file: UploadFile) -> dict[str, UUID]:
    """Aceita o documento e devolve o id do job para acompanhar."""
    job = await store.enqueue(
        "extract",
        params={"filename": file.filename or "sem-nome.pdf"},
        payload=await file.read(),
    )
    await extract_document.enqueue(str(job.id))
    return {"job_id": job.id}


# --- driver (not part of the seed) ---
if __name__ == "__main__":
    import asyncio

    import httpx
    from fastapi import FastAPI

    async def main() -> None:
        await db.create_tables()
        app = FastAPI()
        app.include_router(router)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client:
            response = await client.post("/api/extraction/", files={"file": ("edital.pdf", b"%PDF-1.4 ...")})
        assert response.status_code == 200, response.text
        job = await store.get(UUID(response.json()["job_id"]))
        assert (job.status, job.params, job.payload) == (
            "queued",
            {"filename": "edital.pdf"},
            b"%PDF-1.4 ...",
        )
        await db.dispose()
        assert uuid4()

    asyncio.run(main())

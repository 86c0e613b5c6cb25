"""Spec part B.6: retry is the store's — a backoff for transient errors, the dead letter for the rest."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from sqlalchemy import update

from core import AsyncDatabaseManager, Backoff, JobStatus, JobStore
from core.types import utcnow
from tests.jobtesting import SampleJob


async def make_due(db: AsyncDatabaseManager, job_id: uuid.UUID) -> None:
    """Let the clock reach the job's retry time."""
    async with db.get_session_context() as session:
        await session.execute(
            update(SampleJob).where(SampleJob.id == job_id).values(run_after=utcnow() - timedelta(seconds=1))
        )


def test_the_backoff_repeats_its_last_step():
    backoff = Backoff((60, 300, 900, 3600))
    assert [backoff.delay(n) for n in range(0, 7)] == [60, 60, 300, 900, 3600, 3600, 3600]
    with pytest.raises(ValueError):
        Backoff(())
    with pytest.raises(ValueError):
        Backoff((10, -1))


async def test_transient_failures_follow_the_backoff_and_end_failed_when_the_budget_is_spent(
    db: AsyncDatabaseManager,
):
    store = JobStore(db, model=SampleJob, backoff=(60, 300, 900), max_attempts_by_kind={"ingest": 5})
    job = await store.enqueue("ingest", payload=b"file")
    assert job.max_attempts == 5
    for attempt, delay in ((1, 60), (2, 300), (3, 900), (4, 900)):
        claimed = await store.claim(job.id)
        assert claimed is not None and claimed.attempts == attempt
        before = utcnow()
        row = await store.fail(job.id, f"Servidor ocupado ({attempt})", transient=True, attempt=attempt)
        assert row.status == JobStatus.QUEUED
        assert row.error == f"Servidor ocupado ({attempt})" and row.error_transient
        assert before + timedelta(seconds=delay - 1) <= row.run_after <= utcnow() + timedelta(seconds=delay + 1)
        assert row.finished_at is None
        assert await store.claim(job.id) is None, "claimed before its retry time"
        assert [j.id for j in await store.due_jobs()] == []
        await make_due(db, job.id)
        assert [j.id for j in await store.due_jobs()] == [job.id]
    last = await store.claim(job.id)
    assert last.attempts == 5 and last.payload == b"file"
    row = await store.fail(job.id, "Servidor ocupado (5)", transient=True, attempt=5)
    assert row.status == JobStatus.FAILED
    assert row.error == "Servidor ocupado (5)"
    assert row.run_after is None and row.finished_at is not None
    assert (await store.get(job.id)).payload is None


async def test_a_permanent_failure_ends_failed_at_once(store: JobStore):
    job = await store.enqueue("ingest", payload=b"encrypted", max_attempts=5)
    await store.claim(job.id)
    await store.report_progress(job.id, 0.25, stage="read")
    row = await store.fail(job.id, "O PDF está protegido por senha.", attempt=1)
    assert row.status == JobStatus.FAILED
    assert row.attempts == 1 and not row.error_transient
    assert row.progress == pytest.approx(0.25) and row.stage == "read"


@pytest.mark.parametrize("ending", ["failed", "cancelled"])
async def test_manual_retry_requeues_failed_and_cancelled_jobs_with_a_fresh_budget(store: JobStore, ending: str):
    job = await store.enqueue("generate", max_attempts=2)
    await store.claim(job.id)
    await store.report_progress(job.id, 0.6, stage="sections", message="Escrevendo…")
    if ending == "failed":
        await store.fail(job.id, "Modelo ausente.")
    else:
        await store.cancel(job.id)
    again = await store.retry(job.id)
    assert again is not None
    assert (again.status, again.attempts, again.progress, again.stage, again.error) == (
        "queued",
        0,
        0.0,
        "",
        None,
    )
    assert again.finished_at is None and again.max_attempts == 2
    claimed = await store.claim(job.id)
    assert claimed.attempts == 1


async def test_manual_retry_answers_none_for_anything_else(store: JobStore):
    assert await store.retry(uuid.uuid4()) is None
    queued = await store.enqueue("generate")
    assert await store.retry(queued.id) is None
    running = await store.enqueue("generate")
    await store.claim(running.id)
    assert await store.retry(running.id) is None
    done = await store.enqueue("generate")
    await store.claim(done.id)
    await store.succeed(done.id)
    assert await store.retry(done.id) is None
    assert (await store.get(done.id)).status == JobStatus.DONE


async def test_success_after_a_transient_failure_clears_the_old_reason(store: JobStore, db: AsyncDatabaseManager):
    job = await store.enqueue("generate")
    await store.claim(job.id)
    await store.fail(job.id, "Tempo esgotado.", transient=True)
    await make_due(db, job.id)
    await store.claim(job.id)
    done = await store.succeed(job.id)
    assert done.error is None and not done.error_transient


async def test_due_jobs_lists_requeued_and_forgotten_rows_oldest_first(store: JobStore):
    a = await store.enqueue("ingest")
    b = await store.enqueue("ingest")
    running = await store.enqueue("ingest")
    await store.claim(running.id)
    assert [j.id for j in await store.due_jobs()] == [a.id, b.id]
    assert await store.due_jobs(older_than=3600) == []
    assert len(await store.due_jobs(limit=1)) == 1

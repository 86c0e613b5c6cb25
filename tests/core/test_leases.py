"""Spec part B: leases, fencing, nothing stranded, and the reclaim loop's attempt budget."""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta

import pytest
from sqlalchemy import update

from core import AsyncDatabaseManager, JobClaimLostError, JobStatus, JobStore
from core.types import utcnow
from tests.jobtesting import SampleJob


async def age_heartbeat(db: AsyncDatabaseManager, job_id: uuid.UUID, seconds: float) -> None:
    """Make the job's last sign of life ``seconds`` old (what a dead worker leaves behind)."""
    async with db.get_session_context() as session:
        await session.execute(
            update(SampleJob).where(SampleJob.id == job_id).values(heartbeat_at=utcnow() - timedelta(seconds=seconds))
        )


async def test_reclaim_stale_without_stale_after_refuses(db: AsyncDatabaseManager):
    with pytest.raises(RuntimeError, match="stale_after"):
        await JobStore(db, model=SampleJob).reclaim_stale()


async def test_a_job_that_keeps_reporting_is_never_reclaimed_however_long_it_runs(db: AsyncDatabaseManager):
    store = JobStore(db, model=SampleJob, stale_after=0.5)
    job = await store.enqueue("generate")
    claimed = await store.claim(job.id)
    loop = asyncio.get_running_loop()
    end = loop.time() + 2.5  # five leases long
    reclaimed = 0
    while loop.time() < end:
        assert await store.report_progress(job.id, 0.1, attempt=claimed.attempts)
        reclaimed += await store.reclaim_stale()
        await asyncio.sleep(0.05)
    assert reclaimed == 0
    row = await store.get(job.id)
    assert row.status == JobStatus.RUNNING and row.attempts == 1
    assert row.started_at < utcnow() - timedelta(seconds=2)


async def test_a_bare_heartbeat_keeps_a_silent_job_alive(store: JobStore, db: AsyncDatabaseManager):
    job = await store.enqueue("generate")
    claimed = await store.claim(job.id)
    await age_heartbeat(db, job.id, 3600)
    assert await store.heartbeat(job.id, attempt=claimed.attempts)
    assert await store.reclaim_stale() == 0
    assert (await store.get(job.id)).status == JobStatus.RUNNING


async def test_a_job_whose_worker_went_quiet_is_requeued(store: JobStore, db: AsyncDatabaseManager):
    job = await store.enqueue("generate", payload=b"doc")
    await store.claim(job.id)
    await age_heartbeat(db, job.id, 3600)
    assert await store.reclaim_stale(reason="O programa parou de responder.") == 1
    row = await store.get(job.id)
    assert row.status == JobStatus.QUEUED
    assert row.payload == b"doc"
    assert row.error == "O programa parou de responder." and row.error_transient
    assert row.worker_id is None and row.heartbeat_at is None


async def test_a_superseded_worker_cannot_finish_or_repaint_while_the_live_attempt_finishes(
    store: JobStore, db: AsyncDatabaseManager
):
    job = await store.enqueue("generate")
    zombie = await store.claim(job.id, worker_id="zombie")
    await age_heartbeat(db, job.id, 3600)
    await store.reclaim_stale()
    live = await store.claim(job.id, worker_id="live")
    assert (zombie.attempts, live.attempts) == (1, 2)

    assert await store.report_progress(job.id, 0.3, stage="outline", attempt=live.attempts)
    assert not await store.report_progress(job.id, 0.9, stage="export", attempt=zombie.attempts)
    assert not await store.heartbeat(job.id, attempt=zombie.attempts)
    with pytest.raises(JobClaimLostError):
        await store.succeed(job.id, attempt=zombie.attempts)
    with pytest.raises(JobClaimLostError):
        await store.fail(job.id, "zombie error", attempt=zombie.attempts)
    row = await store.get(job.id)
    assert (row.status, row.stage, row.progress, row.worker_id) == (
        "running",
        "outline",
        pytest.approx(0.3),
        "live",
    )

    done = await store.succeed(job.id, attempt=live.attempts)
    assert done.status == JobStatus.DONE


async def test_a_zombie_whose_job_was_requeued_but_not_yet_claimed_loses_its_claim(
    store: JobStore, db: AsyncDatabaseManager
):
    job = await store.enqueue("generate")
    zombie = await store.claim(job.id)
    await age_heartbeat(db, job.id, 3600)
    await store.reclaim_stale()
    with pytest.raises(JobClaimLostError):
        await store.succeed(job.id, attempt=zombie.attempts)
    assert (await store.get(job.id)).status == JobStatus.QUEUED


async def test_cancellation_watch_with_an_attempt_also_stops_a_superseded_worker(
    store: JobStore, db: AsyncDatabaseManager
):
    job = await store.enqueue("generate")
    zombie = await store.claim(job.id)
    stop = store.cancellation_watch(job.id, attempt=zombie.attempts)
    assert not await stop()
    await age_heartbeat(db, job.id, 3600)
    await store.reclaim_stale()
    await store.claim(job.id)
    assert await stop()


async def test_a_reclaimed_jobs_next_attempt_starts_at_zero_with_no_stale_stage(
    store: JobStore, db: AsyncDatabaseManager
):
    job = await store.enqueue("generate")
    first = await store.claim(job.id)
    await store.report_progress(job.id, 0.7, stage="sections", message="Escrevendo a seção 3 de 5…", attempt=1)
    await age_heartbeat(db, job.id, 3600)
    await store.reclaim_stale()
    queued = await store.get(job.id)
    assert (queued.progress, queued.stage, queued.message) == (0.0, "", "")
    second = await store.claim(job.id)
    assert second.attempts == first.attempts + 1
    assert (second.progress, second.stage, second.message) == (0.0, "", "")
    assert await store.report_progress(job.id, 0.1, stage="load_model", attempt=second.attempts)
    assert (await store.get(job.id)).progress == pytest.approx(0.1)


async def test_the_attempt_budget_ends_the_reclaim_loop(db: AsyncDatabaseManager):
    store = JobStore(db, model=SampleJob, stale_after=60)
    job = await store.enqueue("generate", payload=b"kills its worker", max_attempts=3)
    for attempt in (1, 2, 3):
        claimed = await store.claim(job.id)
        assert claimed is not None and claimed.attempts == attempt
        await age_heartbeat(db, job.id, 3600)
        assert await store.reclaim_stale() == 1
    row = await store.get(job.id)
    assert row.status == JobStatus.FAILED
    assert row.finished_at is not None and row.payload is None
    assert row.error
    assert await store.claim(job.id) is None
    assert await store.reclaim_stale() == 0


async def test_release_hands_the_claim_back_without_spending_an_attempt(store: JobStore):
    job = await store.enqueue("generate")
    claimed = await store.claim(job.id)
    await store.report_progress(job.id, 0.5, stage="sections", attempt=claimed.attempts)
    assert await store.release(job.id, attempt=claimed.attempts)
    row = await store.get(job.id)
    assert (row.status, row.attempts, row.progress, row.stage) == ("queued", 0, 0.0, "")
    assert not await store.release(job.id, attempt=claimed.attempts)
    again = await store.claim(job.id)
    assert again.attempts == 1


async def test_heartbeat_many_renews_held_claims_and_reports_lost_ones(store: JobStore):
    a = await store.enqueue("generate")
    b = await store.enqueue("generate")
    claim_a = await store.claim(a.id)
    claim_b = await store.claim(b.id)
    await store.cancel(b.id)
    held = await store.heartbeat_many({a.id: claim_a.attempts, b.id: claim_b.attempts})
    assert held == {a.id}


async def test_a_heartbeat_does_not_count_as_a_change_for_screens(store: JobStore):
    job = await store.enqueue("generate")
    await store.claim(job.id)
    before = (await store.get(job.id)).updated_at
    assert await store.heartbeat(job.id)
    assert (await store.get(job.id)).updated_at == before


async def test_progress_never_goes_backwards_within_an_attempt_but_the_stage_always_moves(store: JobStore):
    job = await store.enqueue("generate")
    claimed = await store.claim(job.id)
    assert await store.report_progress(job.id, 0.5, stage="outline", attempt=claimed.attempts)
    assert await store.report_progress(job.id, 0.5, stage="sections", attempt=claimed.attempts)
    assert await store.report_progress(job.id, 0.2, stage="sections", attempt=claimed.attempts)
    row = await store.get(job.id)
    assert (row.stage, row.progress) == ("sections", pytest.approx(0.5))


async def test_a_progress_write_keeps_what_it_does_not_name_and_replaces_what_it_does(store: JobStore):
    job = await store.enqueue("generate")
    claimed = await store.claim(job.id)
    phases = [{"name": "outline", "start": 0.0, "end": 0.4}, {"name": "sections", "start": 0.4, "end": 1.0}]
    first = {"current_section": 1, "total_sections": 5}
    assert await store.report_progress(
        job.id, 0.1, stage="outline", message="Planning", detail=first, phases=phases, attempt=claimed.attempts
    )
    assert await store.report_progress(job.id, 0.2, attempt=claimed.attempts)  # a bare tick
    row = await store.get(job.id)
    assert (row.stage, row.message, row.detail, row.phases) == ("outline", "Planning", first, phases)
    assert await store.report_progress(job.id, 0.3, stage="sections", message="", detail={}, phases=[])
    row = await store.get(job.id)
    assert (row.stage, row.message, row.detail, row.phases, row.progress) == ("sections", "", {}, [], 0.3)
    assert row.updated_at > claimed.updated_at and row.heartbeat_at is not None


async def test_progress_writes_to_a_job_that_is_not_running_do_not_land(store: JobStore):
    queued = await store.enqueue("generate")
    assert not await store.report_progress(queued.id, 0.5)
    assert not await store.report_progress(uuid.uuid4(), 0.5)
    assert (await store.get(queued.id)).progress == 0.0


async def test_message_and_detail_are_on_the_row(store: JobStore):
    job = await store.enqueue("generate")
    await store.claim(job.id)
    detail = {"current_section": 2, "total_sections": 5, "document_id": str(uuid.uuid4())}
    await store.report_progress(job.id, 0.4, stage="sections", message="Escrevendo a seção 2 de 5…", detail=detail)
    row = await store.get(job.id)
    assert row.message == "Escrevendo a seção 2 de 5…"
    assert row.detail == detail


async def test_the_jobs_of_workers_known_to_be_gone_are_reclaimed_at_once_and_no_others(store: JobStore):
    crashed, alive = await store.enqueue("generate"), await store.enqueue("generate")
    spent = await store.enqueue("generate", max_attempts=1)
    await store.claim(crashed.id, worker_id="laptop:111:aaaa")
    await store.claim(alive.id, worker_id="laptop:222:bbbb")
    await store.claim(spent.id, worker_id="laptop:111:aaaa")

    moved = await store.reclaim_of_workers(["laptop:111:aaaa"], reason="The program stopped unexpectedly.")

    assert moved == 2  # fresh heartbeats: reclaim_stale would have moved none of them
    requeued, failed, running = await store.get(crashed.id), await store.get(spent.id), await store.get(alive.id)
    assert (requeued.status, requeued.worker_id, requeued.error) == (
        JobStatus.QUEUED,
        None,
        "The program stopped unexpectedly.",
    )
    assert failed.status == JobStatus.FAILED
    assert running.status == JobStatus.RUNNING
    assert await store.reclaim_of_workers([]) == 0

"""The seed's contract for JobStore (spec part A), on SQLite and PostgreSQL."""

from __future__ import annotations

import uuid
from datetime import UTC

import pytest
from sqlalchemy import event, update

from core import (
    CANCELLABLE_JOB_STATUSES,
    TERMINAL_JOB_STATUSES,
    JobAlreadyFinishedError,
    JobCancelledError,
    JobClaimLostError,
    JobNotFoundError,
    JobStatus,
    JobStore,
)
from core.app.storage.database import make_app_store


def test_the_status_sets_are_the_seeds():
    assert {s.value for s in JobStatus} == {"queued", "running", "done", "failed", "cancelled"}
    assert {JobStatus.DONE, JobStatus.FAILED, JobStatus.CANCELLED} == TERMINAL_JOB_STATUSES
    assert {JobStatus.QUEUED, JobStatus.RUNNING} == CANCELLABLE_JOB_STATUSES
    assert JobStatus.RUNNING == "running"


def test_the_error_classes_are_plain_python_errors():
    assert issubclass(JobNotFoundError, LookupError)
    assert issubclass(JobAlreadyFinishedError, RuntimeError)
    assert issubclass(JobCancelledError, JobAlreadyFinishedError)


async def test_enqueue_writes_a_queued_row_with_its_inputs(store: JobStore):
    job = await store.enqueue("extract", params={"filename": "a.pdf"}, payload=b"%PDF", title="a.pdf")
    row = await store.get(job.id)
    assert row.status == JobStatus.QUEUED
    assert row.kind == "extract"
    assert row.params == {"filename": "a.pdf"}
    assert row.attempts == 0 and row.max_attempts == 3
    assert row.progress == 0.0 and row.stage == ""
    assert row.started_at is None and row.finished_at is None
    assert (await store.get(job.id)).payload == b"%PDF"


async def test_datetimes_come_back_timezone_aware_in_utc(store: JobStore):
    job = await store.enqueue("extract")
    await store.claim(job.id)
    await store.succeed(job.id)
    row = await store.get(job.id)
    for value in (row.created_at, row.updated_at, row.started_at, row.finished_at):
        assert value is not None and value.tzinfo is not None
        assert value.utcoffset() == UTC.utcoffset(None)
    assert row.created_at <= row.started_at <= row.finished_at


async def test_get_of_an_unknown_id_raises_job_not_found(store: JobStore):
    with pytest.raises(JobNotFoundError):
        await store.get(uuid.uuid4())


async def test_claim_moves_queued_to_running_and_returns_the_payload(store: JobStore):
    job = await store.enqueue("extract", payload=b"data")
    claimed = await store.claim(job.id, worker_id="w1")
    assert claimed is not None
    assert claimed.status == JobStatus.RUNNING
    assert claimed.attempts == 1
    assert claimed.payload == b"data"
    assert claimed.started_at is not None and claimed.heartbeat_at is not None
    assert claimed.worker_id == "w1"


async def test_claim_returns_none_when_the_job_is_not_yours(store: JobStore):
    assert await store.claim(uuid.uuid4()) is None
    running = await store.enqueue("extract")
    await store.claim(running.id)
    assert await store.claim(running.id) is None
    done = await store.enqueue("extract")
    await store.claim(done.id)
    await store.succeed(done.id)
    assert await store.claim(done.id) is None
    cancelled = await store.enqueue("extract")
    await store.cancel(cancelled.id)
    assert await store.claim(cancelled.id) is None


async def test_succeed_closes_the_job_drops_the_payload_and_fills_the_bar(store: JobStore):
    job = await store.enqueue("extract", payload=b"big document")
    await store.claim(job.id)
    result = uuid.uuid4()
    done = await store.succeed(job.id, result_id=result)
    assert done.status == JobStatus.DONE
    assert done.progress == 1.0
    assert done.result_id == result
    assert done.finished_at is not None
    assert (await store.get(job.id)).payload is None


async def test_succeed_without_row_makes_the_same_write_as_succeed(store: JobStore):
    job = await store.enqueue("extract", payload=b"big document")
    claimed = await store.claim(job.id)
    result = uuid.uuid4()
    assert await store.succeed_without_row(job.id, result_id=result, attempt=claimed.attempts) is None
    done = await store.get(job.id)
    assert (done.status, done.progress, done.result_id, done.payload) == (JobStatus.DONE, 1.0, result, None)
    assert done.finished_at is not None and done.heartbeat_at is None
    unclaimed = await store.enqueue("extract")
    await store.succeed_without_row(unclaimed.id)  # no claim token: any open job
    assert (await store.get(unclaimed.id)).status == JobStatus.DONE


async def test_succeed_without_row_raises_what_succeed_raises(store: JobStore):
    with pytest.raises(JobNotFoundError):
        await store.succeed_without_row(uuid.uuid4())
    job = await store.enqueue("extract")
    claimed = await store.claim(job.id)
    with pytest.raises(JobClaimLostError):
        await store.succeed_without_row(job.id, attempt=claimed.attempts + 1)
    await store.cancel(job.id)
    with pytest.raises(JobCancelledError):
        await store.succeed_without_row(job.id, attempt=claimed.attempts)


async def test_fail_keeps_the_bar_where_it_stopped_and_records_the_reason(store: JobStore):
    job = await store.enqueue("extract", payload=b"x")
    await store.claim(job.id)
    await store.report_progress(job.id, 0.4, stage="read")
    failed = await store.fail(job.id, "O arquivo está corrompido.")
    assert failed.status == JobStatus.FAILED
    assert failed.progress == pytest.approx(0.4)
    assert failed.error == "O arquivo está corrompido."
    assert failed.finished_at is not None
    assert (await store.get(job.id)).payload is None


async def test_closing_twice_raises_already_finished(store: JobStore):
    job = await store.enqueue("extract")
    await store.claim(job.id)
    await store.succeed(job.id)
    with pytest.raises(JobAlreadyFinishedError) as caught:
        await store.succeed(job.id)
    assert not isinstance(caught.value, JobCancelledError)
    with pytest.raises(JobAlreadyFinishedError):
        await store.fail(job.id, "late")


async def test_closing_an_unknown_job_raises_not_found(store: JobStore):
    with pytest.raises(JobNotFoundError):
        await store.succeed(uuid.uuid4())
    with pytest.raises(JobNotFoundError):
        await store.fail(uuid.uuid4(), "x")


async def test_succeed_over_a_cancel_raises_job_cancelled_distinguishable_from_its_parent(store: JobStore):
    job = await store.enqueue("extract")
    await store.claim(job.id)
    await store.cancel(job.id, reason="cancelado pelo usuário")
    with pytest.raises(JobCancelledError):
        await store.succeed(job.id)
    with pytest.raises(JobCancelledError):
        await store.fail(job.id, "boom")
    try:
        await store.succeed(job.id)
    except JobCancelledError:
        outcome = "cancelled"
    except JobAlreadyFinishedError:  # pragma: no cover - would mean the subclass is not raised
        outcome = "finished"
    assert outcome == "cancelled"
    assert (await store.get(job.id)).status == JobStatus.CANCELLED


@pytest.mark.parametrize("case", ["unknown", "done", "failed", "cancelled", "cancelled_twice_from_running"])
async def test_cancel_is_idempotent_and_never_raises(store: JobStore, case: str):
    if case == "unknown":
        assert await store.cancel(uuid.uuid4()) is None
        return
    job = await store.enqueue("extract")
    await store.claim(job.id)
    if case == "done":
        await store.succeed(job.id)
    elif case == "failed":
        await store.fail(job.id, "bad")
    elif case == "cancelled":
        await store.cancel(job.id)
    elif case == "cancelled_twice_from_running":
        first = await store.cancel(job.id, reason="clicked")
        assert first is not None and first.status == JobStatus.CANCELLED
    before = await store.get(job.id)
    assert await store.cancel(job.id) is None
    after = await store.get(job.id)
    assert (after.status, after.finished_at, after.message) == (
        before.status,
        before.finished_at,
        before.message,
    )


async def test_cancel_of_a_queued_job_drops_its_payload_and_is_not_an_error(store: JobStore):
    job = await store.enqueue("extract", payload=b"x")
    cancelled = await store.cancel(job.id, reason="cancelado pelo usuário")
    assert cancelled is not None
    assert cancelled.status == JobStatus.CANCELLED
    assert cancelled.error is None
    assert cancelled.message == "cancelado pelo usuário"
    assert (await store.get(job.id)).payload is None


async def test_is_cancelled_reads_fresh_and_counts_a_missing_row_as_cancelled(store: JobStore):
    job = await store.enqueue("extract")
    assert not await store.is_cancelled(job.id)
    await store.cancel(job.id)
    assert await store.is_cancelled(job.id)
    assert await store.is_cancelled(uuid.uuid4())
    watch = store.cancellation_watch(job.id)
    assert await watch()


async def test_list_recent_is_newest_first_filters_and_returns_empty_when_nothing_matches(store: JobStore):
    assert await store.list_recent() == []
    a = await store.enqueue("extract")
    b = await store.enqueue("generate")
    c = await store.enqueue("extract")
    await store.claim(c.id)
    assert [j.id for j in await store.list_recent()] == [c.id, b.id, a.id]
    assert [j.id for j in await store.list_recent(kind="extract")] == [c.id, a.id]
    assert [j.id for j in await store.list_recent(status=JobStatus.RUNNING)] == [c.id]
    both = await store.list_recent(statuses=(JobStatus.QUEUED, JobStatus.RUNNING))
    assert {j.id for j in both} == {a.id, b.id, c.id}
    assert await store.list_recent(status="failed") == []
    assert len(await store.list_recent(limit=2)) == 2


async def test_list_recent_refuses_both_status_filters_and_a_non_positive_limit(store: JobStore):
    with pytest.raises(ValueError):
        await store.list_recent(status=JobStatus.QUEUED, statuses=(JobStatus.RUNNING,))
    with pytest.raises(ValueError):
        await store.list_recent(limit=0)
    with pytest.raises(ValueError):
        await store.list_recent(limit=-3)


async def test_listing_never_loads_the_payload_and_getting_loads_it(store: JobStore):
    job = await store.enqueue("extract", payload=b"x" * 10_000)
    listed = (await store.list_recent())[0]
    assert "payload" not in listed.__dict__
    assert (await store.get(job.id)).__dict__["payload"] == b"x" * 10_000


async def test_search_matches_the_title_case_insensitively_and_literally(store: JobStore):
    await store.enqueue("extract", title="Apostila de Biologia.pdf")
    await store.enqueue("extract", title="100%_real.docx")
    await store.enqueue("extract", title="Notas.txt")
    assert [j.title for j in await store.list_recent(search="biologia")] == ["Apostila de Biologia.pdf"]
    assert [j.title for j in await store.list_recent(search="0%_")] == ["100%_real.docx"]
    assert await store.count(search="%") == 1


async def test_paging_through_1000_jobs_returns_each_once(store: JobStore):
    ids = set()
    for i in range(1000):
        ids.add((await store.enqueue("extract", title=f"doc {i}")).id)
    seen_keyset: list[uuid.UUID] = []
    cursor = None
    while True:
        page = await store.list_recent(limit=77, before=cursor)
        if not page:
            break
        seen_keyset += [j.id for j in page]
        cursor = store.cursor_of(page[-1])
    assert len(seen_keyset) == 1000 and set(seen_keyset) == ids
    seen_offset: list[uuid.UUID] = []
    for offset in range(0, 1000, 150):
        seen_offset += [j.id for j in await store.list_recent(limit=150, offset=offset)]
    assert len(seen_offset) == 1000 and set(seen_offset) == ids
    assert await store.count() == 1000


async def test_keyset_paging_orders_jobs_created_in_the_same_instant_by_id(store: JobStore):
    jobs = [await store.enqueue("extract", title=f"doc {i}") for i in range(7)]
    async with store.db.engine.begin() as conn:  # one instant for all: only the id breaks the tie
        await conn.execute(update(store.model).values(created_at=jobs[0].created_at))
    seen: list[uuid.UUID] = []
    cursor = None
    while page := await store.list_recent(limit=2, before=cursor):
        seen += [j.id for j in page]
        cursor = store.cursor_of(page[-1])
    assert seen == sorted((j.id for j in jobs), key=lambda i: i.hex, reverse=True)


async def test_a_keyset_page_is_read_as_an_index_range_from_the_cursor(store: JobStore, backend: str):
    if backend != "sqlite":
        pytest.skip("SQLite's planner: with bound values it turned the OR form into a walk from the newest row")
    for i in range(30):
        await store.enqueue("extract", title=f"doc {i}")
    middle = (await store.list_recent(limit=1, offset=15))[0]
    ran: list[tuple[str, object]] = []
    engine = store.db.engine.sync_engine
    listener = lambda *args: ran.append((args[2], args[3]))  # noqa: E731
    event.listen(engine, "before_cursor_execute", listener)
    try:
        await store.list_recent(limit=5, before=store.cursor_of(middle))
    finally:
        event.remove(engine, "before_cursor_execute", listener)
    ((sql, parameters),) = [(q, p) for q, p in ran if q.startswith("SELECT")]
    async with store.db.engine.connect() as conn:
        plan = [row[-1] for row in await conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql, parameters)]
    assert any(step.startswith("SEARCH") and "created_at<?" in step for step in plan), plan


async def test_delete_removes_only_finished_jobs(store: JobStore):
    open_job = await store.enqueue("extract")
    done = await store.enqueue("extract")
    await store.claim(done.id)
    await store.succeed(done.id)
    assert not await store.delete(open_job.id)
    assert await store.delete(done.id)
    assert not await store.delete(done.id)
    with pytest.raises(JobNotFoundError):
        await store.get(done.id)


async def test_enqueue_with_a_chosen_id_is_idempotent(store: JobStore):
    chosen = uuid.uuid4()
    first = await store.enqueue("generate", job_id=chosen, params={"n": 1})
    again = await store.enqueue("generate", job_id=chosen, params={"n": 2})
    assert first.id == again.id == chosen
    assert again.params == {"n": 1}
    assert await store.count() == 1


async def test_enqueue_fills_a_column_the_application_adds_and_refuses_one_it_does_not(db):
    app_store = make_app_store(db)
    parent = await app_store.enqueue("ingest")
    child = await app_store.enqueue("generate", columns={"parent_id": parent.id})
    assert child.parent_id == parent.id
    assert (await app_store.get(child.id)).parent_id == parent.id
    with pytest.raises(ValueError, match="no column the model adds"):
        await app_store.enqueue("generate", columns={"status": "done"})

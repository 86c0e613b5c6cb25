"""Rows as the store hands them out: ``get`` and ``claim`` whole, every other row without its payload."""

from __future__ import annotations

import pytest
from sqlalchemy import event

from core import JobStatus, JobStore, PayloadNotLoadedError
from tests.jobtesting import SampleJob


def statements_of(store: JobStore) -> list[str]:
    seen: list[str] = []
    event.listen(store.db.engine.sync_engine, "before_cursor_execute", lambda *a: seen.append(a[2]))
    return seen


async def test_get_returns_the_whole_row_its_payload_included(store: JobStore):
    job = await store.enqueue("extract", payload=b"%PDF-1.7", title="a.pdf")
    row = await store.get(job.id)
    assert (row.title, row.status, row.payload) == ("a.pdf", JobStatus.QUEUED, b"%PDF-1.7")
    await store.claim(job.id)
    await store.succeed(job.id)
    assert (await store.get(job.id)).payload is None, "a closed job's payload is dropped"


async def test_rows_from_list_recent_never_load_the_payload_and_reading_it_says_so(store: JobStore):
    job = await store.enqueue("extract", payload=b"big", title="a.pdf")
    statements = statements_of(store)
    [row] = await store.list_recent()
    selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    assert selects and all("payload" not in s for s in selects), selects
    assert row.id == job.id and row.title == "a.pdf"
    with pytest.raises(PayloadNotLoadedError, match=r"was not loaded.*list_recent.*JobStore\.get"):
        _ = row.payload
    assert (await store.get(job.id)).payload == b"big"


async def test_rows_from_watch_never_load_the_payload_and_reading_it_says_so(store: JobStore):
    job = await store.enqueue("extract", payload=b"big")
    statements = statements_of(store)
    watched = store.watch(job.id, interval=0.01)
    first = await anext(watched)
    await store.claim(job.id)
    await store.cancel(job.id)
    rows = [first] + [row async for row in watched]
    assert [r.status for r in rows] == [JobStatus.QUEUED, JobStatus.CANCELLED]
    selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    assert selects and all("payload" not in s for s in selects), selects
    for row in rows:
        with pytest.raises(PayloadNotLoadedError, match=r"JobStore\.get"):
            _ = row.payload


async def test_due_jobs_and_the_rows_of_state_changes_say_their_payload_was_not_loaded(store: JobStore):
    job = await store.enqueue("extract", payload=b"kept")
    [due] = await store.due_jobs()
    claimed = await store.claim(job.id)
    assert claimed is not None and claimed.payload == b"kept", "a claim carries the payload"
    requeued = await store.fail(job.id, "busy", transient=True, attempt=1)
    assert requeued.status == JobStatus.QUEUED
    for row in (due, requeued):
        with pytest.raises(PayloadNotLoadedError):
            _ = row.payload
    assert (await store.get(job.id)).payload == b"kept", "a transient failure keeps the payload"


async def test_the_rows_of_succeed_fail_and_cancel_read_their_dropped_payload_as_none(store: JobStore):
    rows = []
    for close in ("succeed", "fail", "cancel"):
        job = await store.enqueue("extract", payload=b"dropped")
        claimed = await store.claim(job.id)
        assert claimed is not None
        if close == "succeed":
            rows.append(await store.succeed(job.id, attempt=claimed.attempts))
        elif close == "fail":
            rows.append(await store.fail(job.id, "corrupt", attempt=claimed.attempts))
        else:
            rows.append(await store.cancel(job.id))
    assert [row.status for row in rows] == [JobStatus.DONE, JobStatus.FAILED, JobStatus.CANCELLED]
    assert [row.payload for row in rows] == [None, None, None]
    assert [(await store.get(row.id)).payload for row in rows] == [None, None, None], "as the table holds them"


async def test_enqueue_returns_the_row_with_the_payload_it_was_given(store: JobStore):
    job = await store.enqueue("extract", payload=b"x")
    assert isinstance(job, SampleJob) and job.payload == b"x"

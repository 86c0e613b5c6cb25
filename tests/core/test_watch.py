"""``watch``: yields at once, on every watched change, always the terminal row, and never blocks a writer."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from sqlalchemy import event, text

from core import AsyncDatabaseManager, JobNotFoundError, JobStatus, JobStore
from core.watch import watchers
from tests.jobtesting import FamilyJob, SampleJob
from tests.waiting import async_wait_until


async def collect(store: JobStore, job_id: uuid.UUID, **kwargs) -> list:
    return [job async for job in store.watch(job_id, **kwargs)]


async def test_an_already_finished_job_watched_yields_exactly_once(store: JobStore):
    job = await store.enqueue("extract")
    await store.claim(job.id)
    await store.succeed(job.id)
    seen = await collect(store, job.id, interval=0.01)
    assert [j.status for j in seen] == [JobStatus.DONE]


async def test_watch_yields_the_current_row_then_each_status_change_until_terminal(store: JobStore):
    job = await store.enqueue("extract")
    seen: list[str] = []

    async def follow() -> None:
        async for row in store.watch(job.id, interval=0.01):
            seen.append(row.status)

    follower = asyncio.create_task(follow())
    await async_wait_until(lambda: seen == ["queued"], what="the first row", timeout=10.0, interval=0.01)
    await store.claim(job.id)
    await async_wait_until(lambda: seen == ["queued", "running"], what="running", timeout=10.0, interval=0.01)
    await store.report_progress(job.id, 0.5, stage="read")  # not watched: no row
    await store.succeed(job.id)
    await asyncio.wait_for(follower, 10)
    assert seen == ["queued", "running", "done"]


async def test_watch_with_progress_in_emit_on_yields_each_progress_and_stage(store: JobStore):
    job = await store.enqueue("extract")
    await store.claim(job.id)
    frames: list[tuple[str, float]] = []

    async def follow() -> None:
        async for row in store.watch(job.id, interval=0.01, emit_on=("status", "progress", "stage")):
            frames.append((row.stage, row.progress))

    follower = asyncio.create_task(follow())
    await async_wait_until(lambda: len(frames) == 1, timeout=10.0, interval=0.01, what="the first frame")
    for value, stage in ((0.2, "read"), (0.6, "clean"), (0.9, "save")):
        await store.report_progress(job.id, value, stage=stage)
        await async_wait_until(
            lambda value=value: frames[-1][1] == pytest.approx(value), what=f"{value}", timeout=10.0, interval=0.01
        )
    await store.succeed(job.id)
    await asyncio.wait_for(follower, 10)
    assert frames == [("", 0.0), ("read", 0.2), ("clean", 0.6), ("save", 0.9), ("save", 1.0)]


async def test_watch_on_progress_only_still_yields_the_cancelled_row(store: JobStore):
    job = await store.enqueue("extract")
    await store.claim(job.id)
    await store.report_progress(job.id, 0.3)
    follower = asyncio.create_task(collect(store, job.id, interval=0.01, emit_on=("progress",)))
    await asyncio.sleep(0.05)
    await store.cancel(job.id, reason="user")
    seen = await asyncio.wait_for(follower, 10)
    assert seen[-1].status == JobStatus.CANCELLED
    assert [j.status for j in seen].count(JobStatus.CANCELLED) == 1


async def test_watch_gives_up_with_timeout_error(store: JobStore):
    job = await store.enqueue("extract")
    with pytest.raises(TimeoutError):
        await collect(store, job.id, interval=0.01, timeout=0.1)


async def test_watching_an_unknown_job_raises_not_found(store: JobStore):
    with pytest.raises(JobNotFoundError):
        await collect(store, uuid.uuid4(), interval=0.01)


async def test_watch_refuses_an_unknown_emit_on_attribute(store: JobStore):
    job = await store.enqueue("extract")
    with pytest.raises(ValueError):
        await collect(store, job.id, emit_on=("colour",))


async def test_watch_never_loads_the_payload(store: JobStore):
    job = await store.enqueue("extract", payload=b"x" * 1000)
    await store.cancel(job.id)
    (row,) = await collect(store, job.id)
    assert "payload" not in row.__dict__


async def test_a_watcher_on_one_connection_never_blocks_a_writer_on_another(database_url: str):
    watcher_db = AsyncDatabaseManager(database_url)
    writer_db = AsyncDatabaseManager(database_url, busy_timeout_ms=200)
    await watcher_db.create_tables()
    try:
        watcher = JobStore(watcher_db, model=SampleJob)
        writer = JobStore(writer_db, model=SampleJob)
        job = await writer.enqueue("extract")
        await writer.claim(job.id)
        seen: list[float] = []

        async def follow() -> None:
            async for row in watcher.watch(job.id, interval=0.005, emit_on=("progress",)):
                seen.append(row.progress)

        follower = asyncio.create_task(follow())
        await async_wait_until(lambda: seen, what="the first row", timeout=10.0, interval=0.01)
        for i in range(1, 41):
            assert await writer.report_progress(job.id, i / 50)
            await asyncio.sleep(0.007)  # let the watcher tick between writes
            await exclusive_action(writer_db)
        await writer.succeed(job.id)
        await asyncio.wait_for(follower, 10)
        assert seen[-1] == 1.0
    finally:
        await watcher_db.dispose()
        await writer_db.dispose()


async def exclusive_action(db: AsyncDatabaseManager) -> None:
    """Something that fails fast if another connection holds a transaction open on the table."""
    async with db.engine.connect() as conn:
        if db.is_sqlite:
            busy, _, _ = (await conn.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))).one()
            assert busy == 0, "a reader kept a transaction open between ticks"
        else:
            await conn.execute(text("SET lock_timeout = '200ms'"))
            await conn.execute(text(f"LOCK TABLE {SampleJob.__tablename__} IN ACCESS EXCLUSIVE MODE"))
            await conn.rollback()


async def test_many_watchers_share_one_query_per_tick(store: JobStore):
    jobs = [await store.enqueue("generate") for _ in range(20)]
    for job in jobs:
        await store.claim(job.id)
    followers = [asyncio.create_task(collect(store, j.id, interval=0.02, emit_on=("progress",))) for j in jobs]
    await async_wait_until(
        lambda: watchers(store.db, store.model) == 20,
        what="every watcher subscribed",
        timeout=10.0,
        interval=0.01,
    )
    statements: list[str] = []
    event.listen(store.db.engine.sync_engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    await store.report_progress(jobs[3].id, 0.5)
    await asyncio.sleep(0.2)  # ~10 ticks
    row_reads = [s for s in statements if s.startswith("SELECT") and " IN " not in s]
    batched = [s for s in statements if " IN " in s]
    assert len(row_reads) == 1, "a watcher whose job did not change read its row"
    assert 1 <= len(batched) <= 12
    for job in jobs:
        await store.cancel(job.id)
    results = await asyncio.wait_for(asyncio.gather(*followers), 10)
    assert all(r[-1].status == "cancelled" for r in results)
    assert len(results[3]) == 3 and all(len(r) == 2 for i, r in enumerate(results) if i != 3)


async def test_an_unchanged_sqlite_database_costs_the_watcher_no_query(tmp_path):
    db = AsyncDatabaseManager(f"sqlite+aiosqlite:///{tmp_path / 'w.db'}")
    await db.create_tables()
    try:
        store = JobStore(db, model=SampleJob)
        job = await store.enqueue("extract")
        await store.claim(job.id)
        statements: list[str] = []
        event.listen(db.engine.sync_engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
        follower = asyncio.create_task(collect(store, job.id, interval=0.01, emit_on=("progress",)))
        await async_wait_until(
            lambda: len(statements) >= 2, what="the first read and the hub's first look", timeout=10.0, interval=0.01
        )
        await asyncio.sleep(0.05)
        first_reads = len(statements)
        await asyncio.sleep(0.3)  # ~30 ticks with nothing committed
        assert len(statements) == first_reads
        await store.report_progress(job.id, 0.5)
        await async_wait_until(
            lambda: len(statements) > first_reads + 1, what="a read after a commit", timeout=10.0, interval=0.01
        )
        follower.cancel()
        with pytest.raises(asyncio.CancelledError):
            await follower
    finally:
        await db.dispose()


async def next_change(changes, timeout: float = 10.0):
    return await asyncio.wait_for(anext(changes), timeout)


async def test_watching_jobs_with_their_children_names_the_parent_whose_family_changed(db: AsyncDatabaseManager):
    store = JobStore(db, model=FamilyJob)
    first, second = await store.enqueue("ingest"), await store.enqueue("ingest")
    changes = store.watch_jobs([first.id, second.id], children="parent_id", interval=0.01)
    try:
        assert await next_change(changes) == {first.id, second.id}, "every id at once"
        child = await store.enqueue("generate", columns={"parent_id": second.id})
        assert await next_change(changes) == {second.id}, "a new child"
        await store.claim(child.id)
        assert await next_change(changes) == {second.id}, "a child's change"
        await store.claim(first.id)
        assert await next_change(changes) == {first.id}, "the job's own change"
        await store.cancel(child.id)
        await store.delete(child.id)
        assert second.id in await next_change(changes)
    finally:
        await changes.aclose()
    assert watchers(store.db, store.model) == 0


async def test_a_job_watched_without_its_children_ignores_them(db: AsyncDatabaseManager):
    store = JobStore(db, model=FamilyJob)
    parent, other = await store.enqueue("ingest"), await store.enqueue("ingest")
    seen: list[frozenset] = []

    async def follow() -> None:
        async for changed in store.watch_jobs([parent.id], interval=0.01):
            seen.append(changed)

    follower = asyncio.create_task(follow())
    await async_wait_until(lambda: seen == [{parent.id}], what="the first yield", timeout=10.0, interval=0.01)
    await store.enqueue("generate", columns={"parent_id": parent.id})
    await store.claim(other.id)
    await asyncio.sleep(0.3)  # ~30 ticks
    assert seen == [{parent.id}]
    await store.claim(parent.id)
    await async_wait_until(
        lambda: seen == [{parent.id}, {parent.id}], what="the job's own change", timeout=10.0, interval=0.01
    )
    follower.cancel()
    with pytest.raises(asyncio.CancelledError):
        await follower
    assert watchers(store.db, store.model) == 0


async def test_watching_jobs_refuses_a_parent_column_the_table_does_not_have(store: JobStore):
    job = await store.enqueue("extract")
    with pytest.raises(ValueError):
        await anext(store.watch_jobs([job.id], children="parent_id"))


async def test_watching_the_table_yields_at_once_then_for_a_new_job(store: JobStore):
    changes = store.watch_table(interval=0.01, blind_interval=0.05)
    try:
        await next_change(changes)
        await store.enqueue("extract")
        await next_change(changes)
    finally:
        await changes.aclose()


async def test_an_unchanged_sqlite_table_wakes_no_one_and_costs_no_query(tmp_path):
    db = AsyncDatabaseManager(f"sqlite+aiosqlite:///{tmp_path / 'w.db'}")
    await db.create_tables()
    try:
        store = JobStore(db, model=FamilyJob)
        job = await store.enqueue("ingest")
        woken: list[str] = []

        async def follow(name: str, changes) -> None:
            async for _ in changes:
                woken.append(name)

        followers = [
            asyncio.create_task(follow("table", store.watch_table(interval=0.01, blind_interval=0.01))),
            asyncio.create_task(follow("jobs", store.watch_jobs([job.id], children="parent_id", interval=0.01))),
        ]
        await async_wait_until(
            lambda: sorted(woken) == ["jobs", "table"], what="the first yields", timeout=10.0, interval=0.01
        )
        await asyncio.sleep(0.1)  # the hub's first look after the subscriptions
        statements: list[str] = []
        event.listen(db.engine.sync_engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
        await asyncio.sleep(0.3)  # ~30 ticks with nothing committed
        assert (statements, sorted(woken)) == ([], ["jobs", "table"])
        await store.enqueue("ingest")  # another job: the table changed, the watched job did not
        await async_wait_until(
            lambda: woken.count("table") == 2, what="the table's change", timeout=10.0, interval=0.01
        )
        await asyncio.sleep(0.1)
        assert woken.count("jobs") == 1
        for follower in followers:
            follower.cancel()
        await asyncio.gather(*followers, return_exceptions=True)
    finally:
        await db.dispose()

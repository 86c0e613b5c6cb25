"""Random sequences of the whole lifecycle on several jobs, checked against the store's invariants.

- a terminal job never changes except by ``retry``;
- progress never decreases within an attempt;
- attempts never exceed ``max_attempts`` (only a manual retry starts a new budget);
- the payload is empty on every terminal row.
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select, update

from core import (
    TERMINAL_JOB_STATUSES,
    AsyncDatabaseManager,
    JobAlreadyFinishedError,
    JobStatus,
    JobStore,
)
from core.types import utcnow
from tests.jobtesting import SampleJob, temporary_database

JOBS = 2
OPS = st.sampled_from(
    [
        "claim",
        "claim",
        "progress",
        "progress",
        "progress",
        "zombie_progress",
        "cancel",
        "fail",
        "fail_transient",
        "succeed",
        "zombie_succeed",
        "retry",
        "reclaim",
        "make_due",
    ]
)
STEP = st.tuples(OPS, st.integers(0, JOBS - 1), st.floats(0.0, 1.0, allow_nan=False))
TERMINAL = {s.value for s in TERMINAL_JOB_STATUSES}


def frozen(row) -> tuple:
    return (row.status, row.progress, row.stage, row.error, row.result_id, row.attempts, row.finished_at)


class Scenario:
    """One example: fresh jobs on a shared database, the operations, and the invariant checks after each."""

    def __init__(self, store: JobStore) -> None:
        self.store = store
        self.db: AsyncDatabaseManager = store.db
        self.ids: list[uuid.UUID] = []
        self.tokens: dict[uuid.UUID, int] = {}
        self.old_tokens: dict[uuid.UUID, int] = {}
        self.seen: dict[uuid.UUID, tuple] = {}

    async def start(self) -> None:
        for i in range(JOBS):
            job = await self.store.enqueue("ingest", payload=b"p%d" % i, max_attempts=1 + i)
            self.ids.append(job.id)

    async def apply(self, op: str, index: int, value: float) -> None:
        store, job_id = self.store, self.ids[index]
        token = self.tokens.get(job_id)
        try:
            if op == "claim":
                claimed = await store.claim(job_id)
                if claimed is not None:
                    if token is not None:
                        self.old_tokens[job_id] = token
                    self.tokens[job_id] = claimed.attempts
            elif op == "progress" and token is not None:
                await store.report_progress(job_id, value, stage=f"s{int(value * 3)}", attempt=token)
            elif op == "zombie_progress" and job_id in self.old_tokens:
                await store.report_progress(job_id, value, attempt=self.old_tokens[job_id])
            elif op == "cancel":
                await store.cancel(job_id)
            elif op in ("fail", "fail_transient") and token is not None:
                await store.fail(job_id, "erro", transient=op == "fail_transient", attempt=token)
            elif op == "succeed" and token is not None:
                await store.succeed(job_id, attempt=token)
            elif op == "zombie_succeed" and job_id in self.old_tokens:
                await store.succeed(job_id, attempt=self.old_tokens[job_id])
            elif op == "retry":
                if await store.retry(job_id) is not None:
                    self.seen.pop(job_id, None)
                    return
            elif op == "reclaim":
                async with self.db.get_session_context() as session:
                    await session.execute(
                        update(SampleJob)
                        .where(SampleJob.id == job_id)
                        .values(heartbeat_at=utcnow() - timedelta(hours=1))
                    )
                await store.reclaim_stale()
            elif op == "make_due":
                async with self.db.get_session_context() as session:
                    await session.execute(
                        update(SampleJob)
                        .where(SampleJob.id == job_id, SampleJob.run_after.is_not(None))
                        .values(run_after=utcnow() - timedelta(seconds=1))
                    )
        except JobAlreadyFinishedError:
            pass
        await self.check(op, job_id)

    async def check(self, op: str, touched: uuid.UUID) -> None:
        async with self.db.get_session_context() as session:
            rows = (
                await session.execute(
                    select(
                        SampleJob.id,
                        SampleJob.status,
                        SampleJob.progress,
                        SampleJob.stage,
                        SampleJob.error,
                        SampleJob.result_id,
                        SampleJob.attempts,
                        SampleJob.finished_at,
                        SampleJob.max_attempts,
                        SampleJob.payload,
                    ).where(SampleJob.id.in_(self.ids))
                )
            ).all()
        for row in rows:
            before = self.seen.get(row.id)
            if before is not None and before[0] in TERMINAL:
                assert frozen(row) == before, f"terminal job changed by {op}: {before} -> {frozen(row)}"
            if (
                before is not None
                and before[0] == JobStatus.RUNNING
                and row.status == JobStatus.RUNNING
                and before[5] == row.attempts
            ):
                assert row.progress >= before[1], f"progress went back within attempt {row.attempts} by {op}"
            assert row.attempts <= row.max_attempts, f"attempts {row.attempts} > {row.max_attempts}"
            if row.status in TERMINAL:
                assert row.payload is None, f"payload kept on a {row.status} row"
            self.seen[row.id] = frozen(row)


@settings(max_examples=75, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(STEP, min_size=10, max_size=40))
def test_random_lifecycles_keep_the_invariants(backend: str, tmp_path: Path, steps) -> None:
    asyncio.run(_run(backend, tmp_path, steps))


async def _run(backend: str, tmp_path: Path, steps) -> None:
    async with temporary_database(backend, tmp_path) as url:
        db = AsyncDatabaseManager(url)
        try:
            await db.create_tables()
            scenario = Scenario(JobStore(db, model=SampleJob, stale_after=60, backoff=(60,)))
            await scenario.start()
            for op, index, value in steps:
                await scenario.apply(op, index, value)
        finally:
            await db.dispose()

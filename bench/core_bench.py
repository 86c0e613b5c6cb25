"""Benchmarks of the job library, on SQLite and PostgreSQL side by side. Prints its figures.

    .venv/bin/python bench/core_bench.py            # the full run (figures in docs/performance.md)
    .venv/bin/python bench/core_bench.py --quick    # small sizes, to check that it still runs

Measures:
1. ``list_recent`` of 200 rows over 100,000 rows of history: p50/p95 (first page, a filtered page, a deep page).
2. 100 concurrent ``watch`` generators on unchanged running jobs at ``interval=0.25``: CPU of the watching process.
3. Job lifecycle throughput (enqueue, claim, 3 progress writes, succeed), 1 and 4 worker processes: jobs/s.
4. Claim race: 2 processes claiming the same 2,000 jobs: claims/s, and a check that each job was claimed once.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import insert

from core import OPEN_JOB_STATUSES, AsyncDatabaseManager, BaseJobModel, JobStatus, JobStore
from core.types import utcnow

PG_ADMIN = os.environ.get("STUDYJOBS_BENCH_PG_DSN", "postgresql://postgres@127.0.0.1:5432/test")


class BenchJob(BaseJobModel):
    __tablename__ = "bench_jobs"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Backend:
    """A fresh database per benchmark: a temporary SQLite file or a temporary PostgreSQL database."""

    def __init__(self, name: str, folder: Path) -> None:
        self.name = name
        self.folder = folder
        self.pg_name: str | None = None

    async def create(self) -> str:
        if self.name == "sqlite":
            return f"sqlite+aiosqlite:///{self.folder / f'bench-{uuid.uuid4().hex[:8]}.db'}"
        self.pg_name = f"sj_bench_{uuid.uuid4().hex[:8]}"
        conn = await asyncpg.connect(PG_ADMIN)
        await conn.execute(f'CREATE DATABASE "{self.pg_name}" TEMPLATE template0')
        await conn.close()
        return PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://") + f"/{self.pg_name}"

    async def drop(self) -> None:
        if self.pg_name:
            conn = await asyncpg.connect(PG_ADMIN)
            await conn.execute(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)')
            await conn.close()
            self.pg_name = None


async def fresh(backend: Backend) -> tuple[str, AsyncDatabaseManager]:
    url = await backend.create()
    db = AsyncDatabaseManager(url)
    await db.create_tables()
    return url, db


# -- 1. list_recent over a long history ------------------------------------------------------------------


async def bench_list_recent(backend: Backend, history: int, samples: int) -> dict[str, tuple[float, float]]:
    _, db = await fresh(backend)
    try:
        store = JobStore(db, model=BenchJob)
        statuses = [JobStatus.DONE, JobStatus.DONE, JobStatus.DONE, JobStatus.FAILED, JobStatus.CANCELLED]
        base = utcnow().timestamp() - history
        from datetime import UTC, datetime

        batch: list[dict] = []
        async with db.engine.begin() as conn:
            for i in range(history):
                created = datetime.fromtimestamp(base + i, UTC)
                batch.append(
                    {
                        "id": uuid.uuid4(),
                        "kind": "ingest" if i % 2 else "generate",
                        "status": statuses[i % 5].value,
                        "title": f"document {i}.pdf",
                        "stage": "export",
                        "progress": 1.0,
                        "message": "",
                        "detail": {},
                        "phases": [],
                        "params": {"path": f"/docs/{i}.pdf"},
                        "error_transient": False,
                        "attempts": 1,
                        "max_attempts": 3,
                        "created_at": created,
                        "updated_at": created,
                    }
                )
                if len(batch) == 5000:
                    await conn.execute(insert(BenchJob), batch)
                    batch.clear()
            if batch:
                await conn.execute(insert(BenchJob), batch)
        for i in range(20):
            job = await store.enqueue("ingest", title=f"new {i}")
            if i % 2:
                await store.claim(job.id)
        if db.dialect_name == "postgresql":
            async with db.engine.begin() as conn:
                await conn.exec_driver_sql("ANALYZE bench_jobs")
        middle = (await store.list_recent(limit=1, offset=history // 2))[0]
        cases = {
            "first page": dict(limit=200),
            "active (queued+running)": dict(limit=200, statuses=OPEN_JOB_STATUSES),
            "failed only": dict(limit=200, status=JobStatus.FAILED),
            "deep page (keyset)": dict(limit=200, before=store.cursor_of(middle)),
        }
        out: dict[str, tuple[float, float]] = {}
        for label, kwargs in cases.items():
            await store.list_recent(**kwargs)  # warm
            times = []
            for _ in range(samples):
                t0 = time.perf_counter()
                await store.list_recent(**kwargs)
                times.append((time.perf_counter() - t0) * 1000)
            out[label] = (statistics.median(times), percentile(times, 0.95))
        return out
    finally:
        await db.dispose()
        await backend.drop()


# -- 2. CPU of 100 watchers -----------------------------------------------------------------------------


async def bench_watchers(backend: Backend, watchers: int, seconds: float) -> float:
    _, db = await fresh(backend)
    try:
        store = JobStore(db, model=BenchJob)
        ids = []
        for i in range(watchers):
            job = await store.enqueue("generate", title=f"w{i}")
            await store.claim(job.id)
            ids.append(job.id)

        async def follow(job_id: uuid.UUID) -> None:
            async for _ in store.watch(job_id, interval=0.25, emit_on=("status", "progress", "stage", "message")):
                pass

        tasks = [asyncio.create_task(follow(i)) for i in ids]
        await asyncio.sleep(1.0)  # every watcher has made its first read
        cpu0, wall0 = time.process_time(), time.perf_counter()
        await asyncio.sleep(seconds)
        cpu = (time.process_time() - cpu0) / (time.perf_counter() - wall0)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return cpu * 100
    finally:
        await db.dispose()
        await backend.drop()


# -- 3. lifecycle throughput -----------------------------------------------------------------------------


def _lifecycle_worker(url: str, jobs: int, start: mp.Event, results: mp.Queue) -> None:
    async def run() -> None:
        db = AsyncDatabaseManager(url)
        store = JobStore(db, model=BenchJob)
        await store.list_recent(limit=1)  # connect before the clock starts
        start.wait()
        t0 = time.perf_counter()
        for _ in range(jobs):
            job = await store.enqueue("ingest", params={"path": "x"})
            claimed = await store.claim(job.id)
            for p in (0.25, 0.5, 0.75):
                await store.report_progress(job.id, p, stage="read", attempt=claimed.attempts)
            await store.succeed(job.id, attempt=claimed.attempts)
        results.put(time.perf_counter() - t0)
        await db.dispose()

    asyncio.run(run())


async def bench_lifecycle(backend: Backend, workers: int, jobs_each: int) -> float:
    url, db = await fresh(backend)
    await db.dispose()
    try:
        ctx = mp.get_context("spawn")
        start, results = ctx.Event(), ctx.Queue()
        procs = [ctx.Process(target=_lifecycle_worker, args=(url, jobs_each, start, results)) for _ in range(workers)]
        for p in procs:
            p.start()
        await asyncio.sleep(2.0 if workers > 1 else 1.0)
        t0 = time.perf_counter()
        start.set()
        await asyncio.to_thread(lambda: [results.get(timeout=600) for _ in procs])
        elapsed = time.perf_counter() - t0
        for p in procs:
            p.join()
        return workers * jobs_each / elapsed
    finally:
        await backend.drop()


# -- 4. the claim race across processes -------------------------------------------------------------------


def _claimer(url: str, ids: list[str], start: mp.Event, results: mp.Queue) -> None:
    async def run() -> None:
        db = AsyncDatabaseManager(url)
        store = JobStore(db, model=BenchJob)
        await store.list_recent(limit=1)
        start.wait()
        won: list[str] = []
        t0 = time.perf_counter()
        for job_id in ids:
            if await store.claim(uuid.UUID(job_id)) is not None:
                won.append(job_id)
        results.put((time.perf_counter() - t0, won))
        await db.dispose()

    asyncio.run(run())


async def bench_claim_race(backend: Backend, jobs: int) -> tuple[float, bool, str]:
    url, db = await fresh(backend)
    try:
        store = JobStore(db, model=BenchJob)
        ids = [str((await store.enqueue("ingest")).id) for _ in range(jobs)]
        ctx = mp.get_context("spawn")
        start, results = ctx.Event(), ctx.Queue()
        procs = [ctx.Process(target=_claimer, args=(url, ids, start, results)) for _ in range(2)]
        for p in procs:
            p.start()
        await asyncio.sleep(2.0)
        start.set()
        outcomes = await asyncio.to_thread(lambda: [results.get(timeout=600) for _ in procs])
        for p in procs:
            p.join()
        won = [w for _, ws in outcomes for w in ws]
        rows = await store.list_recent(limit=jobs + 10)
        exactly_once = (
            len(won) == jobs and len(set(won)) == jobs and all(r.attempts == 1 and r.status == "running" for r in rows)
        )
        attempts = jobs * 2 / max(t for t, _ in outcomes)
        split = " / ".join(str(len(ws)) for _, ws in outcomes)
        return attempts, exactly_once, split
    finally:
        await db.dispose()
        await backend.drop()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes: checks that the benchmark runs")
    parser.add_argument("--backends", default="sqlite,postgresql")
    args = parser.parse_args()
    history, samples, watch_seconds, jobs_each, race_jobs = (
        (2_000, 10, 1.0, 20, 100) if args.quick else (100_000, 200, 10.0, 500, 2_000)
    )
    names = args.backends.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print(f"StudyJobs core benchmark — {os.cpu_count()} cores, Python {sys.version.split()[0]}")
        print(f"\n1. list_recent(limit=200) over {history:,} rows of history, {samples} samples (ms)")
        print(f"   {'case':<26}" + "".join(f"{n + ' p50':>16}{n + ' p95':>16}" for n in names))
        lists = {n: await bench_list_recent(Backend(n, folder), history, samples) for n in names}
        for label in lists[names[0]]:
            print(f"   {label:<26}" + "".join(f"{lists[n][label][0]:>16.2f}{lists[n][label][1]:>16.2f}" for n in names))
        print(f"\n2. 100 watchers at interval=0.25 on unchanged running jobs, {watch_seconds:g} s: CPU % of one core")
        for n in names:
            print(f"   {n:<12}{await bench_watchers(Backend(n, folder), 100, watch_seconds):>8.2f} %")
        print("\n3. Lifecycle throughput (enqueue, claim, 3 progress writes, succeed), jobs/s")
        print(f"   {'workers':<12}" + "".join(f"{n:>14}" for n in names))
        for workers in (1, 4):
            rates = [await bench_lifecycle(Backend(n, folder), workers, jobs_each) for n in names]
            print(f"   {workers:<12}" + "".join(f"{r:>14.1f}" for r in rates))
        print(f"\n4. Claim race: 2 processes claiming the same {race_jobs:,} jobs")
        for n in names:
            rate, ok, split = await bench_claim_race(Backend(n, folder), race_jobs)
            print(f"   {n:<12}{rate:>10.0f} claim attempts/s   won {split}   exactly once: {'yes' if ok else 'NO'}")
            if not ok:
                raise SystemExit(f"{n}: a job was claimed twice or not at all")


if __name__ == "__main__":
    asyncio.run(main())

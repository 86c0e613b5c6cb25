"""Benchmarks of the desktop window (offscreen). Prints its figures.

    .venv/bin/python bench/gui_bench.py            # the full run
    .venv/bin/python bench/gui_bench.py --quick    # fewer samples, to check that it still runs

Measures:
1. Store write → bar repainted: a writer thread (its own event loop and engine, like the daemon's process)
   writes a new progress to a visible running job (a document's reading job); the latency is from its commit to
   the delegate painting the document's row with that value.
   p50/p95 with 1 and with 50 running jobs (target p95 ≤ 250 ms).
2. CPU of the GUI process while idle with 50 running jobs visible (target ≤ 2% of one core).
3. Opening the window over 100,000 rows of history, in a fresh process: time to the first painted row and peak
   memory (targets ≤ 1 s, ≤ 300 MB).
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import argparse
import asyncio
import dataclasses
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import qasync
from PySide6.QtWidgets import QApplication

from core.app.settings.config import Settings
from core.app.storage.database import make_app_store, open_app_database
from core.db import AsyncDatabaseManager
from gui.documents.table_model import JobRow
from gui.main_window import MainWindow
from tests.jobhistory import DEMO_PLAN, phase_list, seed_history


def _settings(data: Path) -> Settings:
    return dataclasses.replace(Settings.defaults(data), output_dir=data / "out", hide_to_tray=False)


async def _running_jobs(db: AsyncDatabaseManager, count: int) -> list[uuid.UUID]:
    store = make_app_store(db)
    ids = []
    for i in range(count):
        job = await store.enqueue("ingest", title=f"Documento {i:02d}.pdf", params={"path": f"/d/{i}.pdf"})
        await store.claim(job.id, worker_id="bench")
        await store.report_progress(job.id, 0.01, stage="extract", phases=phase_list("extract", now=job.created_at))
        ids.append(job.id)
    return ids


def _writer(url: str, ids: list[uuid.UUID], samples: int, pace: float, sent: dict[tuple[Any, float], float]) -> None:
    async def write() -> None:
        db = AsyncDatabaseManager(url)
        store = make_app_store(db)
        rng = random.Random(1)
        value = {job_id: 0.01 for job_id in ids}
        try:
            for _ in range(samples):
                job_id = rng.choice(ids)
                value[job_id] = round(value[job_id] + 0.004, 4)
                await store.report_progress(job_id, value[job_id], stage="extract")
                sent[(job_id, value[job_id])] = time.perf_counter()
                await asyncio.sleep(pace)
        finally:
            await db.dispose()

    asyncio.run(write())


async def _latency(app: QApplication, running: int, samples: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        settings = _settings(Path(tmp))
        db = await open_app_database(settings.database_url)
        window: MainWindow | None = None
        try:
            ids = await _running_jobs(db, running)
            window = MainWindow(db=db, store=make_app_store(db), settings=settings)
            window.view.verticalHeader().setDefaultSectionSize(16)
            window.resize(1320, 1000)
            window.start()
            window.show()
            while window.model.rowCount() < running:  # noqa: ASYNC110
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)
            painted: dict[Any, list[tuple[float, float]]] = {}

            def on_paint(row: JobRow, at: float) -> None:  # the value the writer wrote: the document's reading job's
                painted.setdefault(row.id, []).append((round(row.root.progress, 4), at))

            window.delegate.on_paint = on_paint
            sent: dict[tuple[Any, float], float] = {}
            thread = threading.Thread(target=_writer, args=(settings.database_url, ids, samples, 0.05, sent))
            thread.start()
            while thread.is_alive():  # noqa: ASYNC110
                await asyncio.sleep(0.01)
            thread.join()
            await asyncio.sleep(0.5)
            # a write is on screen when its job's bar is first painted with that value or a later one
            lat = []
            for (job_id, value), t in sent.items():
                shown = [at for v, at in painted.get(job_id, []) if v >= value and at >= t]
                if shown:
                    lat.append((min(shown) - t) * 1000)
            if len(lat) < len(sent):
                print(f"  ({len(sent) - len(lat)} of {len(sent)} writes never reached the screen)")
            q = statistics.quantiles(lat, n=20)
            return statistics.median(lat), q[18]
        finally:
            if window is not None:
                await window.shutdown()
                window.hide()
                window.deleteLater()
            await db.dispose()


async def _idle_cpu(app: QApplication, running: int, seconds: float) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        settings = _settings(Path(tmp))
        db = await open_app_database(settings.database_url)
        window: MainWindow | None = None
        try:
            ids = await _running_jobs(db, running)
            window = MainWindow(db=db, store=make_app_store(db), settings=settings)
            window.view.verticalHeader().setDefaultSectionSize(16)
            window.resize(1320, 1000)
            window.start()
            window.show()
            while window.model.rowCount() < running:  # noqa: ASYNC110
                await asyncio.sleep(0.05)
            window.select_job(ids[0])
            await asyncio.sleep(2.0)
            began_cpu, began = time.process_time(), time.perf_counter()
            await asyncio.sleep(seconds)
            return (time.process_time() - began_cpu) / (time.perf_counter() - began) * 100
        finally:
            if window is not None:
                await window.shutdown()
                window.hide()
                window.deleteLater()
            await db.dispose()


def _open_child(url: str) -> None:
    """In a fresh process: open the window over the database, print seconds to first painted row and peak MB."""
    began = time.perf_counter()
    app = QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)

    async def run() -> tuple[float, float]:
        data = Path(tempfile.mkdtemp())
        settings = dataclasses.replace(_settings(data), database_url=url)
        db = await open_app_database(url)
        first: list[float] = []
        window = MainWindow(db=db, store=make_app_store(db), settings=settings)
        window.delegate.on_paint = lambda _row, at: first.append(at) if not first else None
        window.start()
        window.show()
        while not first:  # noqa: ASYNC110
            await asyncio.sleep(0.005)
        took = first[0] - began
        print(f"epoch {time.time() - (time.perf_counter() - first[0]):.6f}")
        await asyncio.sleep(1.0)
        await window.shutdown()
        window.hide()
        await db.dispose()
        return took, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    with loop:
        took, mb = loop.run_until_complete(run())
    print(f"{took:.3f} {mb:.1f}")


def _open_over_history(rows: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{tmp}/history.db"

        async def seed() -> None:
            db = await open_app_database(url)
            try:
                await seed_history(db, rows)
            finally:
                await db.dispose()

        asyncio.run(seed())
        spawned = time.time()
        cmd = [sys.executable, __file__, "--open-child", url]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True)
        words = out.stdout.split()
        painted_at = float(words[words.index("epoch") + 1])
        took, mb = map(float, words[-2:])
        print(f"  (from process start, interpreter and imports included: {painted_at - spawned:.3f} s)")
        return took, mb


def main() -> int:
    """Run the benchmarks and print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--open-child")
    args = parser.parse_args()
    if args.open_child:
        _open_child(args.open_child)
        return 0
    samples = 40 if args.quick else 200
    app = QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    print(f"PLAN {DEMO_PLAN}")
    with loop:
        for running in (1, 50):
            p50, p95 = loop.run_until_complete(_latency(app, running, samples))
            print(f"store write -> bar repainted, {running:>2} running: p50 {p50:6.1f} ms  p95 {p95:6.1f} ms")
        cpu = loop.run_until_complete(_idle_cpu(app, 50, 5.0 if args.quick else 20.0))
        print(f"GUI CPU while idle with 50 running jobs visible: {cpu:.2f}% of one core")
    rows = 20_000 if args.quick else 100_000
    took, mb = _open_over_history(rows)
    print(f"open the window over {rows:,} rows: first painted row {took:.3f} s after QApplication(), peak {mb:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

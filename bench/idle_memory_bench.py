"""The memory an idle worker keeps, and what the next guide costs once the model was unloaded.

    flock /tmp/studyjobs-suite.lock .venv/bin/python bench/idle_memory_bench.py            # 1 idle minute
    flock /tmp/studyjobs-suite.lock .venv/bin/python bench/idle_memory_bench.py --minutes 5

A real daemon as login starts it (``studyjobs daemon --watch``: the watchdog and its worker) on a temporary data
folder, with the bundled model and the ``model.unload_after_minutes`` setting at ``--minutes``. One guide is written
(a text document of real prose), then the bench waits the idle time and a little more, and sums the RSS of the
watchdog, the worker and every child (reader processes, multiprocessing's resource tracker): right after the guide,
and after the idle time. Then a second guide of the same size is written: its time, against the first guide's time
(which loaded the model too, in a fresh worker) and against a third guide written at once with the model loaded,
gives what the unload costs the next guide. Goal: ≤ 150 MB after the idle time; the guide after the unload no more
than the model's load time slower than with the model loaded.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import psutil
from bench_support import ROOT, BenchHome, open_store, text_corpus, wait_for

GOAL_MB = 150.0
DOCUMENT_BYTES = 6000


def tree_rss(pid: int) -> tuple[float, list[tuple[str, float]]]:
    """The summed RSS (MB) of ``pid`` and its descendants, and each process's name and RSS."""
    root = psutil.Process(pid)
    parts = []
    for process in [root, *root.children(recursive=True)]:
        try:
            rss = process.memory_info().rss / 1e6
            command = " ".join(process.cmdline()[1:4])
        except psutil.Error:
            continue
        parts.append((f"{process.pid} {command[:60]}", rss))
    return sum(rss for _, rss in parts), parts


async def guide(home: BenchHome, document: Path) -> float:
    """Add ``document`` and wait for its guide; the seconds from the add to the guide's end."""
    started = time.monotonic()
    done = home_cli(home, "add", "--no-start", "--json", str(document))
    ingest = uuid.UUID(done.strip().strip("[]").strip().strip('"'))
    async with open_store(home.database_url) as store:
        while True:
            rows = await store.list_recent(kind="generate", limit=50)
            mine = [row for row in rows if row.parent_id == ingest]
            if mine and mine[0].status in ("done", "failed", "cancelled"):
                if mine[0].status != "done":
                    raise SystemExit(f"the guide of {document.name} ended {mine[0].status}: {mine[0].error}")
                return time.monotonic() - started
            await asyncio.sleep(0.2)


def home_cli(home: BenchHome, *args: str) -> str:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "daemon.cli.main", *args], env=home.env(), capture_output=True, text=True, timeout=120
    )
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    return done.stdout


def load_seconds() -> float:
    """The seconds llama.cpp takes to load the bundled model here (in this process, then freed)."""
    from daemon.llm.local_model import default_n_threads, shared_model, unload_all
    from daemon.llm.models import bundled_model_path

    started = time.monotonic()
    shared_model(bundled_model_path(), n_ctx=2048, n_threads=default_n_threads(), n_batch=512)
    seconds = time.monotonic() - started
    unload_all()
    return seconds


def start_watched(home: BenchHome) -> Any:
    import subprocess

    process = subprocess.Popen(
        [sys.executable, "-m", "daemon.cli.main", "daemon", "--watch"],
        env=home.env(),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )
    home.processes.append(process)  # type: ignore[arg-type]
    wait_for(lambda: psutil.Process(process.pid).children(), timeout=60, what="the watchdog's worker")
    return process


async def main(minutes: float) -> int:
    with tempfile.TemporaryDirectory(prefix="idle-bench-") as folder:
        root = Path(folder)
        documents = text_corpus(root / "docs", [DOCUMENT_BYTES] * 3, prefix="idle")
        home = BenchHome(root / "home", {"model": {"kind": "bundled", "unload_after_minutes": minutes}})
        try:
            watchdog = start_watched(home)
            first = await guide(home, documents[0])
            loaded, _ = tree_rss(watchdog.pid)
            warm = await guide(home, documents[1])
            print(f"first guide (fresh worker, model loaded by it): {first:.1f} s; next one at once: {warm:.1f} s")
            print(f"worker + watchdog + children right after a guide: {loaded:.0f} MB")
            await asyncio.sleep(minutes * 60 + 10)
            idle, parts = tree_rss(watchdog.pid)
            for name, rss in parts:
                print(f"  {rss:7.1f} MB  {name}")
            verdict = "meets" if idle <= GOAL_MB else "misses"
            print(f"after {minutes:g} idle minutes: {idle:.0f} MB ({verdict} the {GOAL_MB:.0f} MB goal)")
            after = await guide(home, documents[2])
            load = load_seconds()
            print(f"the guide after the unload: {after:.1f} s, {after - warm:+.1f} s against the model loaded")
            verdict = "meets" if after - warm <= load else "misses"
            print(f"the model's load time: {load:.1f} s ({verdict} the goal: no more than that extra)")
        finally:
            home.close()
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=1.0, help="the model.unload_after_minutes setting")
    sys.exit(asyncio.run(main(parser.parse_args().minutes)))

"""An idle worker gives its memory back: after the ``model.unload_after_minutes`` setting's minutes without a job the
real daemon unmaps its model, ends its idle reader processes and makes way for a fresh process (its watchdog starts
one; without a watchdog it executes itself again) that holds no model library, and the next guide loads the model
again. The watchdog itself never loads the database layer nor the model library. Throughout that hand-over a reader of
the workers table sees a live worker: the fresh process's row replaces the old one in one transaction."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import psutil
import pytest

from core.app.storage.database import open_app_database
from core.app.storage.schema import Worker
from core.app.workers.registry import alive_workers
from daemon.supervisor import IDLE_CHECK_EVERY
from tests.daemon.worker.faults import add, database_url_of, wait_ended
from tests.daemon.worker.workerhome import DaemonHome, run
from tests.waiting import wait_until

IDLE_MINUTES = 0.2
"""12 seconds: long enough to see the model still loaded right after a guide."""
WATCHDOG_MB = 40
"""The most a watchdog may hold (RSS)."""


def _tree(pid: int) -> list[psutil.Process]:
    root = psutil.Process(pid)
    return [root, *root.children(recursive=True)]


def _mapping(pid: int, model: Path) -> list[int]:
    """The processes of the daemon's tree that have ``model`` mapped."""
    found = []
    for process in _tree(pid):
        try:
            if any(m.path == str(model) for m in process.memory_maps(grouped=True)):
                found.append(process.pid)
        except psutil.Error:
            continue
    return found


def _readers(pid: int) -> list[int]:
    """The daemon's reader processes (``daemon.readers.sandbox.child``, started by multiprocessing's spawn)."""
    found = []
    for process in _tree(pid)[1:]:
        try:
            if "spawn_main" in " ".join(process.cmdline()):
                found.append(process.pid)
        except psutil.Error:
            continue
    return found


def _maps(pid: int, part: str) -> bool:
    """Whether process ``pid`` maps a file whose path contains ``part`` (a library it imported)."""
    return any(part in m.path for m in psutil.Process(pid).memory_maps(grouped=True))


def _workers(home: DaemonHome) -> list[dict]:
    done = home.cli("workers", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _guide(home: DaemonHome, folder: Path, name: str) -> None:
    folder.mkdir(exist_ok=True)
    source = folder / f"{name}.md"
    source.write_text(f"# {name}\n\nAs plantas transformam luz em energia química.\n", encoding="utf-8")
    (ingest,) = add(home, source)
    ended = wait_ended(home, [ingest], timeout=120)
    generate = [j for j in ended.jobs.values() if j.kind == "generate" and j.parent_id == ingest]
    assert generate
    row = wait_ended(home, [generate[0].id], timeout=120).jobs[generate[0].id]
    assert row.status == "done", row.error


def test_an_idle_worker_unmaps_its_model_and_ends_its_readers_and_the_next_guide_loads_the_model_again(
    home: DaemonHome, tmp_path: Path, tiny_gguf: Path
) -> None:
    home.settings["model"]["unload_after_minutes"] = IDLE_MINUTES
    home.write_settings()
    daemon = home.start()
    _guide(home, tmp_path / "docs", "primeiro")
    assert _mapping(daemon.pid, tiny_gguf), "the model is loaded after a guide"
    assert _readers(daemon.pid), "a reader process waits for the next document"
    wait_until(lambda: not _mapping(daemon.pid, tiny_gguf), timeout=IDLE_MINUTES * 60 + 30, what="the model unmapped")
    wait_until(lambda: not _readers(daemon.pid), timeout=10, what="the idle readers ended")
    fresh = wait_until(
        lambda: [w for w in _workers(home) if w["model_state"] == "unloaded"], timeout=30, what="a fresh one"
    )
    assert [w["pid"] for w in fresh] == [daemon.pid], "without a watchdog the worker executes itself again"
    assert not _maps(daemon.pid, "libllama"), "the fresh process has not imported llama.cpp"
    _guide(home, tmp_path / "docs", "segundo")
    assert _mapping(daemon.pid, tiny_gguf), "loaded again for the next guide"
    assert daemon.poll() is None


def test_under_its_watchdog_an_idle_worker_is_replaced_by_a_fresh_one_and_the_watchdog_stays_lean(
    home: DaemonHome, tmp_path: Path, tiny_gguf: Path
) -> None:
    home.settings["model"]["unload_after_minutes"] = IDLE_MINUTES
    home.write_settings()
    watchdog = home.start("--watch")
    first = wait_until(lambda: psutil.Process(watchdog.pid).children(), timeout=60, what="the worker")[0].pid
    _guide(home, tmp_path / "docs", "primeiro")
    assert _mapping(watchdog.pid, tiny_gguf) and _maps(first, "libllama")

    def fresh_worker() -> list[dict]:
        return [w for w in _workers(home) if w["model_state"] == "unloaded" and w["pid"] != first]

    (row,) = wait_until(fresh_worker, timeout=IDLE_MINUTES * 60 + 40, what="a fresh worker after the idle minutes")
    assert not psutil.pid_exists(first) or psutil.Process(first).status() == psutil.STATUS_ZOMBIE
    assert [p.pid for p in psutil.Process(watchdog.pid).children()] == [row["pid"]], "no reader process waits"
    assert not _maps(row["pid"], "libllama"), "the fresh worker has not imported llama.cpp"
    # Lean: stdlib, the settings' folders and the log (~25 MB); the database layer alone would add ~27 MB.
    assert psutil.Process(watchdog.pid).memory_info().rss < WATCHDOG_MB * 1e6, "the watchdog imports only what it uses"
    assert not _maps(watchdog.pid, "libllama")
    _guide(home, tmp_path / "docs", "segundo")
    assert _maps(row["pid"], "libllama"), "the next guide loaded the model in the fresh worker"
    assert watchdog.poll() is None


def test_with_the_setting_at_0_the_worker_keeps_its_model(home: DaemonHome, tmp_path: Path, tiny_gguf: Path) -> None:
    home.settings["model"]["unload_after_minutes"] = 0
    home.write_settings()
    daemon = home.start()
    _guide(home, tmp_path / "docs", "primeiro")
    loaded = _mapping(daemon.pid, tiny_gguf)
    assert loaded
    time.sleep(IDLE_MINUTES * 60 + 2 * IDLE_CHECK_EVERY)  # longer than the other test's worker waits to unload
    assert _mapping(daemon.pid, tiny_gguf) == loaded


async def _read_through_hand_over(url: str, first_id: str, timeout: float) -> tuple[int, int, list[Worker]]:
    """Read the live workers as the window does (here every 10 ms) until a worker other than ``first_id`` is the
    one alive; returns how many reads there were, how many of them saw no live worker, and the last read."""
    db = await open_app_database(url)
    reads = empty = 0
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            alive = await alive_workers(db)
            reads += 1
            empty += not alive
            if alive and first_id not in {w.id for w in alive}:
                return reads, empty, alive
            await asyncio.sleep(0.01)
    finally:
        await db.dispose()
    raise AssertionError(f"no fresh worker within {timeout} s ({reads} reads, {empty} without a worker)")


@pytest.mark.parametrize("watched", [True, False], ids=["under-its-watchdog", "executing-itself"])
def test_a_reader_of_the_workers_table_sees_a_live_worker_throughout_the_hand_over_to_a_fresh_one(
    home: DaemonHome, tmp_path: Path, watched: bool
) -> None:
    home.settings["model"]["unload_after_minutes"] = IDLE_MINUTES
    home.write_settings()
    home.start(*(["--watch"] if watched else []))
    _guide(home, tmp_path / "docs", "primeiro")
    (first,) = _workers(home)

    reads, empty, alive = run(
        _read_through_hand_over(database_url_of(home), first["id"], timeout=IDLE_MINUTES * 60 + 40)
    )

    assert empty == 0, f"{empty} of {reads} reads saw no worker while the idle worker handed over to a fresh one"
    assert reads > 100, "the reads spanned the hand-over"
    assert [(w.model_state, w.running) for w in alive] == [("unloaded", 0)], "the fresh worker's row says so at once"
    assert [w["id"] for w in _workers(home)] == [alive[0].id], "the old row was replaced, not left behind"

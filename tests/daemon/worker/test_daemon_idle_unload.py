"""An idle worker gives its memory back: after the ``model.unload_after_minutes`` setting's minutes without a job the
real daemon unmaps its model and ends its idle reader processes, and the next guide loads the model again."""

from __future__ import annotations

import time
from pathlib import Path

import psutil
from faults import add, wait_ended
from workerhome import DaemonHome, poll

from daemon.supervisor import IDLE_CHECK_EVERY

IDLE_MINUTES = 0.2
"""12 seconds: long enough to see the model still loaded right after a guide."""


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
    """The daemon's reader processes (``daemon.readers.child``, started by multiprocessing's spawn)."""
    found = []
    for process in _tree(pid)[1:]:
        try:
            if "spawn_main" in " ".join(process.cmdline()):
                found.append(process.pid)
        except psutil.Error:
            continue
    return found


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
    poll(lambda: not _mapping(daemon.pid, tiny_gguf), timeout=IDLE_MINUTES * 60 + 30, what="the model unmapped")
    poll(lambda: not _readers(daemon.pid), timeout=10, what="the idle readers ended")
    _guide(home, tmp_path / "docs", "segundo")
    assert _mapping(daemon.pid, tiny_gguf), "loaded again for the next guide"
    assert daemon.poll() is None


def test_with_the_setting_at_0_the_worker_keeps_its_model(home: DaemonHome, tmp_path: Path, tiny_gguf: Path) -> None:
    home.settings["model"]["unload_after_minutes"] = 0
    home.write_settings()
    daemon = home.start()
    _guide(home, tmp_path / "docs", "primeiro")
    loaded = _mapping(daemon.pid, tiny_gguf)
    assert loaded
    time.sleep(IDLE_MINUTES * 60 + 2 * IDLE_CHECK_EVERY)  # longer than the other test's worker waits to unload
    assert _mapping(daemon.pid, tiny_gguf) == loaded

"""``download_model`` jobs in a real daemon against a hub on loopback: kill -9 mid-download and a restarted daemon
resumes the file; Cancel then Retry fetches at most one chunk again; the downloaded model then writes a guide."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.app.messages.sentences import message, render
from core.app.models.catalog import CatalogModel, load_catalog
from core.app.models.downloads import enqueue_download, installed_path, models_dir, partial_path
from core.app.storage.database import make_app_store, open_app_database
from daemon.downloads.engine import CHUNK_SIZE
from devkit.loopback_hub import FakeHub
from tests.daemon.worker.faults import add, database_url_of, job, wait_ended, wait_job
from tests.daemon.worker.workerhome import DaemonHome, run
from tests.modelcatalog import TINY_ID, write_test_catalog
from tests.waiting import wait_until

REPO = "tests/tiny-GGUF"
FILE_NAME = "tiny-q8_0.gguf"


@pytest.fixture
def hub(tiny_gguf: Path) -> Iterator[FakeHub]:
    with FakeHub({f"{REPO}/{FILE_NAME}": tiny_gguf}) as running:
        yield running


def _catalog_entry() -> CatalogModel:  # the bundled entry's facts, pointed at the loopback hub's file
    bundled = next(model for model in load_catalog() if model.bundled)
    return dataclasses.replace(
        bundled, id="tiny", repo=REPO, filename=FILE_NAME, revision="main", size_bytes=None, sha256=None
    )


async def _enqueue(url: str) -> uuid.UUID:
    db = await open_app_database(url)
    try:
        row = await enqueue_download(make_app_store(db), _catalog_entry())
        return row.id
    finally:
        await db.dispose()


async def _control(url: str, job_id: uuid.UUID, action: str) -> bool:
    db = await open_app_database(url)
    try:
        return await getattr(make_app_store(db), action)(job_id) is not None
    finally:
        await db.dispose()


def _queue_download(home: DaemonHome) -> uuid.UUID:
    return run(_enqueue(database_url_of(home)))


def _partial(home: DaemonHome) -> Path:
    return partial_path(models_dir(home.data_dir), REPO, "main", FILE_NAME)


def _gets(hub: FakeHub) -> list[tuple[str | None, str | None]]:
    return [(rng, if_range) for method, _, rng, if_range in hub.requests if method == "GET"]


def test_kill_9_mid_download_and_a_new_daemon_resumes_the_file_then_the_model_writes_a_guide(
    home: DaemonHome, hub: FakeHub, tiny_gguf: Path, tmp_path: Path
) -> None:
    home.settings.update(hub_url=hub.url)
    home.write_settings()
    hub.faults.trickle_after = CHUNK_SIZE
    hub.faults.trickle_pause = 0.1
    daemon = home.start()
    job_id = _queue_download(home)
    assert _queue_download(home) == job_id  # queueing it again follows the same job
    wait_until(
        lambda: _partial(home).exists() and _partial(home).stat().st_size >= CHUNK_SIZE,
        what="a partial file",
        timeout=60.0,
    )
    os.kill(daemon.pid, signal.SIGKILL)
    daemon.wait(10)
    kept = _partial(home).stat().st_size
    home.start()
    state = wait_ended(home, [job_id], timeout=180)
    assert state.jobs[job_id].status == "done", state.jobs[job_id].error
    target = installed_path(models_dir(home.data_dir), REPO, FILE_NAME)
    assert target.read_bytes() == tiny_gguf.read_bytes()
    assert state.jobs[job_id].detail["model_path"] == str(target)
    resumed = [rng for rng, if_range in _gets(hub)[1:] if if_range]
    assert resumed and int(resumed[0].removeprefix("bytes=").rstrip("-")) >= kept - CHUNK_SIZE
    home.stop_all()
    home.settings["model"] = {"kind": "gguf", "gguf_path": str(target), "n_threads": 1}
    home.write_settings()
    home.start()
    source = tmp_path / "notas.md"
    source.write_text("# Fotossíntese\n\nAs plantas transformam luz em energia química.\n", encoding="utf-8")
    (ingest,) = add(home, source)
    ended = wait_ended(home, [ingest], timeout=120)
    generate = [j for j in ended.jobs.values() if j.kind == "generate" and j.parent_id == ingest]
    generate_ended = wait_ended(home, [generate[0].id], timeout=180) if generate else ended
    assert generate and generate_ended.jobs[generate[0].id].status == "done"
    assert generate_ended.guides_of(generate[0].id)


def test_cancel_mid_download_keeps_the_partial_file_and_retry_fetches_at_most_one_chunk_again(
    home: DaemonHome, hub: FakeHub, tiny_gguf: Path
) -> None:
    home.settings.update(hub_url=hub.url)
    home.write_settings()
    hub.faults.trickle_after = CHUNK_SIZE
    hub.faults.trickle_pause = 0.1
    home.start()
    job_id = _queue_download(home)
    wait_until(
        lambda: _partial(home).exists() and _partial(home).stat().st_size >= 2 * CHUNK_SIZE,
        what="two chunks",
        timeout=60.0,
    )
    assert run(_control(database_url_of(home), job_id, "cancel"))
    wait_job(home, job_id, lambda row: row.status == "cancelled", what="the cancel")
    kept = wait_until(lambda: _partial(home).stat().st_size, what="the partial file", timeout=60.0)
    hub.faults.trickle_after = None
    assert run(_control(database_url_of(home), job_id, "retry"))
    state = wait_ended(home, [job_id], timeout=120)
    assert state.jobs[job_id].status == "done", state.jobs[job_id].error
    last_range = _gets(hub)[-1][0] or "bytes=0-"
    start = int(last_range.removeprefix("bytes=").rstrip("-"))
    assert kept - start <= CHUNK_SIZE and start > 0  # bytes fetched again: at most one chunk
    assert installed_path(models_dir(home.data_dir), REPO, FILE_NAME).read_bytes() == tiny_gguf.read_bytes()
    assert job(home, job_id) is not None


def test_a_model_missing_on_the_hub_fails_once_with_a_plain_message_and_installs_nothing(
    home: DaemonHome, hub: FakeHub
) -> None:
    home.settings.update(hub_url=hub.url)
    home.write_settings()
    hub.faults.missing = True
    home.start()
    job_id = _queue_download(home)
    state = wait_ended(home, [job_id], timeout=60)
    row = state.jobs[job_id]
    assert row.status == "failed" and row.attempts == 1
    assert render(row.error, "pt_BR") == message("model_not_found", "pt_BR")
    assert not installed_path(models_dir(home.data_dir), REPO, FILE_NAME).exists()


def _models_cli(home: DaemonHome, catalog: Path, *args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "daemon.cli.main", "models", *args],
        env=home.env(STUDYJOBS_CATALOG=str(catalog)),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_the_command_line_lists_the_catalog_downloads_a_model_with_wait_and_removes_it(
    home: DaemonHome, hub: FakeHub, tiny_gguf: Path, tmp_path: Path
) -> None:
    catalog = write_test_catalog(tmp_path / "catalog.json", REPO, FILE_NAME)
    home.settings.update(hub_url=hub.url)
    home.write_settings()
    home.start(STUDYJOBS_CATALOG=str(catalog))
    listed = {entry["id"]: entry for entry in json.loads(_models_cli(home, catalog, "--json").stdout)}
    assert listed[TINY_ID]["fits"] and not listed[TINY_ID]["downloaded"] and listed[TINY_ID]["download"] is None
    assert listed["smollm2-135m-demo"]["in_use"] is False and listed["smollm2-135m-demo"]["demo"]
    text = _models_cli(home, catalog).stdout
    assert TINY_ID in text and "fits" in text and "not downloaded" in text
    done = _models_cli(home, catalog, "download", TINY_ID, "--wait", "--json")
    assert done.returncode == 0, done.stderr
    finished = json.loads(done.stdout.strip().splitlines()[-1])
    assert finished["status"] == "done" and finished["bytes_done"] == tiny_gguf.stat().st_size
    target = installed_path(models_dir(home.data_dir), REPO, FILE_NAME)
    assert target.read_bytes() == tiny_gguf.read_bytes()
    listed = {entry["id"]: entry for entry in json.loads(_models_cli(home, catalog, "--json").stdout)}
    assert listed[TINY_ID]["downloaded"] and listed[TINY_ID]["path"] == str(target)
    unknown = _models_cli(home, catalog, "download", "no-such-model")
    assert unknown.returncode == 1 and "no-such-model" in unknown.stderr
    removed = _models_cli(home, catalog, "remove", TINY_ID, "--json")
    assert removed.returncode == 0 and json.loads(removed.stdout)["freed_bytes"] == tiny_gguf.stat().st_size
    assert not target.exists()
    listed = {entry["id"]: entry for entry in json.loads(_models_cli(home, catalog, "--json").stdout)}
    assert not listed[TINY_ID]["downloaded"] and listed[TINY_ID]["download"] is None

"""Fit before load in a real daemon: a model too big for the memory is refused with both numbers before llama.cpp
loads it or a byte of it is downloaded, and the worker keeps running. ``STUDYJOBS_MEMORY_MB`` sets the memory the
daemon sees (its available and total megabytes)."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.app.messages.sentences import render
from core.app.models.catalog import RunSettings, load_catalog
from core.app.models.downloads import enqueue_download, installed_path, models_dir
from core.app.storage.database import make_app_store, open_app_database
from core.stored_messages import decode
from devkit.loopback_hub import FakeHub
from devkit.tiny_gguf import write_tiny_model
from tests.daemon.worker.faults import add, database_url_of, wait_ended
from tests.daemon.worker.workerhome import DaemonHome, run

REPO = "tests/tiny-GGUF"
FILE_NAME = "tiny-q8_0.gguf"


@pytest.fixture
def hub(tiny_gguf: Path) -> Iterator[FakeHub]:
    with FakeHub({f"{REPO}/{FILE_NAME}": tiny_gguf}) as running:
        yield running


async def _enqueue(url: str, run_settings: RunSettings | None = None) -> uuid.UUID:
    bundled = next(model for model in load_catalog() if model.bundled)
    entry = dataclasses.replace(
        bundled,
        id="tiny",
        repo=REPO,
        filename=FILE_NAME,
        revision="main",
        size_bytes=None,
        sha256=None,
        run=run_settings or bundled.run,
    )
    db = await open_app_database(url)
    try:
        return (await enqueue_download(make_app_store(db), entry)).id
    finally:
        await db.dispose()


def test_a_local_model_too_big_for_the_free_memory_fails_its_guide_naming_both_numbers(
    home: DaemonHome, tmp_path: Path
) -> None:
    daemon = home.start(STUDYJOBS_MEMORY_MB="5,100000")
    source = tmp_path / "notas.md"
    source.write_text("# Fotossíntese\n\nAs plantas transformam luz em energia química.\n", encoding="utf-8")
    (ingest,) = add(home, source)
    ended = wait_ended(home, [ingest], timeout=120)
    generate = [j for j in ended.jobs.values() if j.kind == "generate" and j.parent_id == ingest]
    assert generate
    row = wait_ended(home, [generate[0].id], timeout=120).jobs[generate[0].id]
    assert row.status == "failed" and row.attempts == 1
    stored = decode(row.error)
    assert stored is not None and stored.code == "model_too_big_no_smaller"
    needed = stored.values["needed_mb"]
    assert needed > 5 and stored.values["available_mb"] == 5 and stored.values["context"] == 2048
    assert f"{needed} MB" in render(row.error, "pt_BR") and "5 MB" in render(row.error, "en")
    assert daemon.poll() is None  # the worker keeps running


def test_a_download_too_big_for_this_computer_is_refused_before_a_byte_is_fetched(
    home: DaemonHome, hub: FakeHub
) -> None:
    home.settings.update(hub_url=hub.url)
    home.write_settings()
    home.start(STUDYJOBS_MEMORY_MB="50,60")
    job_id = run(_enqueue(database_url_of(home)))
    row = wait_ended(home, [job_id], timeout=60).jobs[job_id]
    assert row.status == "failed" and row.attempts == 1
    stored = decode(row.error)
    assert stored is not None and stored.code == "model_too_big_computer"
    assert stored.values["total_mb"] == 60 and stored.values["needed_mb"] > 60
    assert "60 MB" in render(row.error, "pt_BR")
    assert hub.requests == []


def test_a_download_that_does_not_fit_the_free_memory_now_is_kept_checked_but_not_test_loaded(
    home: DaemonHome, hub: FakeHub, tiny_gguf: Path
) -> None:
    home.settings.update(hub_url=hub.url)
    home.write_settings()
    home.start(STUDYJOBS_MEMORY_MB="1,100000")
    job_id = run(_enqueue(database_url_of(home)))
    row = wait_ended(home, [job_id], timeout=60).jobs[job_id]
    assert row.status == "done", row.error
    target = installed_path(models_dir(home.data_dir), REPO, FILE_NAME)
    assert target.read_bytes() == tiny_gguf.read_bytes()
    stored = decode(row.message)
    assert stored is not None and stored.code == "model_downloaded_untested"
    assert stored.values["available_mb"] == 1 and "1 MB" in render(row.message, "en")


def test_a_model_file_of_an_architecture_llama_cpp_cannot_run_fails_its_guide_once_naming_it(
    home: DaemonHome, tmp_path: Path
) -> None:
    model = write_tiny_model(tmp_path / "future.gguf", architecture="qwen9-omni")
    home.settings["model"] = {"kind": "gguf", "gguf_path": str(model), "n_threads": 1}
    home.write_settings()
    daemon = home.start()
    source = tmp_path / "notas.md"
    source.write_text("# Fotossíntese\n\nAs plantas transformam luz em energia química.\n", encoding="utf-8")
    (ingest,) = add(home, source)
    ended = wait_ended(home, [ingest], timeout=120)
    generate = [j for j in ended.jobs.values() if j.kind == "generate" and j.parent_id == ingest]
    assert generate
    row = wait_ended(home, [generate[0].id], timeout=120).jobs[generate[0].id]
    assert row.status == "failed" and row.attempts == 1
    stored = decode(row.error)
    assert stored is not None and stored.code == "model_architecture_unsupported"
    assert stored.values == {"architecture": "qwen9-omni", "file": "future.gguf"}
    assert "qwen9-omni" in render(row.error, "pt_BR") and "cannot run yet" in render(row.error, "en")
    assert daemon.poll() is None  # no crash, no restart loop: the worker keeps running


def test_a_catalog_download_of_an_architecture_llama_cpp_cannot_run_is_refused_before_a_byte_is_fetched(
    home: DaemonHome, hub: FakeHub
) -> None:
    home.settings.update(hub_url=hub.url)
    home.write_settings()
    home.start()
    bundled = next(model for model in load_catalog() if model.bundled)
    future = dataclasses.replace(bundled.run, gguf_architecture="qwen9-omni")
    job_id = run(_enqueue(database_url_of(home), run_settings=future))
    row = wait_ended(home, [job_id], timeout=60).jobs[job_id]
    assert row.status == "failed" and row.attempts == 1
    stored = decode(row.error)
    assert stored is not None and stored.code == "model_architecture_unsupported"
    assert stored.values == {"architecture": "qwen9-omni", "file": FILE_NAME}
    assert hub.requests == []

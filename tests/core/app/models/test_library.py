"""The catalog as this computer sees it: what fits, what is downloaded, what is in use, and one download per model
that Download, Retry and Remove move through its states; the time a 50-page guide takes before any job runs."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from core.app.models.catalog import load_catalog
from core.app.models.downloads import partial_path
from core.app.models.fit import DAEMON_N_BATCH, MIN_CONTEXT
from core.app.models.library import (
    catalog_entry_for,
    catalog_path,
    current_model_id,
    download_jobs,
    model_setting,
    model_states,
    recommended,
    remove_model,
    start_download,
    writes_summaries,
)
from core.app.settings.config import ModelSettings, Settings
from core.app.storage.database import make_app_store, open_app_database

GB = 1_000_000_000


def _downloaded(settings: Settings, index: int) -> Path:
    model = model_setting(settings, load_catalog()[index])
    assert model.gguf_path is not None
    model.gguf_path.parent.mkdir(parents=True, exist_ok=True)
    model.gguf_path.write_bytes(b"GGUF")
    return model.gguf_path


def test_each_entry_fits_or_not_by_its_ram_and_the_first_download_that_fits_is_recommended(tmp_path: Path) -> None:
    settings = Settings.defaults(tmp_path)
    catalog = load_catalog()
    roomy = model_states(settings, catalog, ram=64 * GB)
    assert all(state.fits for state in roomy)
    assert recommended(roomy) is not None and recommended(roomy).model.id == catalog[1].id  # type: ignore[union-attr]
    assert all(state.n_ctx == min(8192, state.model.context_length) for state in roomy)
    downloads = catalog[1:]
    lightest = min(downloads, key=lambda model: model.ram_needed(MIN_CONTEXT, DAEMON_N_BATCH))
    assert lightest.id != catalog[1].id, "the catalog has a lighter choice than its default"
    smallest = lightest.ram_needed(MIN_CONTEXT, DAEMON_N_BATCH)  # the lightest download, at the smallest context
    tight = model_states(settings, catalog, ram=smallest)
    assert tight[0].fits and not tight[1].fits  # the demo fits nearly anywhere; the default needs more
    chosen = recommended(tight)
    assert chosen is not None and chosen.model.id == lightest.id and chosen.n_ctx == MIN_CONTEXT
    too_small = model_states(settings, catalog, ram=smallest - 1)
    assert too_small[0].fits and not any(state.fits for state in too_small[1:])
    assert recommended(too_small) is None


def test_a_model_whose_licence_forbids_commercial_use_is_never_recommended(tmp_path: Path) -> None:
    settings = Settings.defaults(tmp_path)
    catalog = load_catalog()
    research_only = [dataclasses.replace(model, commercial_use=model.bundled) for model in catalog[:2]]
    states = model_states(settings, [*research_only, *catalog[2:]], ram=64 * GB)
    chosen = recommended(states)
    assert chosen is not None and chosen.model.id == catalog[2].id
    assert recommended(model_states(settings, research_only, ram=64 * GB)) is None


def test_the_bundled_demo_is_in_use_on_a_fresh_install_and_a_downloaded_entry_after_use(tmp_path: Path) -> None:
    settings = Settings.defaults(tmp_path)
    catalog = load_catalog()
    states = model_states(settings, catalog, ram=64 * GB)
    assert [s.model.id for s in states if s.in_use] == [catalog[0].id]
    assert states[0].downloaded and not states[1].downloaded
    path = _downloaded(settings, 2)
    chosen = dataclasses.replace(settings, model=model_setting(settings, catalog[2]))
    assert chosen.model.kind == "gguf" and chosen.model.gguf_path == path
    states = model_states(chosen, catalog, ram=64 * GB)
    assert states[2].downloaded and states[2].in_use and states[2].path == path
    assert catalog_entry_for(chosen, catalog) == catalog[2] and current_model_id(chosen, catalog) == catalog[2].id
    back = dataclasses.replace(chosen, model=model_setting(chosen, catalog[0]))
    assert back.model.kind == "bundled" and current_model_id(back, catalog) == catalog[0].id


def test_a_file_or_a_server_outside_the_catalog_is_no_catalog_entry(tmp_path: Path) -> None:
    settings = Settings.defaults(tmp_path)
    own = dataclasses.replace(settings, model=ModelSettings(kind="gguf", gguf_path=tmp_path / "mine.gguf"))
    server = dataclasses.replace(settings, model=ModelSettings(kind="http", endpoint="http://127.0.0.1:8080/v1"))
    assert current_model_id(own, load_catalog()) is None and current_model_id(server, load_catalog()) is None


def test_the_bundled_model_writes_no_summaries_unless_the_settings_ask_and_every_other_model_writes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def settings(**model: object) -> Settings:
        return dataclasses.replace(Settings.defaults(tmp_path / "data"), model=ModelSettings(**model))  # type: ignore[arg-type]

    assert writes_summaries(settings()) is False
    assert writes_summaries(settings(kind="bundled", summaries=True)) is True
    downloaded = model_setting(Settings.defaults(tmp_path / "data"), load_catalog()[1])
    assert writes_summaries(settings(kind="gguf", gguf_path=downloaded.gguf_path)) is True
    assert writes_summaries(settings(kind="gguf", gguf_path=tmp_path / "mine.gguf")) is True
    assert writes_summaries(settings(kind="gguf", gguf_path=tmp_path / "mine.gguf", summaries=False)) is False
    assert writes_summaries(settings(kind="http", endpoint="http://127.0.0.1:9/v1")) is True
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    monkeypatch.setenv("STUDYJOBS_CATALOG", str(tmp_path / "broken.json"))
    assert writes_summaries(settings()) is True  # an unreadable catalog: the model is taken to write them


def test_the_catalog_file_can_be_replaced_by_an_environment_variable(tmp_path: Path) -> None:
    assert catalog_path({"STUDYJOBS_CATALOG": str(tmp_path / "c.json")}) == tmp_path / "c.json"
    assert catalog_path({}).name == "models.json"


async def test_download_follows_the_running_job_retry_resumes_and_remove_frees_the_disk_and_forgets_it(
    database_url: str, tmp_path: Path
) -> None:
    settings = Settings.defaults(tmp_path)
    model = load_catalog()[1]
    db = await open_app_database(database_url)
    try:
        store = make_app_store(db)
        first = await start_download(store, model)
        assert (await start_download(store, model)).id == first.id
        assert (await download_jobs(store))[model.id].status == "queued"
        await store.cancel(first.id)
        again = await start_download(store, model)
        assert again.id == first.id and again.status == "queued"  # Retry: the same job, resuming its file
        part = partial_path(tmp_path / "models", model.repo, model.revision, model.filename)
        part.parent.mkdir(parents=True)
        part.write_bytes(b"x" * 100)
        freed = await remove_model(store, settings, model)  # cancels the queued download, deletes its partial file
        assert freed == 100 and not part.exists() and not await download_jobs(store)
        fresh = await start_download(store, model)
        assert fresh.id == first.id and fresh.status == "queued" and fresh.attempts == 0
    finally:
        await db.dispose()

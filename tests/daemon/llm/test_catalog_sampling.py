"""A downloaded catalog model writes with the catalog's sampling settings; the user's own values still win."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

from core.app.models.catalog import load_catalog
from core.app.models.library import model_setting
from core.app.settings.config import ModelSettings, Settings
from daemon.llm.llamacpp import LlamaCppGenerator, unload_all
from daemon.llm.sampling import BUNDLED_SAMPLING, DEFAULT_SAMPLING, SamplingSettings
from daemon.runtime import Runtime


def _downloaded(folder: Path, tiny_model: Path, entry_index: int = 1) -> Settings:
    """Settings on ``folder`` whose model is catalog entry ``entry_index``, its file the tiny model in place."""
    settings = Settings.defaults(folder)
    entry = load_catalog()[entry_index]
    model = model_setting(settings, entry)
    assert model.gguf_path is not None
    model.gguf_path.parent.mkdir(parents=True)
    shutil.copyfile(tiny_model, model.gguf_path)
    return dataclasses.replace(settings, model=dataclasses.replace(model, n_threads=1))


async def _sampling(settings: Settings) -> SamplingSettings:
    runtime = Runtime(settings)
    await runtime.start()
    try:
        generator = await runtime.generator()
        assert isinstance(generator, LlamaCppGenerator)
        return generator.sampling
    finally:
        await runtime.close()
        unload_all()


async def test_a_downloaded_catalog_model_gets_the_catalogs_temperature_top_p_and_repeat_penalty(
    tmp_path: Path, tiny_model: Path
) -> None:
    settings = _downloaded(tmp_path / "data", tiny_model)
    entry = load_catalog()[1]
    sampling = await _sampling(settings)
    assert sampling != DEFAULT_SAMPLING and sampling != BUNDLED_SAMPLING
    for key, value in entry.sampling.items():
        assert getattr(sampling, key) == value, key


async def test_the_users_own_sampling_values_replace_the_catalogs_one_by_one(tmp_path: Path, tiny_model: Path) -> None:
    settings = _downloaded(tmp_path / "data", tiny_model)
    settings = dataclasses.replace(settings, model=dataclasses.replace(settings.model, temperature=0.0))
    entry = load_catalog()[1]
    sampling = await _sampling(settings)
    assert sampling.temperature == 0.0
    assert sampling.top_p == entry.sampling["top_p"]
    assert sampling.repeat_penalty == entry.sampling["repeat_penalty"]


async def test_a_gguf_file_outside_the_catalog_keeps_the_general_defaults(tmp_path: Path, tiny_model: Path) -> None:
    settings = Settings.defaults(tmp_path / "data")
    settings = dataclasses.replace(settings, model=ModelSettings(kind="gguf", gguf_path=tiny_model, n_threads=1))
    assert await _sampling(settings) == DEFAULT_SAMPLING

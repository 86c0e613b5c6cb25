"""Fit before load: a model's RAM at its context against the memory available, the context chosen, the refusal."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from gguf import GGUFWriter

from core.app.messages.sentences import message
from core.app.models import fit
from core.app.models.catalog import Architecture, load_catalog, ram_needed
from core.app.models.fit import (
    MAX_AUTO_CONTEXT,
    MIN_CONTEXT,
    ModelFileError,
    ModelShape,
    fit_at,
    fit_model,
    read_gguf_shape,
    refusal,
)
from core.app.models.memory import MemoryStatus
from devkit.tiny_gguf import TinyModelShape, write_tiny_model

GB = 1_000_000_000
PLENTY = MemoryStatus(64 * GB, 64 * GB)


def _qwen_like(trained: int = 32768) -> ModelShape:
    return ModelShape("Qwen-like 3B", 2_100_000_000, Architecture(36, 16, 2, 128, 151936), trained)


def test_the_tiny_gguf_reads_as_the_shape_it_was_written_with(tmp_path: Path) -> None:
    shape = TinyModelShape(n_ctx_train=4096)
    path = write_tiny_model(tmp_path / "tiny.gguf", shape)
    read = read_gguf_shape(path)
    assert read.kind == "llama" and read.trained_context == 4096
    assert read.weights_bytes == path.stat().st_size
    head_dim = shape.n_embd // shape.n_head
    assert read.architecture == Architecture(shape.n_layer, shape.n_head, shape.n_head, head_dim, 260)


def test_a_files_header_is_read_once_until_the_file_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_tiny_model(tmp_path / "tiny.gguf", TinyModelShape(n_ctx_train=4096))
    reads: list[Path] = []
    real = fit.read_metadata
    monkeypatch.setattr(fit, "read_metadata", lambda p: reads.append(p) or real(p))
    first = read_gguf_shape(path)
    assert read_gguf_shape(str(path)) == first and len(reads) == 1
    write_tiny_model(path, TinyModelShape(n_ctx_train=2048, n_layer=3))  # another size: another version
    assert read_gguf_shape(path).trained_context == 2048 and len(reads) == 2


def test_per_layer_head_counts_and_separate_key_and_value_sizes_are_read(tmp_path: Path) -> None:
    path = tmp_path / "odd.gguf"
    writer = GGUFWriter(str(path), "openelm")
    writer.add_context_length(2048)
    writer.add_block_count(4)
    writer.add_embedding_length(1024)
    writer.add_head_count([8, 12, 16, 20])
    writer.add_head_count_kv([2, 3, 4, 5])
    writer.add_key_length(96)
    writer.add_value_length(64)
    writer.add_array("tokenizer.ggml.tokens", [f"t{index}" for index in range(5000)])
    writer.add_tensor("weights", np.zeros(16, dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    shape = read_gguf_shape(path)
    assert shape.trained_context == 2048
    assert shape.architecture == Architecture(n_layers=4, n_head=20, n_head_kv=5, head_dim=80, n_vocab=5000)


def test_with_memory_to_spare_the_context_is_the_trained_one_up_to_8192() -> None:
    assert fit_model(_qwen_like(32768), memory=PLENTY).n_ctx == MAX_AUTO_CONTEXT
    assert fit_model(_qwen_like(4096), memory=PLENTY).n_ctx == 4096


def test_short_of_memory_the_context_shrinks_until_the_model_fits() -> None:
    shape = _qwen_like()
    at_4096 = ram_needed(shape.weights_bytes, shape.architecture, 4096, 256)
    fit = fit_model(shape, memory=MemoryStatus(at_4096 + 1000, 8 * GB))
    assert fit.fits and fit.n_ctx == 4096 and fit.needed == at_4096
    assert fit.needed <= fit.available


def test_a_model_that_does_not_fit_even_at_the_smallest_context_is_marked_so() -> None:
    fit = fit_model(_qwen_like(), memory=MemoryStatus(1 * GB, 8 * GB))
    assert not fit.fits and fit.fits_computer
    assert fit.n_ctx == MIN_CONTEXT and fit.needed > fit.available


def test_the_context_setting_is_kept_up_to_the_trained_context_even_when_it_does_not_fit() -> None:
    shape = _qwen_like(32768)
    assert fit_model(shape, context=16384, memory=PLENTY).n_ctx == 16384
    assert fit_model(shape, context=100_000, memory=PLENTY).n_ctx == 32768
    tight = fit_model(shape, context=16384, memory=MemoryStatus(3 * GB, 8 * GB))
    assert tight.n_ctx == 16384 and not tight.fits


def test_a_catalog_entry_fits_from_its_published_shape_without_a_file() -> None:
    entry = next(model for model in load_catalog() if model.id == "qwen3-4b-instruct-2507-q4_k_m")
    fit = fit_model(entry, memory=PLENTY)
    assert fit.fits and fit.n_ctx == MAX_AUTO_CONTEXT
    assert fit.needed == entry.ram_needed(MAX_AUTO_CONTEXT, 256)


def test_the_bundled_model_file_fits_here_at_its_trained_context(tmp_path: Path) -> None:
    from daemon.llm.models import bundled_model_path

    fit = fit_model(bundled_model_path())
    assert fit.fits and fit.n_ctx == 8192 and fit.trained_context == 8192
    assert 0.1 * GB < fit.needed < fit.available <= fit.total


def test_the_refusal_names_both_numbers_and_a_smaller_model_that_fits_in_both_languages() -> None:
    seven_b = next(model for model in load_catalog() if "7b" in model.id)
    fit = fit_at(seven_b, 8192, memory=MemoryStatus(3 * GB, 8 * GB))
    code, values = refusal(fit)
    assert code == "model_too_big"
    assert values["needed_mb"] == -(-fit.needed // 1_000_000) and values["available_mb"] == 3000
    suggested = next(model for model in load_catalog() if model.name == values["suggestion"])
    assert suggested.ram_needed(MIN_CONTEXT, 256) <= 3 * GB
    for language in ("en", "pt_BR"):
        text = message(code, language, **values)
        assert f"{values['needed_mb']} MB" in text and "3000 MB" in text and values["suggestion"] in text


def test_with_too_little_memory_for_any_download_the_refusal_says_so() -> None:
    fit = fit_at(_qwen_like(), 8192, memory=MemoryStatus(500_000_000, 1 * GB))
    code, values = refusal(fit)
    assert code == "model_too_big_no_smaller" and values["suggestion"] == ""
    assert "500 MB" in message(code, "pt_BR", **values)
    code, values = refusal(fit, now=False)
    assert code == "model_too_big_computer" and "1000 MB" in message(code, "en", **values)


def test_a_missing_file_and_a_file_that_is_not_gguf_are_told_apart(tmp_path: Path) -> None:
    with pytest.raises(ModelFileError) as missing:
        fit_model(tmp_path / "nothing.gguf")
    assert missing.value.code == "model_missing"
    other = tmp_path / "notes.gguf"
    other.write_text("hello", encoding="utf-8")
    with pytest.raises(ModelFileError) as unreadable:
        fit_model(other)
    assert unreadable.value.code == "model_unreadable"

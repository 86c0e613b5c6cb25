"""Fit before load with real llama.cpp loads: the context comes from the GGUF header and the memory available, a
model that does not fit is refused before llama.cpp allocates anything, and the generator reports the context
llama.cpp really has. ``STUDYJOBS_MEMORY_MB`` sets the memory this process sees."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.app.models.catalog import ram_needed
from core.app.models.fit import DAEMON_N_BATCH, read_gguf_shape
from daemon.guide_writer.writer import GuideWriter
from daemon.llm.errors import ModelTooBigError
from daemon.llm.llamacpp import LlamaCppGenerator
from daemon.llm.local_model import is_loaded, unload_all
from daemon.llm.models import ModelChoice, create_generator
from devkit.tiny_gguf import TinyModelShape, write_tiny_model


@pytest.fixture(autouse=True)
def _unload() -> Iterator[None]:
    yield
    unload_all()


def _needed(path: Path, n_ctx: int) -> int:
    shape = read_gguf_shape(path)
    return ram_needed(shape.weights_bytes, shape.architecture, n_ctx, DAEMON_N_BATCH)


async def test_a_gguf_file_gets_its_trained_context_and_the_writer_plans_with_what_llama_cpp_allocated(
    tmp_path: Path,
) -> None:
    path = write_tiny_model(tmp_path / "tiny-4k.gguf", TinyModelShape(n_ctx_train=4096))
    generator = create_generator(ModelChoice(kind="gguf", path=path, n_threads=1))
    model = await generator.load()  # type: ignore[attr-defined]
    assert model.llama.n_ctx() == 4096 == generator.context_window
    writer = GuideWriter(generator)
    assert writer.generator.context_window == model.n_ctx


async def test_with_little_memory_the_automatic_context_shrinks_until_the_model_fits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_tiny_model(tmp_path / "tiny-8k.gguf", TinyModelShape(n_ctx_train=8192))
    room = (_needed(path, 4096) + _needed(path, 4608)) // 2
    monkeypatch.setenv("STUDYJOBS_MEMORY_MB", f"{room / 1e6},100000")
    generator = LlamaCppGenerator(path, n_threads=1)
    model = await generator.load()
    assert model.llama.n_ctx() == 4096 == generator.context_window


async def test_a_context_setting_is_kept_up_to_the_trained_context(tmp_path: Path) -> None:
    path = write_tiny_model(tmp_path / "tiny-set.gguf", TinyModelShape(n_ctx_train=4096))
    assert LlamaCppGenerator(path, context=3072, n_threads=1).n_ctx == 3072
    assert LlamaCppGenerator(path, context=65536, n_threads=1).n_ctx == 4096


async def test_a_model_too_big_for_the_memory_is_refused_before_llama_cpp_loads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_tiny_model(tmp_path / "tiny-big.gguf")
    monkeypatch.setenv("STUDYJOBS_MEMORY_MB", "8,16000")
    generator = LlamaCppGenerator(path, n_threads=1)
    with pytest.raises(ModelTooBigError) as refused:
        await generator.load()
    assert refused.value.code == "model_too_big_no_smaller"  # no catalog download fits 8 MB either
    values = refused.value.values
    assert values["available_mb"] == 8 and values["needed_mb"] == -(-_needed(path, 2048) // 1_000_000)
    assert values["context"] == 2048
    assert not generator.loaded and not is_loaded(path, n_ctx=2048, n_threads=1, n_batch=DAEMON_N_BATCH)

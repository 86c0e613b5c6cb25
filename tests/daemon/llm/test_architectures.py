"""Each model runs as it needs to: the architectures the bundled llama.cpp runs (asked of llama.cpp itself), a
plain refusal of any other before loading, and a catalog entry's run settings (chat template arguments, context
cap, bound on each answer) reaching llama.cpp. The files are tiny GGUFs written with the ``gguf`` package, one per
architecture, loaded and run by the real llama.cpp."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.app.messages.sentences import message
from core.app.models.catalog import RunSettings, load_catalog
from daemon.llm.architectures import check_architecture, supported_architectures
from daemon.llm.base import ChatMessage
from daemon.llm.errors import ModelUnsupportedError
from daemon.llm.llamacpp import LlamaCppGenerator, unload_all
from daemon.llm.models import ModelChoice, create_generator
from devkit.tiny_gguf import CHATML_TEMPLATE, TINY_ARCHITECTURES, expected_tiny_reply, write_tiny_model

_THINKING_TEMPLATE = (
    CHATML_TEMPLATE + "{% if enable_thinking is defined and not enable_thinking %}<think></think>{% endif %}"
)


def test_the_bundled_llama_cpp_runs_every_architecture_of_the_catalog() -> None:
    known = supported_architectures()
    assert {"llama", "qwen2", "qwen3"} <= known and len(known) > 50
    assert "clip" not in known and "(unknown)" not in known
    for model in load_catalog():
        assert model.run.gguf_architecture in known, model.id


@pytest.mark.parametrize("architecture", TINY_ARCHITECTURES)
async def test_a_tiny_model_of_each_catalog_architecture_is_accepted_loaded_and_answers(
    tmp_path: Path, architecture: str
) -> None:
    path = write_tiny_model(tmp_path / f"{architecture}.gguf", architecture=architecture)
    assert check_architecture(path) == architecture
    generator = create_generator(ModelChoice(kind="gguf", path=path, n_threads=1, n_ctx=512))
    try:
        reply = await generator.chat([ChatMessage(role="user", content="hi")], max_tokens=8, temperature=0.0)
        assert reply == expected_tiny_reply(8)
    finally:
        unload_all()


def test_a_file_of_an_architecture_llama_cpp_does_not_know_is_refused_with_a_plain_sentence_before_loading(
    tmp_path: Path,
) -> None:
    path = write_tiny_model(tmp_path / "future.gguf", architecture="qwen9-omni")
    with pytest.raises(ModelUnsupportedError) as refused:
        create_generator(ModelChoice(kind="gguf", path=path, n_threads=1))
    error = refused.value
    assert error.values == {"architecture": "qwen9-omni", "file": "future.gguf"} and not error.transient
    assert message(error.code, "en", **error.values) == (
        "The model future.gguf is a qwen9-omni model, which this version of StudyJobs cannot run yet. Choose "
        "another model in Settings, or update StudyJobs."
    )
    assert "qwen9-omni" in message(error.code, "pt_BR", **error.values)


async def test_the_chat_template_gets_the_catalogs_arguments_so_reasoning_is_turned_off(tmp_path: Path) -> None:
    path = write_tiny_model(tmp_path / "thinking.gguf", architecture="qwen3", chat_template=_THINKING_TEMPLATE)
    messages = [ChatMessage(role="user", content="hi")]
    plain = LlamaCppGenerator(path, n_ctx=512, n_threads=1)
    told = LlamaCppGenerator(path, n_ctx=512, n_threads=1, template_kwargs={"enable_thinking": False})
    try:
        model = await plain.load()
        assert "<think></think>" not in model.llama.detokenize(model.prompt_tokens(messages)).decode()
        prompt = model.prompt_tokens(messages, told.template_kwargs)
        assert model.llama.detokenize(prompt).decode().endswith("assistant\n<think></think>")
        assert await told.chat(messages, max_tokens=5, temperature=0.0) == expected_tiny_reply(5)
    finally:
        unload_all()


async def test_a_catalog_models_context_cap_and_answer_bound_reach_llama_cpp(tmp_path: Path) -> None:
    path = write_tiny_model(tmp_path / "capped.gguf", architecture="mistral3")
    run = RunSettings(
        chat_template_kwargs={}, max_context=1024, max_output_tokens=6, min_llama_cpp_python=None, gguf_architecture=""
    )
    generator = create_generator(ModelChoice(kind="gguf", path=path, n_threads=1, n_ctx=4096, run=run))
    try:
        assert isinstance(generator, LlamaCppGenerator) and generator.n_ctx == 1024
        reply = await generator.chat([ChatMessage(role="user", content="hi")], max_tokens=40, temperature=0.0)
        assert reply == expected_tiny_reply(6)
        assert generator.context_window == 1024
    finally:
        unload_all()

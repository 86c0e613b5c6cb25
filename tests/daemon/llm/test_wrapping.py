""":class:`daemon.llm.base.WrappingGenerator` on the real tiny model: a wrapper passes every call it does not
override to its inner generator, and a stop set from another thread while the inner model writes ends the wrapped
call with the inner model's partial text."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from daemon.llm.base import ChatMessage, ChatRequest, TextGenerator, TokenProgress, WrappingGenerator
from daemon.llm.errors import GenerationStoppedError
from daemon.llm.llamacpp import LlamaCppGenerator
from daemon.llm.openai_compat import OpenAICompatibleGenerator
from daemon.llm.sampling import DEFAULT_SAMPLING, retry_sampling
from devkit.hanging import HangingGenerator
from devkit.recording import RecordingGenerator
from devkit.tiny_gguf import expected_tiny_reply

HELLO: list[ChatMessage] = [{"role": "user", "content": "hello"}]


class Word(BaseModel):
    word: str = Field(max_length=8)


class Shouting(WrappingGenerator):
    """Overrides one call only: a plain answer comes back in capitals."""

    async def generate(self, request: ChatRequest) -> str:
        return (await super().generate(request)).upper()


async def test_a_wrapper_that_overrides_nothing_answers_as_its_inner_generator(tiny: LlamaCppGenerator) -> None:
    wrapped = WrappingGenerator(tiny)
    assert isinstance(wrapped, TextGenerator)
    assert await wrapped.chat(HELLO, max_tokens=12) == await tiny.chat(HELLO, max_tokens=12) == expected_tiny_reply(12)
    assert await wrapped.chat_structured(HELLO, Word, max_tokens=40) == await tiny.chat_structured(
        HELLO, Word, max_tokens=40
    )
    assert await wrapped.count_tokens("abc def") == await tiny.count_tokens("abc def")
    assert wrapped.context_window == tiny.context_window
    assert await wrapped.load() is await tiny.load()
    assert (wrapped.model_path, wrapped.n_threads, wrapped.sampling, wrapped.loaded) == (
        tiny.model_path, tiny.n_threads, tiny.sampling, True,
    )  # fmt: skip
    await wrapped.aclose()  # the inner generator's: the shared model stays loaded
    assert tiny.loaded


async def test_a_wrapper_changes_only_what_it_overrides_and_its_retry_generator_keeps_the_change(
    tiny: LlamaCppGenerator,
) -> None:
    shouting = Shouting(tiny)
    assert await shouting.chat(HELLO, max_tokens=12) == expected_tiny_reply(12).upper()
    assert await shouting.chat_structured(HELLO, Word, max_tokens=40) == await tiny.chat_structured(
        HELLO, Word, max_tokens=40
    )  # not overridden: the inner generator's answer, unchanged
    retry = shouting.with_sampling(retry_sampling(tiny.sampling))
    assert isinstance(retry, Shouting) and retry is not shouting
    assert isinstance(retry.inner, LlamaCppGenerator) and retry.inner is not tiny
    assert retry.sampling == retry_sampling(tiny.sampling) and shouting.sampling == tiny.sampling
    plain = await retry.inner.chat(HELLO, max_tokens=5)
    assert await retry.chat(HELLO, max_tokens=5) == plain.upper()


async def test_a_wrapper_of_a_generator_without_sampling_is_its_own_retry_generator() -> None:
    remote = OpenAICompatibleGenerator("http://127.0.0.1:9", "some-model", context_window=2048)
    wrapped = RecordingGenerator(remote)
    assert wrapped.with_sampling(retry_sampling(DEFAULT_SAMPLING)) is wrapped
    assert getattr(wrapped, "sampling", "none") == "none"  # as the inner generator: no such attribute
    assert (wrapped.model_name, wrapped.context_window) == ("some-model", 2048)
    assert await wrapped.count_tokens("abcdefg") == await remote.count_tokens("abcdefg")
    await wrapped.aclose()


async def test_a_stop_set_from_another_thread_during_generation_stops_the_wrapped_generation(
    tiny_model: Path,
) -> None:
    inner = LlamaCppGenerator(tiny_model, n_ctx=8192, n_threads=1)
    wrapped = RecordingGenerator(HangingGenerator(inner, marker="never in this conversation"))
    writing, stop = threading.Event(), threading.Event()
    heard: list[int] = []

    def on_token(progress: TokenProgress) -> None:
        heard.append(progress.completion_tokens)
        if progress.completion_tokens >= 50:
            writing.set()

    def stop_once_writing() -> None:
        if writing.wait(60):
            stop.set()

    stopper = threading.Thread(target=stop_once_writing, name="test-stopper")
    stopper.start()
    try:
        with pytest.raises(GenerationStoppedError) as caught:
            await wrapped.chat(HELLO, max_tokens=6000, stop_event=stop, on_token=on_token)
    finally:
        writing.set()
        stopper.join(10)
    stopped = caught.value
    assert stop.is_set() and stopped.phase == "generation"
    assert 50 <= stopped.completion_tokens < 6000
    assert stopped.partial_text == expected_tiny_reply(len(stopped.partial_text)) and len(stopped.partial_text) >= 50
    assert heard[-1] == wrapped.record.completion_tokens  # the wrapper heard each token the inner model wrote
    assert wrapped.record.chats == 1
    assert await wrapped.chat(HELLO, max_tokens=8) == expected_tiny_reply(8)  # the model is free again

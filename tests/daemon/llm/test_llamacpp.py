"""LlamaCppGenerator on the tiny deterministic model: exact outputs, structured output, and stops that are
fast."""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from daemon.llm.base import ChatMessage, TextGenerator, TokenProgress
from daemon.llm.errors import (
    ContextOverflowError,
    GenerationStoppedError,
    InvalidOutputError,
    ModelMissingError,
    ModelUnreadableError,
)
from daemon.llm.llamacpp import LlamaCppGenerator, default_n_threads, shared_model
from devkit.tiny_gguf import expected_tiny_reply
from tests.waiting import async_wait_until

HELLO: list[ChatMessage] = [{"role": "user", "content": "hello"}]
DECODE_STOP_LIMIT = 0.100
PROMPT_STOP_LIMIT = 0.250


class Flags(BaseModel):
    name: str = Field(max_length=10)
    ok: bool
    ids: list[int]


class Unbounded(BaseModel):
    text: str


def long_prompt(tag: str, words: int = 1200) -> list[ChatMessage]:
    """A prompt of ~5 tokens a word with a unique start, so no prefix of it is cached."""
    return [{"role": "user", "content": f"{tag} " + "word " * words}]


@pytest.fixture
def generator(tiny_model: Path) -> LlamaCppGenerator:
    return LlamaCppGenerator(tiny_model, n_ctx=8192, n_threads=1, n_batch=256)


async def test_greedy_chat_is_exact(generator: LlamaCppGenerator) -> None:
    assert isinstance(generator, TextGenerator)
    assert await generator.chat(HELLO, max_tokens=30) == expected_tiny_reply(30)
    assert await generator.chat(HELLO, max_tokens=3) == "abc"


async def test_on_token_counts_every_token_on_the_loop_thread(generator: LlamaCppGenerator) -> None:
    seen: list[TokenProgress] = []
    threads: set[int] = set()

    def on_token(progress: TokenProgress) -> None:
        seen.append(progress)
        threads.add(threading.get_ident())

    text = await generator.chat(HELLO, max_tokens=40, on_token=on_token)
    assert text == expected_tiny_reply(40)
    assert [p.completion_tokens for p in seen] == list(range(1, 41))
    assert "".join(p.text for p in seen) == text
    assert {p.prompt_tokens for p in seen} == {len(HELLO[0]["content"]) + 19}
    assert threads == {threading.get_ident()}


async def test_a_prompt_longer_than_a_batch_reports_each_batch_read_before_the_first_token(
    generator: LlamaCppGenerator,
) -> None:
    """The time left of a long prompt needs the machine's reading pace before the model writes anything: after
    each batch of 256 tokens, one report of the tokens read so far, on the loop thread, growing, then the tokens."""
    seen: list[TokenProgress] = []
    threads: set[int] = set()

    def on_token(progress: TokenProgress) -> None:
        seen.append(progress)
        threads.add(threading.get_ident())

    await generator.chat(long_prompt("batches", words=200), max_tokens=5, on_token=on_token)
    reading = [p for p in seen if p.completion_tokens == 0]
    prompt = seen[-1].prompt_tokens
    assert prompt > 3 * 256
    read = [p.prompt_read for p in reading]  # from the cached prefix of the chat template on, if any
    assert len(read) >= 3 and read[0] >= 256 and read[-1] < prompt  # the last batch is followed by the first token
    assert all(later - earlier == 256 for earlier, later in itertools.pairwise(read))
    assert all(p.prompt_tokens == prompt and p.text == "" for p in reading)
    assert seen[: len(reading)] == reading  # all before the first token
    assert [p.completion_tokens for p in seen[len(reading) :]] == list(range(1, 6))
    assert threads == {threading.get_ident()}


async def test_structured_output_is_constrained_and_validated(generator: LlamaCppGenerator) -> None:
    result = await generator.chat_structured(HELLO, Flags, max_tokens=100)
    assert result == Flags(name="abcdefghij", ok=True, ids=[1])


async def test_structured_output_cut_by_max_tokens_is_an_invalid_output(generator: LlamaCppGenerator) -> None:
    with pytest.raises(InvalidOutputError) as caught:
        await generator.chat_structured(HELLO, Unbounded, max_tokens=20)
    assert caught.value.transient is False
    assert caught.value.code == "invalid_output"


async def test_stop_during_generation_returns_fast_and_keeps_the_partial_text(
    generator: LlamaCppGenerator,
) -> None:
    stop = threading.Event()
    set_at: list[float] = []

    def on_token(progress: TokenProgress) -> None:
        if progress.completion_tokens == 300 and not stop.is_set():
            stop.set()
            set_at.append(time.perf_counter())

    with pytest.raises(GenerationStoppedError) as caught:
        await generator.chat(HELLO, max_tokens=6000, stop_event=stop, on_token=on_token)
    latency = time.perf_counter() - set_at[0]
    assert latency < DECODE_STOP_LIMIT, f"stop took {latency * 1000:.1f} ms"
    stopped = caught.value
    assert stopped.phase == "generation"
    assert 300 <= stopped.completion_tokens < 6000
    assert len(stopped.partial_text) >= 300
    assert stopped.partial_text == expected_tiny_reply(len(stopped.partial_text))
    # The same model answers the next request normally.
    assert await generator.chat(HELLO, max_tokens=30) == expected_tiny_reply(30)


async def test_stop_during_prompt_processing_aborts_inside_llama_decode(generator: LlamaCppGenerator) -> None:
    model = await generator.load()
    # How long the full prompt takes, for reference (a different start: nothing cached).
    started = time.perf_counter()
    await generator.chat(long_prompt("reference"), max_tokens=1)
    full_prompt_seconds = time.perf_counter() - started
    assert full_prompt_seconds > 0.4, "the prompt is too short to test a stop inside it"

    stop = threading.Event()
    checks_before = model.abort_checks
    task_started = time.perf_counter()
    task = asyncio.create_task(generator.chat(long_prompt("stopped"), max_tokens=20, stop_event=stop))
    # Inside llama_decode: llama.cpp is calling our abort callback between graph nodes.
    await async_wait_until(
        lambda: model.abort_checks - checks_before >= 20,
        timeout=10.0,
        what="prompt processing to start",
        interval=0.002,
    )
    stop.set()
    set_at = time.perf_counter()
    with pytest.raises(GenerationStoppedError) as caught:
        await task
    returned_at = time.perf_counter()
    latency = returned_at - set_at
    assert latency < PROMPT_STOP_LIMIT, f"stop took {latency * 1000:.1f} ms"
    assert returned_at - task_started < full_prompt_seconds, "the prompt was processed to the end"
    assert caught.value.phase == "prompt"
    assert caught.value.completion_tokens == 0
    assert caught.value.partial_text == ""
    # After the abort the context is reset: the next request (same prompt prefix even) is exact.
    assert await generator.chat(long_prompt("stopped", words=50), max_tokens=30) == expected_tiny_reply(30)
    assert await generator.chat(HELLO, max_tokens=30) == expected_tiny_reply(30)


async def test_stop_set_before_the_call_does_no_work(generator: LlamaCppGenerator) -> None:
    stop = threading.Event()
    stop.set()
    with pytest.raises(GenerationStoppedError) as caught:
        await generator.chat(HELLO, max_tokens=30, stop_event=stop)
    assert caught.value.phase == "prompt"


async def test_cancelling_the_task_stops_the_thread(generator: LlamaCppGenerator) -> None:
    model = await generator.load()
    tokens: list[int] = []
    task = asyncio.create_task(
        generator.chat(HELLO, max_tokens=6000, on_token=lambda p: tokens.append(p.completion_tokens))
    )
    await async_wait_until(lambda: len(tokens) >= 50, timeout=10.0, what="tokens", interval=0.002)
    task.cancel()
    cancelled_at = time.perf_counter()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.perf_counter() - cancelled_at < DECODE_STOP_LIMIT
    assert not model.lock.locked(), "the generation thread still holds the model"
    assert not [t for t in threading.enumerate() if t.name == "llm-generate"]
    assert await generator.chat(HELLO, max_tokens=5) == "abcde"


async def test_one_generation_at_a_time_and_both_complete(generator: LlamaCppGenerator) -> None:
    first, second = await asyncio.gather(
        generator.chat(HELLO, max_tokens=500), generator.chat(long_prompt("other", 100), max_tokens=200)
    )
    assert first == expected_tiny_reply(500)
    assert second == expected_tiny_reply(200)


async def test_a_waiting_request_can_be_stopped_before_it_gets_the_model(generator: LlamaCppGenerator) -> None:
    model = await generator.load()
    tokens: list[int] = []
    busy = asyncio.create_task(
        generator.chat(HELLO, max_tokens=6000, on_token=lambda p: tokens.append(p.completion_tokens))
    )
    await async_wait_until(
        lambda: bool(tokens), timeout=10.0, what="the first generation to hold the model", interval=0.002
    )
    stop = threading.Event()
    waiting = asyncio.create_task(generator.chat(HELLO, max_tokens=10, stop_event=stop))
    await asyncio.sleep(0)
    stop.set()
    set_at = time.perf_counter()
    with pytest.raises(GenerationStoppedError):
        await waiting
    assert time.perf_counter() - set_at < DECODE_STOP_LIMIT
    busy.cancel()
    with pytest.raises(asyncio.CancelledError):
        await busy
    assert not model.lock.locked()


async def test_a_raising_on_token_stops_the_generation_and_surfaces(generator: LlamaCppGenerator) -> None:
    def on_token(progress: TokenProgress) -> None:
        if progress.completion_tokens == 5:
            raise KeyError("caller bug")

    with pytest.raises(KeyError, match="caller bug"):
        await generator.chat(HELLO, max_tokens=3000, on_token=on_token)
    assert await generator.chat(HELLO, max_tokens=4) == "abcd"


async def test_prompt_longer_than_the_context_is_permanent(tiny_model: Path) -> None:
    small = LlamaCppGenerator(tiny_model, n_ctx=256, n_threads=1)
    with pytest.raises(ContextOverflowError) as caught:
        await small.chat(long_prompt("big", 200), max_tokens=10)
    assert caught.value.transient is False
    assert "context window" in str(caught.value)


async def test_count_tokens_uses_the_model_tokenizer(generator: LlamaCppGenerator) -> None:
    assert await generator.count_tokens("héllo") == 6  # byte-level: é is two bytes


async def test_the_model_is_loaded_once_and_shared(tiny_model: Path) -> None:
    one = LlamaCppGenerator(tiny_model, n_ctx=8192, n_threads=1, n_batch=256)
    two = LlamaCppGenerator(tiny_model, n_ctx=8192, n_threads=1, n_batch=256)
    assert await one.load() is await two.load()
    assert shared_model(tiny_model, n_ctx=8192, n_threads=1, n_batch=256) is await one.load()


def test_default_threads_leave_one_core() -> None:
    assert default_n_threads() >= 1
    assert LlamaCppGenerator(Path("x.gguf"), n_threads=None).n_threads == default_n_threads()
    assert LlamaCppGenerator(Path("x.gguf"), n_threads=3).n_threads == 3


async def test_missing_model_is_a_permanent_error(tmp_path: Path) -> None:
    with pytest.raises(ModelMissingError) as caught:
        await LlamaCppGenerator(tmp_path / "nope.gguf").chat(HELLO, max_tokens=1)
    assert caught.value.transient is False
    assert caught.value.code == "model_missing"
    assert "nope.gguf" in str(caught.value)


async def test_a_file_that_is_not_gguf_is_unreadable(tmp_path: Path) -> None:
    bogus = tmp_path / "notes.gguf"
    bogus.write_text("these are my notes, not a model")
    with pytest.raises(ModelUnreadableError) as caught:
        await LlamaCppGenerator(bogus).load()
    assert caught.value.code == "model_unreadable"


@pytest.fixture
def truncated_gguf(tmp_path: Path, tiny_model: Path) -> Path:
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(tiny_model.read_bytes()[:4096])
    return broken


async def test_a_truncated_gguf_is_unreadable(truncated_gguf: Path) -> None:
    broken = truncated_gguf
    with pytest.raises(ModelUnreadableError):
        await LlamaCppGenerator(broken, n_ctx=512, n_threads=1).load()

"""OpenAICompatibleGenerator against real servers on loopback: llama_cpp.server with the tiny model, and a
stdlib
server that answers fixed statuses."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from pydantic import BaseModel, Field

from daemon.llm.base import ChatMessage, TextGenerator, TokenProgress
from daemon.llm.errors import (
    BadRequestError,
    GenerationStoppedError,
    LLMError,
    RateLimitedError,
    ServerError,
    ServerTimeoutError,
    ServerUnreachableError,
    UnauthorizedError,
    UnknownModelError,
)
from daemon.llm.openai_compat import OpenAICompatibleGenerator, normalize_base_url
from devkit.tiny_gguf import expected_tiny_reply
from tests.waiting import async_wait_until

HELLO: list[ChatMessage] = [{"role": "user", "content": "hello"}]
RETURN_LIMIT = 0.100


class Flags(BaseModel):
    name: str = Field(max_length=10)
    ok: bool


@pytest.fixture
async def remote(llama_server: str) -> AsyncIterator[OpenAICompatibleGenerator]:
    generator = OpenAICompatibleGenerator(llama_server, "tiny")
    yield generator
    await generator.aclose()


async def test_streaming_chat_is_exact(remote: OpenAICompatibleGenerator) -> None:
    assert isinstance(remote, TextGenerator)
    seen: list[TokenProgress] = []
    text = await remote.chat(HELLO, max_tokens=30, on_token=seen.append)
    assert text == expected_tiny_reply(30)
    assert "".join(p.text for p in seen) == text
    assert seen[-1].completion_tokens >= 30
    assert [p.completion_tokens for p in seen] == list(range(1, len(seen) + 1))


async def test_structured_output_falls_back_to_json_object_and_validates(
    remote: OpenAICompatibleGenerator,
) -> None:
    # llama-cpp-python's server rejects OpenAI's json_schema format (422) and takes json_object + schema.
    assert await remote.chat_structured(HELLO, Flags, max_tokens=60) == Flags(name="abcdefghij", ok=True)
    assert await remote.chat_structured(HELLO, Flags, max_tokens=60) == Flags(name="abcdefghij", ok=True)


async def test_cancelling_the_task_returns_at_once(remote: OpenAICompatibleGenerator) -> None:
    seen: list[TokenProgress] = []
    task = asyncio.create_task(remote.chat(HELLO, max_tokens=3000, on_token=seen.append))
    await async_wait_until(lambda: len(seen) >= 20, timeout=20.0, what="streamed tokens", interval=0.002)
    task.cancel()
    cancelled_at = time.perf_counter()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.perf_counter() - cancelled_at < RETURN_LIMIT
    # The connection was dropped, not reused half-read: the next request works.
    assert await remote.chat(HELLO, max_tokens=5) == "abcde"


async def test_stop_event_during_streaming_keeps_the_partial_text(
    remote: OpenAICompatibleGenerator,
) -> None:
    stop = threading.Event()
    set_at: list[float] = []

    def on_token(progress: TokenProgress) -> None:
        if progress.completion_tokens == 20:
            stop.set()
            set_at.append(time.perf_counter())

    with pytest.raises(GenerationStoppedError) as caught:
        await remote.chat(HELLO, max_tokens=3000, stop_event=stop, on_token=on_token)
    assert time.perf_counter() - set_at[0] < RETURN_LIMIT
    assert caught.value.partial_text == expected_tiny_reply(20)
    assert caught.value.completion_tokens == 20


async def test_stop_event_set_from_another_thread_while_waiting_for_the_server(
    status_server: Callable[[int], Any],
) -> None:
    server = status_server(0)  # accepts, never answers
    generator = OpenAICompatibleGenerator(server.url, "m")
    stop = threading.Event()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    try:
        with pytest.raises(GenerationStoppedError) as caught:
            await generator.chat(HELLO, max_tokens=10, stop_event=stop)
        assert caught.value.phase == "prompt"
    finally:
        timer.cancel()
        timer.join()
        await generator.aclose()


async def test_unknown_model_is_permanent(llama_server: str) -> None:
    generator = OpenAICompatibleGenerator(llama_server, "no-such-model")
    try:
        with pytest.raises(UnknownModelError) as caught:
            await generator.chat(HELLO, max_tokens=5)
    finally:
        await generator.aclose()
    assert caught.value.transient is False
    assert caught.value.code == "unknown_model"
    assert "no-such-model" in str(caught.value)


async def test_server_down_is_transient(unused_port: int) -> None:
    generator = OpenAICompatibleGenerator(f"http://127.0.0.1:{unused_port}", "tiny")
    try:
        with pytest.raises(ServerUnreachableError) as caught:
            await generator.chat(HELLO, max_tokens=5)
    finally:
        await generator.aclose()
    assert caught.value.transient is True
    assert caught.value.code == "server_unreachable"


@pytest.mark.parametrize(
    ("status", "error", "transient"),
    [
        (429, RateLimitedError, True),
        (503, ServerError, True),
        (500, ServerError, True),
        (400, BadRequestError, False),
        (401, UnauthorizedError, False),
    ],
)
async def test_http_status_classification(
    status_server: Callable[[int], Any], status: int, error: type[LLMError], transient: bool
) -> None:
    server = status_server(status)
    generator = OpenAICompatibleGenerator(server.url, "m")
    try:
        with pytest.raises(error) as caught:
            await generator.chat(HELLO, max_tokens=5)
    finally:
        await generator.aclose()
    assert caught.value.transient is transient
    assert server.requests, "the request reached the server"


async def test_status_after_the_model_check_is_classified_too(status_server: Callable[[int], Any]) -> None:
    server = status_server(200)
    generator = OpenAICompatibleGenerator(server.url, "m")
    try:
        await generator._check_model()  # 200 with a body that is not a model list: accepted
        server.status = 429
        with pytest.raises(RateLimitedError):
            await generator.chat(HELLO, max_tokens=5)
        assert server.requests[-1] == "/v1/chat/completions"
    finally:
        await generator.aclose()


async def test_silent_server_times_out_as_transient(status_server: Callable[[int], Any]) -> None:
    server = status_server(0)
    generator = OpenAICompatibleGenerator(server.url, "m", read_timeout=0.2)
    try:
        with pytest.raises(ServerTimeoutError) as caught:
            await generator.chat(HELLO, max_tokens=5)
    finally:
        await generator.aclose()
    assert caught.value.transient is True


def test_invalid_endpoint_is_a_permanent_error() -> None:
    with pytest.raises(BadRequestError):
        OpenAICompatibleGenerator("ftp://example/", "m")


def test_base_url_normalisation() -> None:
    assert normalize_base_url("http://127.0.0.1:11434") == "http://127.0.0.1:11434/v1"
    assert normalize_base_url("http://127.0.0.1:1234/v1/") == "http://127.0.0.1:1234/v1"
    assert normalize_base_url("https://host/api/v1") == "https://host/api/v1"


async def test_token_estimate_errs_high() -> None:
    generator = OpenAICompatibleGenerator("http://127.0.0.1:9", "m")
    assert await generator.count_tokens("a" * 35) == 10
    assert generator.context_window == 4096


async def test_a_refused_key_quoted_back_by_the_server_is_in_neither_the_error_nor_its_detail():
    import http.server

    from tests.fakeservers import FakeServer

    key = "sk-quoted-back-7731"

    def refuse(handler: http.server.BaseHTTPRequestHandler) -> tuple[int, Any]:
        sent = handler.headers.get("Authorization") or ""
        return 401, {"error": {"message": f"Incorrect API key provided: {sent}"}}

    with FakeServer({"/v1/models": refuse}) as server:
        generator = OpenAICompatibleGenerator(server.address, "m", api_key=key)
        try:
            with pytest.raises(UnauthorizedError) as raised:
                await generator.chat([{"role": "user", "content": "hi"}], max_tokens=4)
        finally:
            await generator.aclose()
    error = raised.value
    assert server.requests[0][2] == f"Bearer {key}"
    assert "Incorrect API key provided: Bearer ***" in error.detail
    for text in (str(error), error.message, error.detail, repr(error.args)):
        assert key not in text

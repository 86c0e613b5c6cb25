"""The context size of a model server, asked where each server tells it, over real HTTP on loopback.

The servers here answer as llama.cpp's server (``/props``), LM Studio (``/api/v0/models/{model}``), Ollama
(``/api/show``) and vLLM (``/v1/models``) document; anything else answers 404.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

import httpx
import pytest

from daemon.llm.openai_compat import OpenAICompatibleGenerator
from daemon.llm.server_context import server_context, server_root
from tests.loopback import LoopbackServer, read_body, send_json

Routes = dict[tuple[str, str], Any]


class JsonServer:
    """Answers ``(method, path)`` in ``routes`` with that JSON, anything else with 404; records each request."""

    def __init__(self, routes: Routes) -> None:
        self.routes = routes
        self.requests: list[tuple[str, str, Any]] = []
        self.loopback = LoopbackServer(self._answer)
        self.url = self.loopback.url

    def _answer(self, handler: BaseHTTPRequestHandler) -> None:
        raw = read_body(handler)
        self.requests.append((handler.command, handler.path, json.loads(raw) if raw else None))
        found = self.routes.get((handler.command, handler.path))
        send_json(handler, 200 if found is not None else 404, found if found is not None else {"error": "not found"})

    def close(self) -> None:
        self.loopback.close()


@pytest.fixture
def json_server() -> Iterator[Callable[[Routes], JsonServer]]:
    servers: list[JsonServer] = []

    def start(routes: Routes) -> JsonServer:
        servers.append(JsonServer(routes))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient() as http:
        yield http


LLAMA_CPP_PROPS = {"default_generation_settings": {"n_ctx": 6144, "temperature": 0.8}, "total_slots": 1}
OLLAMA_SHOW = {
    "modelfile": "# Modelfile",
    "parameters": 'num_ctx 12288\nstop "<|im_end|>"',
    "model_info": {"general.architecture": "qwen2", "qwen2.context_length": 32768},
}


async def test_a_llama_cpp_server_tells_its_slot_context_in_props(json_server, client) -> None:
    server = json_server({("GET", "/props"): LLAMA_CPP_PROPS})
    assert await server_context(client, f"{server.url}/v1", "any") == (6144, "server")


async def test_lm_studio_tells_the_context_a_loaded_model_runs_with(json_server, client) -> None:
    loaded = {"id": "qwen2.5-3b", "state": "loaded", "max_context_length": 32768, "loaded_context_length": 8192}
    server = json_server({("GET", "/api/v0/models/qwen2.5-3b"): loaded})
    assert await server_context(client, f"{server.url}/v1", "qwen2.5-3b") == (8192, "server")


async def test_a_model_lm_studio_has_not_loaded_only_tells_its_trained_context(json_server, client) -> None:
    unloaded = {"id": "llama-3.2-3b", "state": "not-loaded", "max_context_length": 131072}
    server = json_server({("GET", "/api/v0/models/llama-3.2-3b"): unloaded})
    assert await server_context(client, f"{server.url}/v1", "llama-3.2-3b") == (4096, "trained")
    assert await server_context(client, f"{server.url}/v1", "llama-3.2-3b", setting=16384) == (16384, "trained")


async def test_ollama_tells_num_ctx_from_the_models_parameters_in_api_show(json_server, client) -> None:
    server = json_server({("POST", "/api/show"): OLLAMA_SHOW})
    assert await server_context(client, server.url, "qwen2.5:3b") == (12288, "server")
    assert server.requests[-1] == ("POST", "/api/show", {"model": "qwen2.5:3b"})


async def test_an_ollama_model_without_num_ctx_gets_the_smaller_of_trained_and_the_default(json_server, client) -> None:
    show = {**OLLAMA_SHOW, "parameters": 'stop "<|im_end|>"'}
    server = json_server({("POST", "/api/show"): show})
    assert await server_context(client, server.url, "qwen2.5:3b") == (4096, "trained")


async def test_vllm_tells_max_model_len_in_its_model_list(json_server, client) -> None:
    models = {"object": "list", "data": [{"id": "Qwen/Qwen2.5-3B", "object": "model", "max_model_len": 16384}]}
    server = json_server({("GET", "/v1/models"): models})
    assert await server_context(client, f"{server.url}/v1", "Qwen/Qwen2.5-3B") == (16384, "server")


async def test_a_smaller_context_setting_caps_what_the_server_tells(json_server, client) -> None:
    server = json_server({("GET", "/props"): LLAMA_CPP_PROPS})
    assert await server_context(client, f"{server.url}/v1", "any", setting=3000) == (3000, "server")
    assert await server_context(client, f"{server.url}/v1", "any", setting=9000) == (6144, "server")


async def test_a_server_that_tells_nothing_gets_the_setting_or_4096(json_server, client, unused_port) -> None:
    server = json_server({})
    assert await server_context(client, f"{server.url}/v1", "m") == (4096, "setting")
    assert await server_context(client, f"{server.url}/v1", "m", setting=2048) == (2048, "setting")
    closed = f"http://127.0.0.1:{unused_port}/v1"
    assert await server_context(client, closed, "m", setting=5000) == (5000, "setting")


def test_the_native_endpoints_are_asked_at_the_servers_root() -> None:
    assert server_root("http://127.0.0.1:1234/v1") == "http://127.0.0.1:1234"
    assert server_root("https://example.org/openai/v1/") == "https://example.org/openai"


async def test_the_generator_takes_the_servers_context_when_loaded(json_server) -> None:
    server = json_server({("GET", "/props"): LLAMA_CPP_PROPS})
    generator = OpenAICompatibleGenerator(server.url, "any")
    try:
        assert generator.context_window == 4096 and generator.context_source is None
        await generator.load()
        assert (generator.context_window, generator.context_source) == (6144, "server")
        asked = len(server.requests)
        await generator.load()
        assert len(server.requests) == asked
    finally:
        await generator.aclose()


async def test_llama_cpp_pythons_server_tells_nothing_so_the_setting_stands(llama_server: str) -> None:
    generator = OpenAICompatibleGenerator(llama_server, "tiny", context_window=3072)
    try:
        await generator.load()
        assert (generator.context_window, generator.context_source) == (3072, "setting")
    finally:
        await generator.aclose()


def _trickling(stop: threading.Event) -> Callable[[BaseHTTPRequestHandler], None]:
    """Answers every request with a 200 whose body never ends (until ``stop``): one space every 50 ms (no read
    timeout trips)."""

    def answer(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.end_headers()
        try:
            while not stop.wait(0.05):
                handler.wfile.write(b" ")
                handler.wfile.flush()
        except OSError:  # the client went away
            pass

    return answer


async def test_a_server_whose_answers_never_end_is_given_up_on_at_the_deadline_and_the_setting_is_used(
    client, monkeypatch
) -> None:
    monkeypatch.setattr("daemon.llm.server_context.REQUEST_SECONDS", 0.3)
    stop = threading.Event()
    server = LoopbackServer(_trickling(stop))
    try:
        started = time.monotonic()
        found = await server_context(client, f"{server.url}/v1", "m", setting=3072)
        took = time.monotonic() - started
    finally:
        stop.set()
        server.close()
    assert found == (3072, "setting")
    assert took < 4 * 0.3 + 1.0, took  # four questions, each cut at its deadline

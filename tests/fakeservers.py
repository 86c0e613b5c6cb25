"""Model servers for the tests: real HTTP servers on 127.0.0.1 (random ports) that answer like Ollama, LM Studio
and llama.cpp's server do to the questions StudyJobs asks, and one that accepts connections and never answers."""

from __future__ import annotations

import http.server
import socket
from collections.abc import Callable
from typing import Any

from tests.loopback import LoopbackServer, send_json

Route = Callable[[http.server.BaseHTTPRequestHandler], tuple[int, Any]]

OLLAMA_TAGS = {
    "models": [
        {"name": "qwen2.5:3b", "model": "qwen2.5:3b", "size": 1929912432},
        {"name": "llama3.2:latest", "model": "llama3.2:latest", "size": 2019393189},
    ]
}
LMSTUDIO_MODELS = {
    "object": "list",
    "data": [{"id": "gemma-3-4b-it", "object": "model", "owned_by": "organization_owner"}],
}
LLAMACPP_MODELS = {"object": "list", "data": [{"id": "phi-4-mini-instruct-q4_k_m.gguf", "object": "model"}]}
LLAMACPP_PROPS = {"default_generation_settings": {"n_ctx": 8192}, "total_slots": 1}


class FakeServer:
    """A loopback server (:class:`loopback.LoopbackServer`, serving inside ``with``) answering
    ``routes[path](handler) -> (status, json)``.

    Attributes:
        requests: ``(method, path, authorization header)`` of every request, in order.
    """

    def __init__(self, routes: dict[str, Route]) -> None:
        self.routes = routes
        self.requests: list[tuple[str, str, str | None]] = []
        self.loopback = LoopbackServer(self._answer, name="fake-model-server", started=False)

    def _answer(self, handler: http.server.BaseHTTPRequestHandler) -> None:
        self.requests.append((handler.command, handler.path, handler.headers.get("Authorization")))
        route = self.routes.get(handler.path.split("?")[0])
        status, payload = route(handler) if route else (404, {"error": "not found"})
        send_json(handler, status, payload)

    @property
    def address(self) -> str:
        return self.loopback.url

    def __enter__(self) -> FakeServer:
        self.loopback.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.loopback.close()


def fake_ollama() -> FakeServer:
    """Ollama: its model list at ``/api/tags``."""
    return FakeServer({"/api/tags": lambda _h: (200, OLLAMA_TAGS)})


def fake_lmstudio() -> FakeServer:
    """LM Studio: OpenAI's model list at ``/v1/models``."""
    return FakeServer({"/v1/models": lambda _h: (200, LMSTUDIO_MODELS)})


def fake_llamacpp() -> FakeServer:
    """llama.cpp's server: ``/v1/models`` and ``/props`` (the context size it runs with)."""
    return FakeServer({"/v1/models": lambda _h: (200, LLAMACPP_MODELS), "/props": lambda _h: (200, LLAMACPP_PROPS)})


def keyed_server(key: str) -> FakeServer:
    """A remote OpenAI-compatible server that wants ``Bearer <key>`` and answers 401 otherwise."""

    def models(handler: http.server.BaseHTTPRequestHandler) -> tuple[int, Any]:
        if handler.headers.get("Authorization") != f"Bearer {key}":
            return 401, {"error": {"message": "Invalid API key", "type": "invalid_request_error"}}
        return 200, LMSTUDIO_MODELS

    return FakeServer({"/v1/models": models})


class SilentPort:
    """A loopback port that accepts connections (the kernel does) and never answers a byte."""

    def __init__(self) -> None:
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(16)

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.socket.getsockname()[1]}"

    def __enter__(self) -> SilentPort:
        return self

    def __exit__(self, *exc: object) -> None:
        self.socket.close()


def closed_port() -> str:
    """An address where nothing listens (connections are refused)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"

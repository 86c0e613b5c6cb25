"""Model servers for the tests: real HTTP servers on 127.0.0.1 (random ports) that answer like Ollama, LM Studio
and llama.cpp's server do to the questions StudyJobs asks, and one that accepts connections and never answers."""

from __future__ import annotations

import http.server
import json
import socket
import threading
from collections.abc import Callable
from typing import Any

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
    """A threaded HTTP server on a random loopback port answering ``routes[path](handler) -> (status, json)``.

    Attributes:
        requests: ``(method, path, authorization header)`` of every request, in order.
    """

    def __init__(self, routes: dict[str, Route]) -> None:
        self.routes = routes
        self.requests: list[tuple[str, str, str | None]] = []
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _answer(self) -> None:
                owner.requests.append((self.command, self.path, self.headers.get("Authorization")))
                route = owner.routes.get(self.path.split("?")[0])
                status, payload = route(self) if route else (404, {"error": "not found"})
                body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = _answer

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, name="fake-model-server", daemon=True)

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> FakeServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


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

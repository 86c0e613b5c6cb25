"""Fixtures for the daemon's tests: the real test corpus, a real llama.cpp server, real sockets (the tiny
deterministic GGUF is in tests/conftest.py)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import httpx
import pytest

from tests.daemon.corpus import Corpus, fetch_corpus
from tests.loopback import LoopbackServer, read_body, send_json
from tests.waiting import wait_until


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    """The real test documents; the tests that read them are skipped where the corpus cannot be fetched."""
    try:
        return fetch_corpus()
    except Exception as error:  # no network and no cached corpus: the real-document tests cannot run
        pytest.skip(f"the test corpus is not available: {error}")


def free_port() -> int:
    """A TCP port nobody listens on right now (loopback)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def unused_port() -> int:
    """A loopback port with nothing listening."""
    return free_port()


@pytest.fixture(scope="session")
def llama_server(tiny_model: Path) -> Iterator[str]:
    """``llama_cpp.server`` serving the tiny model as ``tiny`` on a free loopback port; yields its base
    URL."""
    port = free_port()
    # fmt: off
    command = [
        sys.executable, "-m", "llama_cpp.server",
        "--model", str(tiny_model), "--model_alias", "tiny",
        "--host", "127.0.0.1", "--port", str(port),
        "--n_ctx", "4096", "--n_threads", "1", "--verbose", "False",
    ]
    # fmt: on
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    url = f"http://127.0.0.1:{port}"

    def ready() -> bool:
        if process.poll() is not None:
            err = process.stderr.read().decode(errors="replace") if process.stderr else ""
            pytest.fail(f"llama_cpp.server exited with {process.returncode}: {err[-2000:]}")
        try:
            return httpx.get(f"{url}/v1/models", timeout=1.0).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        wait_until(ready, timeout=60.0, what="llama_cpp.server to answer", interval=0.02)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        if process.stderr:
            process.stderr.close()


class StatusServer:
    """A loopback server (:class:`loopback.LoopbackServer`) that answers every request with a fixed status (or
    hangs).

    Attributes:
        url: Base URL.
        status: HTTP status for every request; ``0`` means accept the request and never answer (until closed).
        requests: Paths requested so far.
    """

    def __init__(self, status: int) -> None:
        self.status = status
        self.requests: list[str] = []
        self.release = threading.Event()
        self.loopback = LoopbackServer(self._answer, name="status-server")
        self.url = self.loopback.url

    def _answer(self, handler: BaseHTTPRequestHandler) -> None:
        self.requests.append(handler.path)
        read_body(handler)
        if self.status == 0:
            self.release.wait(30)
            return
        send_json(handler, self.status, {"error": {"message": "fixed answer from the test server"}})

    def close(self) -> None:
        self.release.set()
        self.loopback.close()


@pytest.fixture
def status_server() -> Iterator[Callable[[int], StatusServer]]:
    """Factory: ``status_server(429)`` starts a server answering 429; all are closed at teardown."""
    servers: list[StatusServer] = []

    def start(status: int) -> StatusServer:
        server = StatusServer(status)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()

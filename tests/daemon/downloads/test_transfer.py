"""The body's ``GET`` outside ``httpx``: it still goes through the environment's proxy, follows the hub's redirect to
its CDN with the ``Range`` kept, and a redirect loop ends as a plain network failure."""

from __future__ import annotations

import http.client
import shutil
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from daemon.downloads.engine import DownloadPolicy, download_file
from daemon.downloads.hub import DownloadError, HubFile
from devkit.loopback_hub import COMMIT, FakeHub
from devkit.tiny_gguf import write_tiny_model
from tests.loopback import Answer, LoopbackServer

REPO, FILE_NAME = "tests/tiny-GGUF", "tiny.gguf"
FAST = DownloadPolicy(idle_timeout=2.0, connect_timeout=2.0, tries=2, backoff=0.05, max_backoff=0.1, max_wait=0.5)


class Server(LoopbackServer):
    """A loopback server (HTTP/1.1, ``GET`` and ``HEAD``) whose handler is ``answer(handler)``; records ``(method,
    path, Range)``."""

    def __init__(self, answer: Answer) -> None:
        self.seen: list[tuple[str, str, str | None]] = []

        def record_then_answer(handler: BaseHTTPRequestHandler) -> None:
            self.seen.append((handler.command, handler.path, handler.headers.get("Range")))
            answer(handler)

        super().__init__(record_then_answer, methods=("GET", "HEAD"), http11=True)


def _forward(handler: BaseHTTPRequestHandler) -> None:
    """A plain-HTTP forward proxy: the request line holds the absolute URL."""
    target = urlsplit(handler.path)
    upstream = http.client.HTTPConnection(target.hostname or "", target.port or 80, timeout=10)
    headers = {k: v for k, v in handler.headers.items() if k.lower() not in ("proxy-connection", "connection")}
    upstream.request(handler.command, target.path, headers=headers)
    answer = upstream.getresponse()
    handler.send_response(answer.status)
    for name, value in answer.getheaders():
        if name.lower() not in ("connection", "transfer-encoding"):
            handler.send_header(name, value)
    handler.end_headers()
    if handler.command != "HEAD":
        shutil.copyfileobj(answer, handler.wfile)
    upstream.close()


@pytest.fixture(scope="module")
def model_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_model(tmp_path_factory.mktemp("hub") / FILE_NAME)


@pytest.fixture
def hub(model_file: Path) -> Iterator[FakeHub]:
    with FakeHub({f"{REPO}/{FILE_NAME}": model_file}) as running:
        yield running


def test_the_download_goes_through_the_proxy_the_environment_names(
    hub: FakeHub, model_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    proxy = Server(_forward)
    try:
        for name in ("no_proxy", "NO_PROXY", "all_proxy", "ALL_PROXY"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("http_proxy", proxy.url)
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        result = download_file(
            HubFile(REPO, "main", FILE_NAME),
            hub_url=hub.url,
            models_dir=tmp_path,
            stop_event=threading.Event(),
            policy=FAST,
        )
        assert result.path.read_bytes() == model_file.read_bytes()
        assert ("GET", f"{hub.url}/{REPO}/resolve/{COMMIT}/{FILE_NAME}", "bytes=0-") in proxy.seen
    finally:
        proxy.close()


def test_the_get_follows_a_redirect_to_the_cdn_keeping_its_range(
    hub: FakeHub, model_file: Path, tmp_path: Path
) -> None:
    def redirect(handler: BaseHTTPRequestHandler) -> None:
        if handler.command == "HEAD":
            _forward_to(handler, hub.url)
            return
        handler.send_response(302)
        handler.send_header("Location", f"{hub.url}/cdn{handler.path}")
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    front = Server(redirect)
    try:
        result = download_file(
            HubFile(REPO, "main", FILE_NAME),
            hub_url=front.url,
            models_dir=tmp_path,
            stop_event=threading.Event(),
            policy=FAST,
        )
        assert result.path.read_bytes() == model_file.read_bytes()
        assert [(m, p.startswith("/cdn/"), r) for m, p, r, _ in hub.requests if m == "GET"] == [
            ("GET", True, "bytes=0-")
        ]
    finally:
        front.close()


def _forward_to(handler: BaseHTTPRequestHandler, base: str) -> None:
    handler.path = base + handler.path
    _forward(handler)


def test_a_redirect_loop_fails_as_a_network_failure_and_writes_nothing(hub: FakeHub, tmp_path: Path) -> None:
    def loop(handler: BaseHTTPRequestHandler) -> None:
        if handler.command == "HEAD":
            _forward_to(handler, hub.url)
            return
        handler.send_response(302)
        handler.send_header("Location", handler.path)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    front = Server(loop)
    try:
        with pytest.raises(DownloadError) as failed:
            download_file(
                HubFile(REPO, "main", FILE_NAME),
                hub_url=front.url,
                models_dir=tmp_path,
                stop_event=threading.Event(),
                policy=FAST,
            )
        assert failed.value.code == "model_network" and failed.value.transient
        assert not list(tmp_path.rglob("*.gguf"))
    finally:
        front.close()

"""A hub on loopback for tests and the benchmark: serves files like the Hugging Face hub, with fault modes.

Threading: the server runs on its own threads; :class:`Faults` fields are read under the hub's lock. The answers
it gives: docs/design/worker.md.
"""

from __future__ import annotations

import hashlib
import re
import sys
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType

__all__ = ["COMMIT", "FakeHub", "Faults"]

COMMIT = "0123456789abcdef0123456789abcdef01234567"
_SEND = 1 << 16


@dataclass
class Faults:
    """What goes wrong. Counters count down per ``GET``; ``drop_after``/``trickle_after`` apply to the next one."""

    drop_after: int | None = None
    """Close the connection after this many body bytes (headers announced the whole length)."""
    statuses: list[int] = field(default_factory=list)
    """Answer the next ``GET``s with these statuses first (each with ``retry_after``, when set)."""
    retry_after: str | None = None
    wrong_sha256: bool = False
    """``HEAD`` announces a sha256 that is not the file's."""
    trickle_after: int | None = None
    """After this many body bytes, wait ``trickle_pause`` seconds before each further piece."""
    trickle_pause: float = 0.0
    missing: bool = False
    """Every request answers 404."""
    short_body: int | None = None
    """Serve only the first this-many bytes of the file, with a consistent ``Content-Length`` (always)."""
    ignore_range: bool = False
    announced_size: int | None = None
    """``HEAD`` announces this size instead of the file's."""


class FakeHub:
    """Serve ``files`` (``"repo/filename"`` → path) on 127.0.0.1; use as a context manager."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files
        self.faults = Faults()
        self.body_bytes = 0
        self.requests: list[tuple[str, str, str | None, str | None]] = []
        """``(method, path, Range, If-Range)`` per request."""
        self.lock = threading.Lock()
        self.closing = threading.Event()
        self._sha: dict[str, str] = {}
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-hub", daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def sha256(self, key: str) -> str:
        if key not in self._sha:
            digest = hashlib.sha256()
            with self.files[key].open("rb") as source:
                while block := source.read(1 << 22):
                    digest.update(block)
            self._sha[key] = digest.hexdigest()
        return self._sha[key]

    def __enter__(self) -> FakeHub:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.closing.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)


_PATH = re.compile(r"^/(?:cdn/)?(?P<repo>[^/]+/[^/]+)/resolve/(?P<revision>[^/]+)/(?P<file>.+)$")


class _HubHandler(BaseHTTPRequestHandler):
    """Answers one connection's requests for :attr:`hub` (a subclass per hub, made by :func:`_handler`)."""

    hub: FakeHub
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def _target(self) -> tuple[str, Path] | None:
        match = _PATH.match(self.path)
        if match is None or self.hub.faults.missing:
            return None
        key = f"{match['repo']}/{match['file']}"
        return (key, self.hub.files[key]) if key in self.hub.files else None

    def _record(self) -> None:
        with self.hub.lock:
            self.hub.requests.append((self.command, self.path, self.headers.get("Range"), self.headers.get("If-Range")))

    def _empty(self, status: int, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_HEAD(self) -> None:
        self._record()
        target = self._target()
        if target is None:
            self._empty(404)
            return
        key, path = target
        size = self.hub.faults.announced_size or self.hub.faults.short_body or path.stat().st_size
        sha = "0" * 64 if self.hub.faults.wrong_sha256 else self.hub.sha256(key)
        headers = {
            "X-Linked-Size": str(size),
            "X-Linked-Etag": f'"{sha}"',
            "X-Repo-Commit": COMMIT,
            "ETag": f'"{sha}"',
            "Location": "/cdn" + self.path,
        }
        self._empty(302 if not self.path.startswith("/cdn/") else 200, headers)

    def do_GET(self) -> None:
        self._record()
        target = self._target()
        if target is None:
            self._empty(404)
            return
        with self.hub.lock:
            status = self.hub.faults.statuses.pop(0) if self.hub.faults.statuses else None
        if status is not None:
            after = self.hub.faults.retry_after
            self._empty(status, {"Retry-After": after} if after else {})
            return
        key, path = target
        self._send_body(key, path)

    def _send_body(self, key: str, path: Path) -> None:
        faults = self.hub.faults
        size = faults.short_body or path.stat().st_size
        etag = f'"{self.hub.sha256(key)}"'
        start = self._range_start(etag, size)
        self.send_response(206 if start else 200)
        self.send_header("ETag", etag)
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Length", str(size - start))
        if start:
            self.send_header("Content-Range", f"bytes {start}-{size - 1}/{size}")
        self.end_headers()
        with self.hub.lock:
            drop, faults.drop_after = faults.drop_after, None
            trickle, faults.trickle_after = faults.trickle_after, None
        sent = 0
        with path.open("rb") as source:
            source.seek(start)
            while sent < size - start and not self.hub.closing.is_set():
                piece = source.read(min(_SEND, size - start - sent, *(x - sent for x in (drop,) if x)))
                if trickle is not None and sent >= trickle and self.hub.closing.wait(faults.trickle_pause):
                    return
                try:
                    self.wfile.write(piece)
                except OSError:
                    return
                sent += len(piece)
                with self.hub.lock:
                    self.hub.body_bytes += len(piece)
                if drop is not None and sent >= drop:
                    self.close_connection = True
                    return

    def _range_start(self, etag: str, size: int) -> int:
        text = self.headers.get("Range") or ""
        match = re.match(r"bytes=(\d+)-$", text)
        if match is None or self.hub.faults.ignore_range:
            return 0
        if_range = self.headers.get("If-Range")
        if if_range is not None and if_range != etag:
            return 0
        return min(int(match[1]), size)


def _handler(hub: FakeHub) -> type[BaseHTTPRequestHandler]:
    """The request handler class of one hub."""

    class Handler(_HubHandler):
        pass

    Handler.hub = hub
    return Handler


def main(argv: list[str] | None = None) -> int:
    """``python -m devkit.loopback_hub REPO/FILE=PATH …``: serve the files from a process of its own (the
    benchmark's hub, so that the downloader measured does not share an interpreter with the server). Prints the
    hub's URL on one line, then serves until its standard input closes."""
    pairs = [item.split("=", 1) for item in (sys.argv[1:] if argv is None else argv)]
    with FakeHub({key: Path(path) for key, path in pairs}) as hub:
        for key in hub.files:
            hub.sha256(key)
        print(hub.url, flush=True)
        sys.stdin.read()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A threaded HTTP server on a random 127.0.0.1 port for tests, and the JSON answer most of them give.

The tests' servers differ only in how they answer a request; this module holds the rest: the port, the serving
thread, a silent request log, and a close that stops the thread. ``answer(handler)`` runs on the server's threads
for every request of the methods given and writes the whole reply itself (:func:`send_json` writes a JSON one).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["Answer", "LoopbackServer", "read_body", "send_json"]

Answer = Callable[[BaseHTTPRequestHandler], None]


class LoopbackServer:
    """Serves ``answer`` on 127.0.0.1 from :meth:`start` (at once unless ``started=False``) until :meth:`close`.

    Args:
        answer: Writes the reply to one request.
        methods: The HTTP methods answered (others get the standard library's 501).
        http11: Speak HTTP/1.1 (keep-alive; the answer must send a ``Content-Length``) instead of HTTP/1.0.
        name: The serving thread's name.
        started: Start serving now; otherwise :meth:`start` (or ``with``) does.
    """

    def __init__(
        self,
        answer: Answer,
        *,
        methods: Sequence[str] = ("GET", "POST"),
        http11: bool = False,
        name: str = "loopback-server",
        started: bool = True,
    ) -> None:
        def dispatch(handler: BaseHTTPRequestHandler) -> None:
            answer(handler)

        def quiet(handler: BaseHTTPRequestHandler, format: str, *args: object) -> None:
            pass

        members: dict[str, Any] = {f"do_{method}": dispatch for method in methods}
        members["log_message"] = quiet
        if http11:
            members["protocol_version"] = "HTTP/1.1"
        handler = type("Handler", (BaseHTTPRequestHandler,), members)
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), name=name, daemon=True)
        if started:
            self.start()

    def start(self) -> None:
        """Start serving (once)."""
        self.thread.start()

    def close(self) -> None:
        """Stop serving, close the port and wait for the serving thread (requests in flight may still finish)."""
        if self.thread.is_alive():
            self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)

    def __enter__(self) -> LoopbackServer:
        if not self.thread.is_alive():
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_body(handler: BaseHTTPRequestHandler) -> bytes:
    """The request's body (``Content-Length`` bytes; empty without one)."""
    length = int(handler.headers.get("Content-Length") or 0)
    return handler.rfile.read(length) if length else b""


def send_json(handler: BaseHTTPRequestHandler, status: int, payload: Any) -> None:
    """Answer ``status`` with ``payload`` as JSON (``bytes`` are sent as they are), with its ``Content-Length``."""
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)

"""A model server on loopback that never finishes an answer: it sends one token every ``every`` seconds, for ever.

Such a server never trips an idle (read) timeout. It records when each chat request began and when the client went
away, so a test can say how long every request was allowed to run.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType


class TricklingServer:
    """An OpenAI-compatible server on 127.0.0.1 listing ``model``; every chat completion trickles for ever.

    ``requests`` holds ``[start, end]`` (``time.monotonic()``) per chat request; ``end`` is ``None`` while the
    client is still reading. Use as a context manager; the server and its request threads are stopped.
    """

    def __init__(self, model: str = "test-model", every: float = 0.1) -> None:
        self.model = model
        self.every = every
        self.requests: list[list[float | None]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                body = json.dumps({"object": "list", "data": [{"id": outer.model, "object": "model"}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if not self.path.endswith("/chat/completions"):  # e.g. Ollama's /api/show: not this server's
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                entry: list[float | None] = [time.monotonic(), None]
                with outer._lock:
                    outer.requests.append(entry)
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                chunk = {"choices": [{"index": 0, "delta": {"content": "a"}}]}
                line = f"data: {json.dumps(chunk)}\n\n".encode()
                try:
                    while not outer._stop.wait(outer.every):
                        self.wfile.write(line)
                        self.wfile.flush()
                except OSError:  # the client went away
                    pass
                finally:
                    entry[1] = time.monotonic()

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.endpoint = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, name="trickling-server", daemon=True)

    def durations(self) -> list[float]:
        """Seconds each finished chat request ran before its client went away."""
        with self._lock:
            return [end - start for start, end in self.requests if start is not None and end is not None]

    def __enter__(self) -> TricklingServer:
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._stop.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(10)

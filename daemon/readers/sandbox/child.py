"""The reader process: reads one document at a time for the worker, under limits, and answers over a pipe.

:func:`serve` is the process's main function; everything on the pipe is JSON plus the text as UTF-8 bytes (the
worker never unpickles). The messages: docs/design/readers.md.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from daemon.readers.base import ExtractedDocument
from daemon.readers.errors import ExtractionError
from daemon.readers.sandbox.limits import ReadLimits, allow_recognition, apply_limits, lift_limits

__all__ = ["DEFAULT_ENTRY", "serve"]

DEFAULT_ENTRY = "daemon.readers:read_document"
"""The reader function a request names unless it names another (``module:function``, same signature)."""

_PARENT_CHECK_SECONDS = 1.0
_PROGRESS_SECONDS = 0.02
"""At most one progress message per this many seconds (the first and the last always go): the job writes its
counter at most every 20 ms anyway, and each message wakes the worker."""


def _peak_rss_kib() -> int:
    """This process's peak resident memory in KiB (0 where unknown)."""
    try:
        import resource
    except ImportError:  # Windows
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak // 1024 if sys.platform == "darwin" else peak)  # macOS reports bytes, Linux KiB


def _send(connection: Connection, message: dict[str, Any]) -> None:
    connection.send_bytes(json.dumps(message).encode("utf-8"))


def _entry(name: str) -> Callable[..., ExtractedDocument]:
    module, _, function = name.partition(":")
    found: Callable[..., ExtractedDocument] = getattr(importlib.import_module(module), function)
    return found


def _watch_parent(parent: int) -> None:
    """End this process when its parent is gone (a worker killed with ``SIGKILL`` cannot end it)."""
    while True:
        time.sleep(_PARENT_CHECK_SECONDS)
        if os.getppid() != parent:
            os._exit(0)


def _read(connection: Connection, request: dict[str, Any]) -> bool:
    """Serve one request; whether this process may take another."""
    limits = ReadLimits(**request["limits"])

    sent = [0.0]

    def report(done: int, total: int) -> None:
        now = time.monotonic()
        if done == 0 or done >= total or now - sent[0] >= _PROGRESS_SECONDS:
            sent[0] = now
            _send(connection, {"progress": [done, total]})

    def recognising(done: int, pages: int) -> None:
        if done == 0:
            allow_recognition(limits, pages)
        _send(connection, {"recognising": [done, pages]})

    read = _entry(request.get("entry") or DEFAULT_ENTRY)
    extra = {"on_recognising": recognising, "language": request.get("language")} if "language" in request else {}
    apply_limits(limits)
    try:
        document = read(
            Path(request["path"]), on_progress=report, stop_event=None, max_bytes=request["max_bytes"], **extra
        )
    except ExtractionError as error:
        lift_limits()
        refused = {"code": error.code, "detail": error.detail, "values": error.values}
        _send(connection, {"refused": refused, "peak_rss_kib": _peak_rss_kib()})
        return True
    except MemoryError:
        lift_limits()
        _send(connection, {"out_of_memory": True, "peak_rss_kib": _peak_rss_kib()})
        return False
    lift_limits()
    if document.char_count > limits.max_text_chars:
        _send(connection, {"text_too_large": document.char_count, "peak_rss_kib": _peak_rss_kib()})
        return True
    fields = {field.name: getattr(document, field.name) for field in dataclasses.fields(document)}
    del fields["text"]
    _send(connection, {"done": fields, "peak_rss_kib": _peak_rss_kib()})
    connection.send_bytes(document.text.encode("utf-8", "surrogatepass"))
    return True


def serve(connection: Connection, parent: int, ready_at: Any = None) -> None:
    """Answer requests on ``connection`` until it closes or a document leaves this process unfit for another.

    ``ready_at`` (a shared ``multiprocessing`` double, optional) is set to the wall time the readers are imported,
    before the first request is taken: the parent's measure of this process's start.
    """
    import daemon.readers  # noqa: F401  (the readers' imports, paid once per process, not per document)

    if ready_at is not None:
        ready_at.value = time.time()

    threading.Thread(target=_watch_parent, args=(parent,), name="studyjobs-reader-parent", daemon=True).start()
    while True:
        try:
            request = json.loads(connection.recv_bytes())
        except (EOFError, OSError):
            return
        try:
            fit = _read(connection, request)
        except Exception:
            lift_limits()
            _send(connection, {"unexpected": traceback.format_exc()})
            return
        if not fit:
            return

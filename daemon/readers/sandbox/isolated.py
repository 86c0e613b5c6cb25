"""Reading a document in a reader process of its own, under limits, so a hostile file cannot harm the worker.

:func:`read_isolated` has :func:`daemon.readers.read_document`'s contract; what goes wrong becomes an
:class:`ExtractionError`. It blocks its calling thread (the job's); any number of threads may call it at once, each
gets a process of its own. A :class:`ReaderPool`'s methods are thread-safe. Design: docs/design/readers.md.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.app.documents.formats import MAX_DOCUMENT_BYTES
from core.app.documents.structure import DocumentStructure
from daemon.readers.base import ExtractedDocument
from daemon.readers.errors import EXTRACTION_CODES, ExtractionError, ExtractionStopped
from daemon.readers.sandbox.child import DEFAULT_ENTRY
from daemon.readers.sandbox.limits import RECOGNITION_WALL_SECONDS, ReadLimits, limits_for
from daemon.readers.sandbox.reader_process import ReaderProcess

__all__ = ["ENTRY_ENV", "ReadReport", "ReaderPool", "default_pool", "read_isolated", "release_idle_readers"]

log = logging.getLogger(__name__)

ENTRY_ENV = "STUDYJOBS_READER_ENTRY"
"""Tests only: the reader function :func:`read_isolated` runs in the reader process (``module:function``)."""

_POLL_SECONDS = 0.05
_MAX_MESSAGE = 64 * 1024
_SPARE_PROCESSES = 1
_START_SECONDS = 0.5
"""How long a reader process takes to start until one is measured (0.25–1.1 s measured: importing the readers)."""
_MIB = 1024 * 1024
_SIGNAL_NUMBERS = frozenset(int(number) for number in signal.Signals)


@dataclass(frozen=True, slots=True)
class ReadReport:
    """How a read went in its reader process (for the log, tests and benchmarks)."""

    pid: int
    outcome: str
    seconds: float
    child_peak_rss_kib: int


class _Session:
    """One request's answer: relays progress, enforces the wall time and the stop event, reads the verdict."""

    def __init__(
        self,
        reader: ReaderProcess,
        limits: ReadLimits,
        on_progress: Callable[[int, int], None] | None,
        stop_event: threading.Event | None,
        on_recognising: Callable[[int, int], None] | None = None,
    ) -> None:
        self.reader = reader
        self.limits = limits
        self.on_progress = on_progress
        self.on_recognising = on_recognising
        self.stop_event = stop_event
        self.fit = False
        """Whether the process may read another document (it answered, and was not asked to end)."""
        self.peak_rss_kib = 0
        self.done, self.total = 0, 0

    def wait(self) -> ExtractedDocument:
        """The document, once the process answers; raises what the answer or the process's end means."""
        connection = self.reader.connection
        deadline = time.monotonic() + self.limits.wall_seconds
        while True:
            if self.stop_event is not None and self.stop_event.is_set():
                self.reader.end()
                raise ExtractionStopped(self.done, self.total)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.reader.end()
                seconds = round(self.limits.wall_seconds)
                raise ExtractionError("reader_too_slow", detail="wall-time limit", seconds=seconds)
            if not connection.poll(min(_POLL_SECONDS, remaining)):
                continue
            try:
                message = json.loads(connection.recv_bytes(self._message_limit()))
            except (EOFError, OSError, ValueError):
                raise self._ended() from None
            try:
                if not isinstance(message, dict):
                    raise TypeError(f"not an object: {message!r:.80}")
                if "recognising" in message:
                    deadline += self._recognising(*(int(value) for value in message["recognising"]))
                    continue
                if "progress" in message:
                    self.done, self.total = (int(value) for value in message["progress"])
                else:
                    return self._verdict(message)
            except (KeyError, TypeError, ValueError) as broken:  # a process that no longer speaks our protocol
                self.fit = False
                self.reader.end()
                raise ExtractionError("reader_crashed", detail=f"reader process {self.reader.pid}: {broken}") from None
            if self.on_progress is not None:
                self.on_progress(self.done, self.total)

    def _recognising(self, done: int, pages: int) -> float:
        """Relay a count of pages recognised; the wall time to add to the deadline (when recognition begins)."""
        if self.on_recognising is not None:
            self.on_recognising(done, pages)
        return RECOGNITION_WALL_SECONDS * pages if done == 0 else 0.0

    def _message_limit(self) -> int:
        """The longest message the reader process may send: a progress line or a verdict, whose document structure
        (pages and chapters, a few bytes per paragraph) grows with the text, so it is bounded by the text's limit."""
        return _MAX_MESSAGE + 8 * self.limits.max_text_chars

    def _verdict(self, message: dict[str, Any]) -> ExtractedDocument:
        self.peak_rss_kib = int(message.get("peak_rss_kib", 0))
        if "done" in message:
            try:
                raw = self.reader.connection.recv_bytes(4 * self.limits.max_text_chars + 16)
            except (EOFError, OSError):
                raise self._ended() from None
            document = _document(message["done"], raw.decode("utf-8", "surrogatepass"))
            self.fit = True
            return document
        if "refused" in message:
            refused = message["refused"]
            if refused.get("code") not in EXTRACTION_CODES:
                raise ValueError(f"the reader process answered with an unknown code: {refused!r:.200}")
            self.fit = True
            values = {str(key): value for key, value in dict(refused.get("values", {})).items()}
            raise ExtractionError(refused["code"], detail=str(refused.get("detail", "")), **values)
        if "text_too_large" in message:
            self.fit = True
            limit = {"chars": int(message["text_too_large"]), "max_chars": self.limits.max_text_chars}
            raise ExtractionError("text_too_large", detail="text limit", **limit)
        self.reader.end()
        if "out_of_memory" in message:
            max_mb = self.limits.memory_bytes // _MIB
            raise ExtractionError("reader_out_of_memory", detail="MemoryError in the reader process", max_mb=max_mb)
        raise RuntimeError(f"the reader process failed unexpectedly:\n{message.get('unexpected', message)}")

    def _ended(self) -> ExtractionError:
        """The error for a process that ended (or broke its pipe) without answering; it is reaped."""
        process = self.reader.process
        process.join(timeout=5)
        self.reader.end()
        code = process.exitcode
        detail = f"reader process {self.reader.pid} ended with exit code {code} after {self.done}/{self.total}"
        if code is not None and code < 0:
            number = -code
            detail += f" ({signal.Signals(number).name})" if number in _SIGNAL_NUMBERS else ""
            if number == getattr(signal, "SIGXCPU", None):
                return ExtractionError("reader_too_slow", detail=detail, seconds=round(self.limits.cpu_seconds))
            if number == getattr(signal, "SIGKILL", None):
                return ExtractionError("reader_killed", detail=detail)
        return ExtractionError("reader_crashed", detail=detail)


class ReaderPool:
    """Reader processes kept for reuse; one document at a time each."""

    def __init__(self, spare: int = _SPARE_PROCESSES) -> None:
        self._spare = spare
        self._idle: list[ReaderProcess] = []
        self._start_seconds = _START_SECONDS
        self._lock = threading.Lock()
        self._closed = False
        self.last_report: ReadReport | None = None
        """How the last read through this pool went."""

    def warm(self) -> None:
        """Start spare processes now (they import the readers while idle), so a document does not wait for one."""
        with self._lock:
            while not self._closed and len(self._idle) < self._spare:
                self._idle.append(ReaderProcess())

    def start_wait(self) -> float:
        """Seconds a document given to this pool now is expected to wait for a reader process that can read it:
        0 when an idle one is ready, else what is left of a start as long as the last one measured (a process
        killed by a limit or a stop is replaced, and the next document waits for the new one)."""
        with self._lock:
            idle = [reader for reader in self._idle if reader.process.exitcode is None]
            ready = [seconds for reader in idle if (seconds := reader.start_seconds) is not None]
            if ready:
                self._start_seconds = ready[-1]
                return 0.0
            youngest = max((reader.started_at for reader in idle), default=time.time())
            return max(self._start_seconds - (time.time() - youngest), 0.0)

    def processes(self) -> list[int]:
        """The ids of the idle processes (for tests)."""
        with self._lock:
            return [reader.pid for reader in self._idle]

    def _take(self) -> ReaderProcess:
        with self._lock:
            if self._closed:
                raise RuntimeError("the reader pool is closed")
            while self._idle:
                reader = self._idle.pop()
                if reader.process.exitcode is None:
                    return reader
                reader.end()
        return ReaderProcess()

    def _give_back(self, reader: ReaderProcess, *, fit: bool) -> None:
        with self._lock:
            keep = fit and not self._closed and reader.process.exitcode is None
            if keep:
                self._idle.append(reader)
        if not keep:
            reader.end()
        self.warm()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    def release_idle(self) -> int:
        """End every idle process (the memory goes back); the next read starts one again. How many ended."""
        with self._lock:
            idle, self._idle = self._idle, []
        for reader in idle:
            reader.end()
        return len(idle)

    def close(self) -> None:
        """End every idle process; later reads are refused. A read under way ends its process itself."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for reader in idle:
            reader.end()

    def read(
        self,
        path: Path,
        *,
        on_progress: Callable[[int, int], None] | None = None,
        stop_event: threading.Event | None = None,
        max_bytes: int = MAX_DOCUMENT_BYTES,
        limits: ReadLimits | None = None,
        entry: str = DEFAULT_ENTRY,
        on_recognising: Callable[[int, int], None] | None = None,
        language: str | None = None,
    ) -> ExtractedDocument:
        """:func:`read_isolated` on a process of this pool; ``entry`` names the reader function
        (``module:function`` with :func:`~daemon.readers.read_document`'s signature, its ``on_recognising`` and
        ``language`` too when this is given ``on_recognising``)."""
        path = Path(path)
        if limits is None:
            limits = limits_for(_size_of(path))
        started = time.monotonic()
        reader = self._take()
        session = _Session(reader, limits, on_progress, stop_event, on_recognising)
        outcome = "failed"
        try:
            request = {"entry": entry, "path": str(path), "max_bytes": max_bytes, "limits": _fields(limits)}
            if entry == DEFAULT_ENTRY:  # a test's reader function takes read_document's first arguments only
                request["language"] = language
            reader.connection.send_bytes(json.dumps(request).encode("utf-8"))
            document = session.wait()
            outcome = "done"
            return document
        except ExtractionError as error:
            outcome = error.code
            raise
        except ExtractionStopped:
            outcome = "stopped"
            raise
        finally:
            self._give_back(reader, fit=session.fit)
            peak = session.peak_rss_kib or reader.peak_rss_kib
            report = ReadReport(reader.pid, outcome, time.monotonic() - started, peak)
            self.last_report = report
            log.debug(
                "read %s in reader process %d: %s in %.2f s, its peak RSS %d MiB",
                path.name, report.pid, outcome, report.seconds, report.child_peak_rss_kib // 1024,
            )  # fmt: skip


_default: ReaderPool | None = None
_default_lock = threading.Lock()


def default_pool() -> ReaderPool:
    """The process's pool (made on first use and again after it was closed; closed when the process exits)."""
    global _default
    with _default_lock:
        if _default is None or _default.closed:
            _default = ReaderPool()
            atexit.register(_default.close)
        return _default


def release_idle_readers() -> int:
    """End the idle reader processes of the process's pool, if it has one (none is made); how many ended."""
    with _default_lock:
        pool = _default
    return pool.release_idle() if pool is not None and not pool.closed else 0


def read_isolated(
    path: Path,
    *,
    on_progress: Callable[[int, int], None] | None = None,
    stop_event: threading.Event | None = None,
    max_bytes: int = MAX_DOCUMENT_BYTES,
    on_recognising: Callable[[int, int], None] | None = None,
    language: str | None = None,
) -> ExtractedDocument:
    """:func:`daemon.readers.read_document` in a reader process of :func:`default_pool`, under
    :func:`~daemon.readers.sandbox.limits.limits_for` the file's size (and, for pages to recognise, the recognition
    budget of :func:`~daemon.readers.sandbox.limits.allow_recognition`).

    Raises:
        ExtractionError: What :func:`~daemon.readers.read_document` raises, and the codes of the module docstring.
        ExtractionStopped: ``stop_event`` was set (the process was ended at once).
        RuntimeError: The reader process failed with an unexpected exception (its traceback is in the message).
    """
    entry = os.environ.get(ENTRY_ENV, "").strip() or DEFAULT_ENTRY
    return default_pool().read(
        path,
        on_progress=on_progress,
        stop_event=stop_event,
        max_bytes=max_bytes,
        entry=entry,
        on_recognising=on_recognising,
        language=language,
    )


def _document(fields: dict[str, Any], text: str) -> ExtractedDocument:
    """The document from a reader process's answer, every field checked for its type (a process that parsed a
    hostile file is not trusted to send what it should)."""

    def optional(name: str, kind: type) -> Any:
        value = fields.get(name)
        if value is not None and not isinstance(value, kind):
            raise ValueError(f"the reader process sent {name}={value!r:.80}")
        return value

    document = ExtractedDocument(
        text=text,
        format=str(fields["format"]),
        page_count=optional("page_count", int),
        char_count=int(fields["char_count"]),
        language=optional("language", str),
        title=optional("title", str),
        sha256=str(fields["sha256"]),
        size_bytes=int(fields["size_bytes"]),
        structure=_structure(optional("structure", str)),
    )
    if document.char_count != len(text):
        raise ValueError(f"the reader process sent {len(text)} characters for {document.char_count}")
    return document


def _structure(sent: str | None) -> str | None:
    """The pages and chapters a reader process sent, read and written again by our own parser (whatever does not
    parse is dropped, never passed on)."""
    if sent is None:
        return None
    return DocumentStructure.rewritten(sent)


def _fields(limits: ReadLimits) -> dict[str, Any]:
    return {name: getattr(limits, name) for name in ReadLimits.__slots__}


def _size_of(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # the reader process says what is wrong with the file

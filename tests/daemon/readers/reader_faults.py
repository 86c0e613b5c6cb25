"""Reader functions that misbehave for real, for the reader-process tests (never used by StudyJobs itself).

Each has :func:`daemon.readers.read_document`'s signature and is run through the same machinery as the real reader
(``entry="tests.daemon.readers.reader_faults:crash"``, or ``STUDYJOBS_READER_ENTRY`` for a worker):
:func:`crash` faults in native code, :func:`allocate` allocates until its memory limit stops it, :func:`hang`
sleeps forever, :func:`spin` burns CPU forever, :func:`slow_pages` reads 1,000 pages at 20 a second, and
:func:`by_name` picks one of them by the file's name (``crash``, ``hog``, ``hang``, ``spin`` in it) or else reads
the document for real.
"""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from daemon.readers import ExtractedDocument, read_document

_MIB = 1024 * 1024
_MOST_BYTES = 16 * 1024 * _MIB  # a safety stop if no limit were applied: untouched, it costs no memory


def crash(path: Path, **_: Any) -> ExtractedDocument:
    """Read address 0 from native code: the process dies of ``SIGSEGV``."""
    ctypes.string_at(0)
    raise AssertionError("reading address 0 did not fault")


def allocate(path: Path, **_: Any) -> ExtractedDocument:
    """Allocate 64 MiB blocks (each touched) until an allocation fails."""
    blocks: list[bytearray] = []
    while len(blocks) * 64 * _MIB < _MOST_BYTES:
        block = bytearray(64 * _MIB)
        block[::4096] = b"\x01" * len(block[::4096])
        blocks.append(block)
    raise AssertionError(f"allocated {len(blocks) * 64} MiB without hitting a limit")


def hang(path: Path, *, on_progress: Callable[[int, int], None], **_: Any) -> ExtractedDocument:
    """Report page 0 of 10, then sleep forever."""
    on_progress(0, 10)
    threading.Event().wait()
    raise AssertionError("unreachable")


def spin(path: Path, **_: Any) -> ExtractedDocument:
    """Burn CPU time forever."""
    count = 0
    while True:
        count += 1


def slow_pages(path: Path, *, on_progress: Callable[[int, int], None], **_: Any) -> ExtractedDocument:
    """Report 1,000 pages, one every 50 ms, then read ``path`` for real."""
    for page in range(1000):
        on_progress(page, 1000)
        time.sleep(0.05)
    return read_document(path)


def by_name(path: Path, **options: Any) -> ExtractedDocument:
    """The misbehaviour the file's name asks for (``crash``, ``hog``, ``hang``, ``spin``), else a real read."""
    for word, reader in (("crash", crash), ("hog", allocate), ("hang", hang), ("spin", spin)):
        if word in Path(path).name:
            return reader(path, **options)
    return read_document(path, **options)

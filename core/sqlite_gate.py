"""One lock per SQLite file per process: this process's writers take turns instead of colliding on the file lock.

SQLite lets one writer at a time hold a file. A writer that finds it taken gets ``SQLITE_BUSY`` and must poll: the
store's inline statements retry after ``asyncio.sleep`` (which the event loop rounds up to a millisecond or more)
and SQLite's own busy handler sleeps 1 ms, then longer. Within one process that wait is needless: the daemon's
queue consumer thread and its event loop write the same file, and a lock that the one releases the instant it
commits wakes the other at once. The writers on a job's path therefore write under :func:`gated` with the file's
:func:`write_gate`: the store's single statements run inline (:class:`core.autocommit.SQLiteAutocommit`) and every
statement and transaction of the SQLite broker. Writes through an ORM session or on the store's fallback thread
are not gated; they wait in SQLite's busy handler, as before.

The gate only orders this process's writers. Other processes are still met with ``SQLITE_BUSY`` and each caller's
own waiting, and a writer that cannot have the gate within ``timeout`` (a transaction of this process waits for
another process) goes ahead without it and meets the file lock as before: the gate never deadlocks and never makes
a write wait longer than ``timeout`` for it.

Threading: everything here is thread-safe. A gate is never held across an ``await``.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path

__all__ = ["GATE_TIMEOUT", "gated", "write_gate"]

GATE_TIMEOUT = 0.005
"""Seconds a writer waits for the gate before it goes ahead without it. The daemon's longest in-process write, the
consumer's claim of a batch with its acks, takes well under a millisecond; an event loop may block this long."""

_gates: dict[str, threading.Lock] = {}
_gates_lock = threading.Lock()


def write_gate(path: Path | str) -> threading.Lock:
    """The process's gate for the SQLite file at ``path`` (any spelling of the same file gives the same lock)."""
    key = os.path.realpath(path)
    with _gates_lock:
        gate = _gates.get(key)
        if gate is None:
            gate = _gates[key] = threading.Lock()
        return gate


@contextlib.contextmanager
def gated(gate: threading.Lock, timeout: float = GATE_TIMEOUT) -> Iterator[bool]:
    """Hold ``gate`` for the enclosed write, or go ahead without it after ``timeout`` seconds.

    Yields:
        Whether the gate is held (``False``: another writer of this process kept it for ``timeout``).
    """
    held = gate.acquire(timeout=timeout)
    try:
        yield held
    finally:
        if held:
            gate.release()

"""One reader process, the parent's end of its pipe, and when it became ready to read.

Threading rules: made and ended by the pool under its own lock or by the thread that owns the read; reading
:attr:`ReaderProcess.start_seconds` is safe from any thread.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
import time
import types
from multiprocessing.process import BaseProcess

from daemon.readers.sandbox.child import serve

__all__ = ["ReaderProcess", "peak_rss_kib_of"]

_CONTEXT = multiprocessing.get_context("spawn")
_START_LOCK = threading.Lock()


class ReaderProcess:
    """One reader process (started at once) and the parent's end of its pipe."""

    def __init__(self) -> None:
        self.connection, child_end = _CONTEXT.Pipe(duplex=True)
        self._ready_at = _CONTEXT.Value("d", 0.0, lock=False)  # the wall time the child was ready, 0 until then
        self.started_at = time.time()
        self.process: BaseProcess = _CONTEXT.Process(
            target=serve, args=(child_end, os.getpid(), self._ready_at), name="studyjobs-reader", daemon=True
        )
        with _START_LOCK:
            # Started with a bare ``__main__``: spawn would otherwise import the worker's main module (or script)
            # again in the reader process; the reader process needs only :func:`serve`.
            main = sys.modules["__main__"]
            sys.modules["__main__"] = types.ModuleType("__main__")
            try:
                self.process.start()
            finally:
                sys.modules["__main__"] = main
        self.pid = self.process.pid or 0
        self.peak_rss_kib = 0
        child_end.close()

    @property
    def start_seconds(self) -> float | None:
        """Seconds from its start until it had imported the readers; ``None`` while it still starts."""
        ready: float = self._ready_at.value
        return max(ready - self.started_at, 0.0) if ready else None

    def end(self) -> None:
        """Kill the process (if it still runs) and reap it; :attr:`peak_rss_kib` keeps its last peak (Linux)."""
        if self.process.exitcode is None:
            self.peak_rss_kib = peak_rss_kib_of(self.pid)
            self.process.kill()
        self.process.join(timeout=10)
        self.connection.close()


def peak_rss_kib_of(pid: int) -> int:
    """The peak resident memory of a live process in KiB, from ``/proc`` (0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0

"""One daemon per data folder: an exclusive lock on ``<data_dir>/daemon.lock``, released when the process ends.

The lock is held by the operating system (``flock`` on POSIX, ``msvcrt.locking`` on Windows), so a killed daemon
never leaves a stale lock behind. The file also records the holder's pid, for the message a second start prints.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import IO

__all__ = ["DataFolderLock", "DataFolderLocked"]


class DataFolderLocked(RuntimeError):
    """Another daemon holds the data folder. ``pid`` is its process id when known."""

    def __init__(self, path: Path, pid: int | None) -> None:
        who = f" (process {pid})" if pid else ""
        super().__init__(f"A StudyJobs worker is already running for {path.parent}{who}.")
        self.pid = pid


class DataFolderLock:
    """The exclusive lock of one data folder. Use as a context manager, or ``acquire``/``release``."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / "daemon.lock"
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        """Take the lock at once or raise :class:`DataFolderLocked` (never waits)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held for the process's life
        try:
            _lock(handle)
        except OSError:
            handle.seek(0)
            text = handle.read().strip()
            handle.close()
            raise DataFolderLocked(self.path, int(text) if text.isdigit() else None) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._file = handle

    def release(self) -> None:
        """Give the lock back (closing the file releases it)."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> DataFolderLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


if sys.platform == "win32":  # pragma: no cover - exercised on Windows runners
    import msvcrt

    def _lock(handle: IO[str]) -> None:
        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)

else:
    import fcntl

    def _lock(handle: IO[str]) -> None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)

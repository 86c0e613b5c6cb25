"""Reading a document's bytes from disk, and telling a file that is busy for now from one that cannot be read.

:func:`read_file_bytes` never blocks on a locked file and maps an OS error to ``file_deleted``, ``file_busy``
(transient) or ``file_unreadable``. Synchronous, thread-safe (no shared state). Details: docs/design/readers.md.
"""

from __future__ import annotations

import errno
import math
import os
import stat
from pathlib import Path

from daemon.readers.errors import ExtractionError

__all__ = ["BUSY_ERRNOS", "BUSY_WINERRORS", "error_for_os_error", "read_file_bytes"]

_MIB = 1024 * 1024

BUSY_ERRNOS: frozenset[int] = frozenset(
    code
    for code in (
        errno.EAGAIN,  # a lease or mandatory lock held by another program (EWOULDBLOCK is the same number)
        errno.EBUSY,
        errno.ETXTBSY,
        errno.EDEADLK,  # a lock that would deadlock: taken by someone else right now
        getattr(errno, "ENOLCK", None),
        errno.ETIMEDOUT,  # a network or cloud file system that did not answer in time
        getattr(errno, "ESTALE", None),  # a network file handle that went stale: opening again fixes it
    )
    if code is not None
)
"""``errno`` values that mean "in use or not ready yet": retrying later may succeed."""

BUSY_WINERRORS: frozenset[int] = frozenset(
    {
        32,  # ERROR_SHARING_VIOLATION: another program has the file open without sharing
        33,  # ERROR_LOCK_VIOLATION: another program locked part of the file
        362,  # ERROR_CLOUD_FILE_PROVIDER_NOT_RUNNING
        377,  # ERROR_CLOUD_FILE_NOT_IN_SYNC
        387,  # ERROR_CLOUD_FILE_INSUFFICIENT_RESOURCES
        388,  # ERROR_CLOUD_FILE_NETWORK_UNAVAILABLE
        389,  # ERROR_CLOUD_FILE_UNSUCCESSFUL
        391,  # ERROR_CLOUD_FILE_IN_USE
        393,  # ERROR_CLOUD_FILE_REQUEST_ABORTED
        397,  # ERROR_CLOUD_FILE_PROPERTY_LOCK_CONFLICT
        404,  # ERROR_CLOUD_FILE_PROVIDER_TERMINATED
        426,  # ERROR_CLOUD_FILE_REQUEST_TIMEOUT
    }
)
"""Windows error numbers (``OSError.winerror``) of a file that is locked, in use or not downloaded yet."""

_MISSING_ERRNOS = frozenset({errno.ENOENT, errno.ENOTDIR})
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)


def _megabytes(size: int) -> int:
    return max(1, math.ceil(size / _MIB))


def error_for_os_error(exc: OSError, path: Path) -> ExtractionError:
    """The reader error for an operating-system error met while opening or reading ``path``."""
    detail = f"{path}: {type(exc).__name__} errno={exc.errno} winerror={getattr(exc, 'winerror', None)}: {exc}"
    if exc.errno in _MISSING_ERRNOS:
        return ExtractionError("file_deleted", detail=detail)
    if exc.errno in BUSY_ERRNOS or getattr(exc, "winerror", None) in BUSY_WINERRORS:
        return ExtractionError("file_busy", detail=detail)
    return ExtractionError("file_unreadable", detail=detail)


def read_file_bytes(path: Path, max_bytes: int) -> bytes:
    """The whole file, after the checks that need no content.

    Raises:
        ExtractionError: ``file_deleted``, ``file_busy`` (transient), ``file_unreadable`` (also: not a regular
            file), ``empty_file``, ``too_large``.
    """
    try:
        descriptor = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise error_for_os_error(exc, path) from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise ExtractionError("file_unreadable", detail=f"{path} is not a regular file")
        if info.st_size == 0:
            raise ExtractionError("empty_file", detail=str(path))
        if info.st_size > max_bytes:
            too_large = {"size_mb": _megabytes(info.st_size), "max_mb": _megabytes(max_bytes)}
            raise ExtractionError("too_large", detail=str(path), **too_large)
        with open(descriptor, "rb", closefd=False) as handle:  # one buffer, filled in a loop by the buffered reader
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise error_for_os_error(exc, path) from None
    finally:
        os.close(descriptor)
    if not data:
        raise ExtractionError("empty_file", detail=f"{path} became empty while being read")
    if len(data) > max_bytes:
        grown = {"size_mb": _megabytes(len(data)), "max_mb": _megabytes(max_bytes)}
        raise ExtractionError("too_large", detail=f"{path} grew", **grown)
    return data

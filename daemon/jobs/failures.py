"""Which unexpected errors of a job are not bugs: a full disk, a busy database, a database connection that dropped.

:func:`known_failure` names the condition as a message code, its values and whether it is transient, or ``None``
(the caller stores ``internal_error``). Pure functions, safe from any thread. The codes: docs/design/worker.md.
"""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

__all__ = ["DISK_FULL_ERRNOS", "KnownFailure", "is_disk_full", "known_failure"]

DISK_FULL_ERRNOS = frozenset(code for code in (errno.ENOSPC, getattr(errno, "EDQUOT", None)) if code is not None)
"""``errno`` values of a disk (or the user's quota on it) with no space left."""

_PG_DISK_FULL = "53100"
_PG_CONNECTION_LOST = ("57P01", "57P02", "57P03", "53300")
"""SQLSTATEs of a server that ended the session (``pg_terminate_backend``, a shutdown, a crash), is starting or
stopping, or has no connection left; class ``08`` (connection exceptions) counts too."""
_SQLITE_BUSY = ("database is locked", "database table is locked", "database is busy")


class KnownFailure(NamedTuple):
    """A condition with its own message: ``code`` and ``values`` for :func:`core.stored_messages.encode`."""

    code: str
    values: dict[str, Any]
    transient: bool


def _chain(error: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    pending: list[BaseException | None] = [error]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        orig = getattr(current, "orig", None)
        pending.extend([current.__context__, current.__cause__, orig if isinstance(orig, BaseException) else None])


def _sqlstate(error: BaseException) -> str:
    """The SQLSTATE of a PostgreSQL error (asyncpg's ``sqlstate``), else ``""``."""
    state = getattr(error, "sqlstate", None)
    return state if isinstance(state, str) else ""


def _connection_lost(error: BaseException) -> bool:
    state = _sqlstate(error)
    if state.startswith("08") or state in _PG_CONNECTION_LOST:
        return True
    closed = type(error).__name__ == "InterfaceError" and "closed" in str(error)  # asyncpg: "connection is closed"
    return closed or isinstance(error, ConnectionError) or bool(getattr(error, "connection_invalidated", False))


def _sqlite_message(error: BaseException) -> str:
    """The text of a SQLite error (``sqlite3`` or the same error passed on by aiosqlite/SQLAlchemy), else ``""``."""
    if isinstance(error, sqlite3.Error):
        return str(error).lower()
    return ""


def is_disk_full(error: BaseException) -> bool:
    """Whether ``error`` (or what caused it) says a disk has no space left."""
    for item in _chain(error):
        if isinstance(item, OSError) and item.errno in DISK_FULL_ERRNOS:
            return True
        if _sqlstate(item) == _PG_DISK_FULL or "database or disk is full" in _sqlite_message(item):
            return True
        if isinstance(item, sqlite3.Error) and getattr(item, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL:
            return True
    return False


def known_failure(error: BaseException, *, output_dir: Path | None = None) -> KnownFailure | None:
    """The condition ``error`` stands for, or ``None`` for an unexpected error (see docs/design/worker.md)."""
    if is_disk_full(error):
        return _disk_full(error, output_dir)
    for item in _chain(error):
        if any(text in _sqlite_message(item) for text in _SQLITE_BUSY):
            return KnownFailure("database_busy", {}, True)
        if _connection_lost(item):
            return KnownFailure("database_unreachable", {}, True)
    return None


def _disk_full(error: BaseException, output_dir: Path | None) -> KnownFailure:
    for item in _chain(error):
        if _sqlstate(item) == _PG_DISK_FULL or "database or disk is full" in _sqlite_message(item):
            return KnownFailure("disk_full_database", {}, False)
        filename = getattr(item, "filename", None) if isinstance(item, OSError) else None
        if output_dir is not None and filename and Path(str(filename)).is_relative_to(output_dir):
            return KnownFailure("disk_full_output", {"folder": str(output_dir)}, False)
    return KnownFailure("disk_full", {}, False)

"""SQLite: the one place that opens and configures its connections (WAL, pragmas, :data:`BUSY_TIMEOUT_MS`), and
:class:`DirectStatement`, a compiled write run straight on a ``sqlite3`` connection.

A busy file raises ``sqlite3.OperationalError`` so the caller can decide to wait; other errors come out as
SQLAlchemy's. A :class:`DirectStatement` is immutable and thread-safe; the ``data_version`` reader may be used
from any thread (design: docs/design/storage.md).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

from core.backends.compiled_write import CompiledWrite

__all__ = [
    "BUSY_TIMEOUT_MS",
    "DirectStatement",
    "begin_immediate",
    "busy_timeout_pragma",
    "connection_pragmas",
    "is_busy",
    "migration_pragmas",
    "open_version_reader",
    "prepare_file",
]

BUSY_TIMEOUT_MS = 30_000
"""How long an SQLite writer waits for another writer before giving up, unless a caller asks for another wait."""

ConnectListener = Callable[[Any, Any], None]
"""A SQLAlchemy ``connect`` event listener: ``(dbapi_connection, connection_record)``."""

_BUSY_CODES = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def prepare_file(path: Path, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> None:
    """Create the file's folder, and put a new file in WAL mode once."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=busy_timeout_ms / 1000)
    try:
        if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            conn.execute("PRAGMA journal_mode=WAL")
    finally:
        conn.close()


def connection_pragmas(busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> ConnectListener:
    """The ``connect`` listener of the library's connections: busy timeout, ``synchronous=NORMAL``, foreign keys."""

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
        finally:
            cursor.close()

    return on_connect


def busy_timeout_pragma(milliseconds: int) -> ConnectListener:
    """A ``connect`` listener that sets only the busy timeout (after :func:`connection_pragmas`, it wins)."""

    def set_busy_timeout(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.execute(f"PRAGMA busy_timeout={int(milliseconds)}")

    return set_busy_timeout


def migration_pragmas(busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> ConnectListener:
    """The ``connect`` listener of the migrations' connection: the driver never begins by itself (nor skips a
    ``BEGIN`` before DDL), the busy timeout, foreign keys off. Pair it with :func:`begin_immediate`."""

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
            cursor.execute("PRAGMA foreign_keys=OFF")
        finally:
            cursor.close()

    return on_connect


def begin_immediate(connection: Connection) -> None:
    """The ``begin`` listener that opens every transaction with ``BEGIN IMMEDIATE`` (the write lock at once)."""
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def open_version_reader(path: Path) -> sqlite3.Connection:
    """A private connection for ``PRAGMA data_version`` only: usable from any thread, never in a transaction."""
    return sqlite3.connect(path, check_same_thread=False, isolation_level=None)


def is_busy(error: BaseException) -> bool:
    """Whether ``error`` (a ``sqlite3`` error, or SQLAlchemy's wrapping one) says another writer holds the file."""
    code = getattr(getattr(error, "orig", error), "sqlite_errorcode", None)
    return code is not None and (code & 0xFF) in _BUSY_CODES


class DirectStatement(CompiledWrite):
    """One statement, compiled for SQLite's dialect, run with :meth:`run`. Immutable; thread-safe."""

    def run(self, conn: sqlite3.Connection, params: Mapping[str, Any] | None) -> tuple[list[dict[str, Any]], int]:
        """Execute on ``conn`` (in autocommit mode); every returned row as a dict, and the row count.

        Raises:
            sqlite3.OperationalError: the file is busy (see :func:`is_busy`).
            sqlalchemy.exc.DBAPIError: any other database error, as SQLAlchemy would raise it.
        """
        bound = self.bind(params)
        try:
            cursor = conn.execute(self.sql, bound)
            fetched = cursor.fetchall()  # all rows: the statement (and its implicit transaction) ends here
        except sqlite3.OperationalError as error:
            if is_busy(error):
                raise
            raise DBAPIError.instance(self.sql, bound, error, sqlite3.Error) from error
        except sqlite3.Error as error:
            raise DBAPIError.instance(self.sql, bound, error, sqlite3.Error) from error
        return self.rows(fetched), cursor.rowcount

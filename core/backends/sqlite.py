"""A Core statement compiled once for SQLite's driver, then run straight on a ``sqlite3`` connection.

For the few statements that run once per job (enqueue, claim, succeed), SQLAlchemy's per-execution work — the
execution context, the result object, the row processing machinery — costs several times what SQLite needs to
run them. A :class:`DirectStatement` applies what SQLAlchemy computed when it compiled the statement
(:class:`core.backends.compiled_write.CompiledWrite`, with its limits) and runs the SQL on a ``sqlite3`` connection.
Errors come out as SQLAlchemy's (``IntegrityError`` …), except that a busy file raises
``sqlite3.OperationalError`` so that the caller can decide to wait (see :mod:`core.backends.autocommit`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from sqlalchemy.exc import DBAPIError

from core.backends.compiled_write import CompiledWrite

__all__ = ["DirectStatement", "is_busy"]

_BUSY_CODES = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


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

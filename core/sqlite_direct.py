"""A Core statement compiled once for SQLite's driver, then run straight on a ``sqlite3`` connection.

For the few statements that run once per job (enqueue, claim, succeed), SQLAlchemy's per-execution work — the
execution context, the result object, the row processing machinery — costs several times what SQLite needs to
run them. A :class:`DirectStatement` keeps what SQLAlchemy computed when it compiled the statement (the SQL, the
order of its bind parameters, each parameter's and each returned column's type processors, all through public
``TypeEngine`` API) and applies exactly that per call. The values written and read are the same as through a
session: the same processors convert them.

Only for statements that need no Python-side column defaults at execution (``onupdate``/``default`` callables):
the caller binds every value, and no expanding ``IN`` (write ``or_`` instead). Errors come out as SQLAlchemy's
(``IntegrityError`` …), except that a busy file raises ``sqlite3.OperationalError`` so that the caller can decide
to wait (see :mod:`core.autocommit`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.dml import UpdateBase

__all__ = ["DirectStatement", "is_busy"]

_BUSY_CODES = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
Processor = Callable[[Any], Any] | None


def is_busy(error: BaseException) -> bool:
    """Whether ``error`` (a ``sqlite3`` error, or SQLAlchemy's wrapping one) says another writer holds the file."""
    code = getattr(getattr(error, "orig", error), "sqlite_errorcode", None)
    return code is not None and (code & 0xFF) in _BUSY_CODES


class DirectStatement:
    """One statement, compiled for ``dialect`` (SQLite's), run with :meth:`run`. Immutable; thread-safe.

    Args:
        statement: A Core ``INSERT``/``UPDATE``/``DELETE`` (with or without ``RETURNING``) whose every value is bound
            by the caller or fixed in the statement.
        dialect: The SQLite dialect of the engine the connections come from.
    """

    def __init__(self, statement: UpdateBase, dialect: Dialect) -> None:
        self.statement = statement
        compiled = statement.compile(dialect=dialect)
        if not compiled.positional or compiled.positiontup is None:
            raise ValueError("DirectStatement needs a positional (qmark) dialect")
        if "POSTCOMPILE" in compiled.string:
            raise ValueError("DirectStatement cannot run an expanding IN: write or_(...) instead")
        self.sql = compiled.string
        self._names = list(compiled.positiontup)
        # A value fixed in the statement (``status="running"``) is bound here once; the others come from the call.
        self._fixed = {
            name: compiled.binds[name].effective_value for name in self._names if not compiled.binds[name].required
        }
        self._binds: list[Processor] = [
            compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect) for name in self._names
        ]
        self._results: list[tuple[str, Processor]] = []
        for column in statement.returning_column_descriptions:
            type_ = column["type"].dialect_impl(dialect)
            self._results.append((str(column["name"]), type_.result_processor(dialect, None)))

    def run(self, conn: sqlite3.Connection, params: Mapping[str, Any] | None) -> tuple[list[dict[str, Any]], int]:
        """Execute on ``conn`` (in autocommit mode); every returned row as a dict, and the row count.

        Raises:
            sqlite3.OperationalError: the file is busy (see :func:`is_busy`).
            sqlalchemy.exc.DBAPIError: any other database error, as SQLAlchemy would raise it.
        """
        given = params or {}
        fixed = self._fixed
        try:
            values = [given[name] if name in given else fixed[name] for name in self._names]
        except KeyError as missing:
            raise ValueError(f"no value for the bind parameter {missing}") from None
        bound = [
            value if process is None else process(value) for process, value in zip(self._binds, values, strict=True)
        ]
        try:
            cursor = conn.execute(self.sql, bound)
            fetched = cursor.fetchall()  # all rows: the statement (and its implicit transaction) ends here
        except sqlite3.OperationalError as error:
            if is_busy(error):
                raise
            raise DBAPIError.instance(self.sql, bound, error, sqlite3.Error) from error
        except sqlite3.Error as error:
            raise DBAPIError.instance(self.sql, bound, error, sqlite3.Error) from error
        rows = [
            {
                name: (raw if process is None else process(raw))
                for (name, process), raw in zip(self._results, row, strict=True)
            }
            for row in fetched
        ]
        return rows, cursor.rowcount

"""A Core statement compiled once for asyncpg, then run straight on the pooled asyncpg connection.

The PostgreSQL twin of :mod:`core.sqlite_direct`, for the same few per-job statements: SQLAlchemy compiles the
statement and gives each bind parameter's and returned column's type processors (public ``TypeEngine`` API); a
call binds the values with them and runs the SQL through asyncpg's own prepared-statement cache, on a connection
of SQLAlchemy's pool (which registered its JSON codecs there). The values written and read are the ones a session
would write and read.

Same limits: every value bound by the caller or fixed in the statement, no expanding ``IN``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.sql.dml import UpdateBase

__all__ = ["AsyncpgStatement", "is_disconnect"]

Processor = Callable[[Any], Any] | None


def is_disconnect(error: BaseException | None) -> bool:
    """Whether ``error`` means the connection is gone (it must be dropped, and the statement may run again)."""
    import asyncpg  # type: ignore[import-untyped]

    return isinstance(error, asyncpg.ConnectionDoesNotExistError | asyncpg.InterfaceError | ConnectionError)


def _result_processor(type_: Any, dialect: Dialect) -> Processor:
    """The column type's result processor; ``None`` for the numeric types whose processor wants the driver's type
    code — asyncpg already returns a ``float`` for a double precision column (the only kind in the job table)."""
    try:
        processor: Processor = type_.dialect_impl(dialect).result_processor(dialect, None)
    except (TypeError, KeyError, AttributeError):
        return None
    return processor


class AsyncpgStatement:
    """One statement, compiled for the asyncpg dialect, run with :meth:`run`. Immutable; safe to share."""

    def __init__(self, statement: UpdateBase, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        if not compiled.positional or compiled.positiontup is None or "POSTCOMPILE" in compiled.string:
            raise ValueError("AsyncpgStatement needs a positional statement without an expanding IN")
        self.statement = statement
        self.sql = compiled.string
        self._names = list(compiled.positiontup)
        self._fixed = {
            name: compiled.binds[name].effective_value for name in self._names if not compiled.binds[name].required
        }
        self._binds: list[Processor] = [
            compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect) for name in self._names
        ]
        self._results: list[tuple[str, Processor]] = [
            (str(column["name"]), _result_processor(column["type"], dialect))
            for column in statement.returning_column_descriptions
        ]

    async def run(self, conn: Any, params: Mapping[str, Any] | None) -> tuple[list[dict[str, Any]], int]:
        """Execute on the asyncpg connection ``conn`` (outside any transaction: autocommit).

        Returns every returned row as a dict, and the row count.

        Raises:
            sqlalchemy.exc.IntegrityError: a constraint refused the write.
            sqlalchemy.exc.DBAPIError: any other database error (see :func:`is_disconnect` for a lost connection).
        """
        import asyncpg

        given = params or {}
        fixed = self._fixed
        values = [given[name] if name in given else fixed[name] for name in self._names]
        bound = [
            value if process is None else process(value) for process, value in zip(self._binds, values, strict=True)
        ]
        try:
            if self._results:
                records = await conn.fetch(self.sql, *bound)
                count = len(records)
            else:
                status = await conn.execute(self.sql, *bound)
                records, count = [], int(status.rsplit(" ", 1)[-1]) if status[-1:].isdigit() else -1
        except asyncpg.IntegrityConstraintViolationError as error:
            raise IntegrityError(self.sql, bound, error) from error
        except asyncpg.PostgresError as error:
            raise DBAPIError(self.sql, bound, error) from error
        rows = [
            {
                name: (raw if process is None else process(raw))
                for (name, process), raw in zip(self._results, record, strict=True)
            }
            for record in records
        ]
        return rows, count

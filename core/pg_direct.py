"""A Core statement compiled once for asyncpg, then run straight on the pooled asyncpg connection.

The PostgreSQL twin of :mod:`core.sqlite_direct`, for the same few per-job statements: what SQLAlchemy computed when
it compiled the statement (:class:`core.compiled_write.CompiledWrite`, with its limits) binds the values, and the
SQL runs through asyncpg's own prepared-statement cache, on a connection of SQLAlchemy's pool (which registered its
JSON codecs there).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.exc import DBAPIError, IntegrityError

from core.compiled_write import CompiledWrite

__all__ = ["AsyncpgStatement", "is_disconnect"]


def is_disconnect(error: BaseException | None) -> bool:
    """Whether ``error`` means the connection is gone (it must be dropped, and the statement may run again)."""
    import asyncpg  # type: ignore[import-untyped]

    # InternalClientError: the protocol is in a state it cannot leave (the server ended the session under it).
    lost = asyncpg.ConnectionDoesNotExistError | asyncpg.InterfaceError | asyncpg.InternalClientError | ConnectionError
    return isinstance(error, lost)


class AsyncpgStatement(CompiledWrite):
    """One statement, compiled for the asyncpg dialect, run with :meth:`run`. Immutable; safe to share."""

    async def run(self, conn: Any, params: Mapping[str, Any] | None) -> tuple[list[dict[str, Any]], int]:
        """Execute on the asyncpg connection ``conn`` (outside any transaction: autocommit).

        Returns every returned row as a dict, and the row count.

        Raises:
            sqlalchemy.exc.IntegrityError: a constraint refused the write.
            sqlalchemy.exc.DBAPIError: any other database error (see :func:`is_disconnect` for a lost connection).
        """
        import asyncpg

        bound = self.bind(params)
        try:
            if self.returns_rows:
                records = await conn.fetch(self.sql, *bound)
                count = len(records)
            else:
                status = await conn.execute(self.sql, *bound)
                records, count = [], int(status.rsplit(" ", 1)[-1]) if status[-1:].isdigit() else -1
        except asyncpg.IntegrityConstraintViolationError as error:
            raise IntegrityError(self.sql, bound, error) from error
        except asyncpg.PostgresError as error:
            raise DBAPIError(self.sql, bound, error) from error
        return self.rows(records), count

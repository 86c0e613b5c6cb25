"""PostgreSQL through asyncpg: :class:`AsyncpgStatement` (a compiled write run on a pooled connection) and
:class:`QueuedJobListener` (``LISTEN`` on the channel of queued jobs; ``start`` says ``False`` on SQLite).

Both run on the event loop of the engine they use; the listener calls back on that loop (docs/design/storage.md).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from core.backends.compiled_write import CompiledWrite

__all__ = ["QUEUED_CHANNEL", "AsyncpgStatement", "QueuedJobListener", "is_disconnect"]

log = logging.getLogger(__name__)

QUEUED_CHANNEL = "studyjobs_jobs"
"""The channel of migration 0003's trigger (the migration repeats the name: revisions are frozen)."""


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


class QueuedJobListener:
    """Calls ``on_queued()`` on the event loop each time a job becomes queued. Use from one event loop.

    Args:
        engine: The application's database engine (PostgreSQL through asyncpg; anything else is not listened to).
        on_queued: A cheap, non-blocking callback (e.g. ``asyncio.Event.set``).
    """

    def __init__(self, engine: AsyncEngine, on_queued: Callable[[], None]) -> None:
        self.engine = engine
        self.on_queued = on_queued
        self._conn: AsyncConnection | None = None
        self._driver: Any = None

    async def start(self) -> bool:
        """Open the listening connection; ``False`` (and nothing held) when this database cannot notify."""
        if self.engine.dialect.name != "postgresql" or self.engine.dialect.driver != "asyncpg":
            return False
        await self.close()
        conn = await self.engine.connect()
        try:
            raw = await conn.get_raw_connection()
            driver: Any = raw.driver_connection
            await driver.add_listener(QUEUED_CHANNEL, self._notified)
        except BaseException:
            await conn.close()
            raise
        self._conn, self._driver = conn, driver
        return True

    @property
    def listening(self) -> bool:
        """Whether the listening connection is open (a lost connection stops the notifications)."""
        return self._driver is not None and not self._driver.is_closed()

    async def close(self) -> None:
        """Stop listening and give the connection back (closed if it was lost). Idempotent."""
        conn, driver = self._conn, self._driver
        self._conn = self._driver = None
        if conn is None:
            return
        try:
            if driver is not None and not driver.is_closed():
                await driver.remove_listener(QUEUED_CHANNEL, self._notified)
        except Exception:  # the connection went away meanwhile
            log.debug("could not remove the listener of %s", QUEUED_CHANNEL, exc_info=True)
        await conn.close()

    def _notified(self, *_args: Any) -> None:
        self.on_queued()

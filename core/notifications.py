"""PostgreSQL notifications of queued jobs: ``LISTEN`` on the channel that migration ``0003``'s trigger notifies.

Whenever a job row becomes queued (enqueued, retried, requeued, released), PostgreSQL notifies ``studyjobs_jobs``.
A :class:`QueuedJobListener` holds one connection of the database's pool open with a listener on that channel and
calls back on the event loop, so a daemon dispatches new work within milliseconds without polling the table. On
SQLite (no notifications; ``PRAGMA data_version`` serves instead) :meth:`QueuedJobListener.start` says ``False``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from core.db import AsyncDatabaseManager

__all__ = ["QUEUED_CHANNEL", "QueuedJobListener"]

log = logging.getLogger(__name__)

QUEUED_CHANNEL = "studyjobs_jobs"
"""The channel of migration 0003's trigger (the migration repeats the name: revisions are frozen)."""


class QueuedJobListener:
    """Calls ``on_queued()`` on the event loop each time a job becomes queued. Use from one event loop.

    Args:
        db: The application's database (PostgreSQL through asyncpg; anything else is not listened to).
        on_queued: A cheap, non-blocking callback (e.g. ``asyncio.Event.set``).
    """

    def __init__(self, db: AsyncDatabaseManager, on_queued: Callable[[], None]) -> None:
        self.db = db
        self.on_queued = on_queued
        self._conn: AsyncConnection | None = None
        self._driver: Any = None

    async def start(self) -> bool:
        """Open the listening connection; ``False`` (and nothing held) when this database cannot notify."""
        if self.db.dialect_name != "postgresql" or self.db.engine.dialect.driver != "asyncpg":
            return False
        await self.close()
        conn = await self.db.engine.connect()
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

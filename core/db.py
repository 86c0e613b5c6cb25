"""``AsyncDatabaseManager``: one async engine and its short sessions for one database URL (SQLite embedded,
PostgreSQL for scale-out; SQLite connections are configured by :mod:`core.backends.sqlite`).

Safe to share between coroutines of one event loop; :meth:`AsyncDatabaseManager.data_version` may be called from
any thread (design: docs/design/jobs.md and docs/design/storage.md).
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

from sqlalchemy import MetaData, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.sql import Executable

from core.backends import sqlite
from core.backends.autocommit import AsyncAutocommit, SQLiteAutocommit, StatementResult
from core.models import Base

__all__ = ["AsyncDatabaseManager"]


class AsyncDatabaseManager:
    """Owns the async engine and the session factory for one database URL.

    Every unit of work opens its own short session through :meth:`get_session_context`; nothing holds a session
    across work. Safe to share between coroutines of one event loop. ``data_version`` may be called from any thread.

    Args:
        url: An SQLAlchemy async URL (``sqlite+aiosqlite:///…`` or ``postgresql+asyncpg://…``).
        metadata: The tables that :meth:`create_tables` makes; defaults to every model on :class:`core.Base`.
        busy_timeout_ms: How long an SQLite writer waits for another writer before giving up.
        echo: Log every statement (debugging).
        engine_options: Passed on to :func:`create_async_engine`.
    """

    def __init__(
        self,
        url: str | URL,
        *,
        metadata: MetaData | None = None,
        busy_timeout_ms: int = sqlite.BUSY_TIMEOUT_MS,
        echo: bool = False,
        **engine_options: Any,
    ) -> None:
        self.url: URL = make_url(url)
        self.metadata: MetaData = metadata if metadata is not None else Base.metadata
        self.busy_timeout_ms = busy_timeout_ms
        self.is_sqlite: bool = self.url.get_backend_name() == "sqlite"
        self._on_sqlite_connect = sqlite.connection_pragmas(busy_timeout_ms)
        if self.is_sqlite:
            if self.sqlite_path is not None:
                sqlite.prepare_file(self.sqlite_path, busy_timeout_ms=busy_timeout_ms)
        else:
            engine_options.setdefault("pool_pre_ping", True)
        self.engine: AsyncEngine = create_async_engine(self.url, echo=echo, **engine_options)
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", self._on_sqlite_connect)
        self.session_factory: async_sessionmaker[AsyncSession] = async_sessionmaker(
            self.engine, expire_on_commit=False, autoflush=False
        )
        self._version_lock = threading.Lock()
        self._version_conn: sqlite3.Connection | None = None
        path = self.sqlite_path
        self._autocommit: SQLiteAutocommit | AsyncAutocommit
        if path is not None:
            self._autocommit = SQLiteAutocommit(
                path, busy_timeout_ms=busy_timeout_ms, on_connect=self._on_sqlite_connect
            )
        elif self.is_sqlite:  # in memory: the database lives in the engine's one connection
            self._autocommit = AsyncAutocommit(self.engine, own_engine=False)
        else:
            self._autocommit = AsyncAutocommit.connect(self.url, **engine_options)

    @property
    def dialect_name(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.url.get_backend_name()

    @property
    def sqlite_path(self) -> Path | None:
        """The SQLite file, or ``None`` for another backend or an in-memory database."""
        if not self.is_sqlite or not self.url.database or self.url.database == ":memory:":
            return None
        return Path(self.url.database)

    @contextlib.asynccontextmanager
    async def get_session_context(self) -> AsyncIterator[AsyncSession]:
        """One short unit of work: commits on success, rolls back on error, always closes.

        A connection whose COMMIT failed is invalidated (closed, never returned to the pool), because SQLite
        leaves such a connection in a state that must not be reused.
        """
        async with self.session_factory() as session:
            try:
                yield session
            except BaseException:
                await session.rollback()
                raise
            try:
                await session.commit()
            except BaseException:
                with contextlib.suppress(Exception):
                    await session.invalidate()
                raise

    async def execute(self, statement: Executable, params: Mapping[str, Any] | None = None) -> StatementResult:
        """Run one statement as its own transaction and fetch every row it returns (the store's hot path).

        No session, no ``BEGIN``/``COMMIT`` round trips: use it for a single ``INSERT``/``UPDATE … RETURNING``
        that is atomic by itself. On SQLite it runs on the calling thread while the file is free and moves to a
        worker thread when another writer holds the lock (see :mod:`core.backends.autocommit`).
        """
        return await self._autocommit.execute(statement, params)

    def prepare(self, statement: Executable) -> Executable:
        """Mark a statement that runs very often for :meth:`execute`'s fastest path; returns it.

        On SQLite it is compiled once for the driver (see :mod:`core.backends.sqlite`): only for an ``INSERT`` /
        ``UPDATE`` whose every value is bound by the caller (no Python-side defaults are applied on that path).
        """
        self._autocommit.prepare(statement)
        return statement

    async def create_tables(self) -> None:
        """Create every table of the metadata (the library's plain path; the application migrates instead)."""
        async with self.engine.begin() as conn:
            await conn.run_sync(self.metadata.create_all)

    async def drop_tables(self) -> None:
        """Drop every table of the metadata."""
        async with self.engine.begin() as conn:
            await conn.run_sync(self.metadata.drop_all)

    def data_version(self) -> int | None:
        """A number that changes whenever any other connection commits to this SQLite file.

        It is ``PRAGMA data_version`` on one private connection that never writes nor holds a transaction, so
        asking costs microseconds and never blocks a writer. ``None`` on other backends (the caller must then
        look at the rows themselves). Thread-safe.
        """
        path = self.sqlite_path
        if path is None:
            return None
        with self._version_lock:
            if self._version_conn is None:
                self._version_conn = sqlite.open_version_reader(path)
            row = self._version_conn.execute("PRAGMA data_version").fetchone()
        return int(row[0])

    async def dispose(self) -> None:
        """Close every pooled connection. The manager must not be used afterwards."""
        with self._version_lock:
            if self._version_conn is not None:
                self._version_conn.close()
                self._version_conn = None
        await self._autocommit.dispose()
        await self.engine.dispose()

    def __repr__(self) -> str:
        return f"AsyncDatabaseManager({self.url.render_as_string(hide_password=True)!r})"

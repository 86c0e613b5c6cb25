"""One statement as its own transaction: the store's hot path (enqueue, claim, progress, close).

:class:`SQLiteAutocommit` runs on the calling thread while the file's write lock is free and moves to a worker
thread when another writer holds it, so an event loop never waits for a writer; :class:`AsyncAutocommit` is one
round trip on PostgreSQL. Chosen by :meth:`core.db.AsyncDatabaseManager.execute` (docs/design/storage.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import URL, Connection, CursorResult, Engine, create_engine, event
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool
from sqlalchemy.sql import Executable
from sqlalchemy.sql.dml import UpdateBase

from core.backends.postgres import AsyncpgStatement, is_disconnect
from core.backends.sqlite import DirectStatement, busy_timeout_pragma, is_busy

__all__ = ["AsyncAutocommit", "SQLiteAutocommit", "StatementResult"]

_INLINE_RETRIES = (0.0002, 0.0005, 0.001, 0.002)
"""Pauses between inline attempts on a busy file (seconds, the loop stays free): another writer's statement
usually ends within a millisecond, far sooner than SQLite's own busy handler, whose first sleep is 1 ms and whose
later ones grow to 100 ms, would look again. After these the statement waits on a worker thread."""


@dataclass(frozen=True, slots=True)
class StatementResult:
    """Every row a statement returned (``RETURNING`` or ``SELECT``), as mappings, and how many rows it changed."""

    rows: Sequence[Mapping[str, Any]]
    rowcount: int

    def first(self) -> Mapping[str, Any] | None:
        """The first row, or ``None``."""
        return self.rows[0] if self.rows else None


def _result(result: CursorResult[Any]) -> StatementResult:
    rows: list[Mapping[str, Any]] = []
    if result.returns_rows:
        keys = list(result.keys())
        rows = [dict(zip(keys, row, strict=True)) for row in result.all()]
    return StatementResult(rows, result.rowcount if result.rowcount is not None else -1)


class SQLiteAutocommit:
    """Single statements on one SQLite file; see the module docstring. Thread-safe.

    Args:
        path: The SQLite file (already created, in WAL mode).
        busy_timeout_ms: How long a statement that found the file busy waits for it, on a worker thread.
        on_connect: Sets the connection's pragmas (``synchronous``, foreign keys); the busy timeout is set here.
    """

    def __init__(self, path: Path, *, busy_timeout_ms: int, on_connect: Callable[[Any, Any], None]) -> None:
        self.busy_timeout_ms = busy_timeout_ms
        url = f"sqlite:///{path}"
        args = {"check_same_thread": False}
        # Inline: never waits for a lock (the caller may be an event loop). One connection per calling thread.
        self._inline: Engine = create_engine(url, poolclass=NullPool, connect_args=args)
        # Fallback: waits up to the busy timeout, on a worker thread; pooled.
        self._blocking: Engine = create_engine(url, connect_args=args, pool_size=2, max_overflow=8)
        for engine, timeout in ((self._inline, 0), (self._blocking, busy_timeout_ms)):
            event.listen(engine, "connect", on_connect)
            event.listen(engine, "connect", busy_timeout_pragma(timeout))
        self._local = threading.local()
        self._direct: dict[int, DirectStatement] = {}  # by id(statement); the value keeps the statement alive
        self._connections: list[Connection] = []
        self._lock = threading.Lock()
        self._closed = False

    def prepare(self, statement: Executable) -> None:
        """Compile ``statement`` once for the driver: later calls run it without SQLAlchemy's per-call work.

        Only for statements whose every value the caller binds (see :mod:`core.backends.sqlite`).
        """
        if not isinstance(statement, UpdateBase):
            raise TypeError("only INSERT, UPDATE and DELETE statements can be prepared")
        with self._lock:
            if id(statement) not in self._direct:
                self._direct[id(statement)] = DirectStatement(statement, self._inline.dialect)

    async def execute(self, statement: Executable, params: Mapping[str, Any] | None = None) -> StatementResult:
        """Run ``statement`` as its own transaction; inline when the file is free, else on a worker thread."""
        direct = self._direct.get(id(statement))
        for pause in _INLINE_RETRIES:
            conn = self._inline_connection()
            try:
                return _run(conn, statement, direct, params)
            except (OperationalError, sqlite3.OperationalError) as error:
                if not is_busy(error):
                    self._drop_inline()
                    raise
            await asyncio.sleep(pause)
        return await asyncio.to_thread(self._execute_blocking, statement, direct, params)

    def _execute_blocking(
        self, statement: Executable, direct: DirectStatement | None, params: Mapping[str, Any] | None
    ) -> StatementResult:
        with self._blocking.connect() as conn:
            return _run(conn.execution_options(isolation_level="AUTOCOMMIT"), statement, direct, params)

    def _inline_connection(self) -> Connection:
        conn: Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            if self._closed:
                raise RuntimeError("the database manager was disposed")
            conn = self._inline.connect().execution_options(isolation_level="AUTOCOMMIT")
            self._local.conn = conn
            with self._lock:
                self._connections.append(conn)
        return conn

    def _drop_inline(self) -> None:
        """Close this thread's inline connection after an unexpected error: it is never reused."""
        conn = getattr(self._local, "conn", None)
        self._local.conn = None
        if conn is not None:
            with self._lock:
                if conn in self._connections:
                    self._connections.remove(conn)
            conn.invalidate()

    async def dispose(self) -> None:
        """Close every connection (inline ones of every thread too)."""
        self._closed = True
        with self._lock:
            connections, self._connections = self._connections, []
        for conn in connections:
            conn.close()
        self._inline.dispose()
        self._blocking.dispose()


def _run(
    conn: Connection, statement: Executable, direct: DirectStatement | None, params: Mapping[str, Any] | None
) -> StatementResult:
    if direct is None:
        return _result(conn.execute(statement, dict(params) if params else None))
    rows, rowcount = direct.run(conn.connection.dbapi_connection, params)  # type: ignore[arg-type]
    return StatementResult(rows, rowcount)


class AsyncAutocommit:
    """Single statements on an async database (PostgreSQL), each in autocommit mode: one round trip.

    It has an engine of its own without the session engine's pre-ping (a ping is one more round trip per
    statement). A connection found dead instead is dropped and the statement runs once more on a fresh one: a
    statement cut off before it committed was rolled back by the server, and one that did commit cannot land
    twice — every lifecycle ``UPDATE`` is conditional (the repeat of a claim that landed matches nothing) and an
    ``INSERT`` that landed makes its repeat fail on the primary key.
    """

    def __init__(self, engine: AsyncEngine, *, own_engine: bool = True) -> None:
        self._engine = engine.execution_options(isolation_level="AUTOCOMMIT")
        self._own = engine if own_engine else None
        self._direct: dict[int, AsyncpgStatement] = {}  # by id(statement); the value keeps the statement alive
        self._kept: dict[asyncio.AbstractEventLoop, list[_KeptConnection]] = {}
        self._keep = engine.dialect.driver == "asyncpg"

    @classmethod
    def connect(cls, url: URL, **engine_options: Any) -> AsyncAutocommit:
        """A runner with its own engine on ``url`` (no pre-ping)."""
        return cls(create_async_engine(url, **{**engine_options, "pool_pre_ping": False}))

    def prepare(self, statement: Executable) -> None:
        """On asyncpg, compile ``statement`` once (see :mod:`core.backends.postgres`); elsewhere nothing to do."""
        if self._engine.dialect.driver != "asyncpg" or id(statement) in self._direct:
            return
        if not isinstance(statement, UpdateBase):
            raise TypeError("only INSERT, UPDATE and DELETE statements can be prepared")
        self._direct[id(statement)] = AsyncpgStatement(statement, self._engine.dialect)

    async def execute(self, statement: Executable, params: Mapping[str, Any] | None = None) -> StatementResult:
        """Run ``statement`` as its own transaction (once more on a fresh connection if the first one was dead)."""
        try:
            return await self._execute(statement, params)
        except DBAPIError as error:
            if not (error.connection_invalidated or is_disconnect(error.orig)):
                raise
        return await self._execute(statement, params)

    async def _execute(self, statement: Executable, params: Mapping[str, Any] | None) -> StatementResult:
        if not self._keep:  # an in-memory SQLite database: its one connection belongs to the engine
            async with self._engine.connect() as conn:
                return _result(await conn.execute(statement, dict(params) if params else None))
        direct = self._direct.get(id(statement))
        kept = await self._take()
        try:
            if direct is None:
                result = _result(await kept.conn.execute(statement, dict(params) if params else None))
            else:
                rows, rowcount = await direct.run(kept.driver, params)
                result = StatementResult(rows, rowcount)
        except DBAPIError as error:
            if error.connection_invalidated or is_disconnect(error.orig):
                await kept.drop(error)
            else:
                self._give_back(kept)
            raise
        except Exception as error:
            if is_disconnect(error):
                await kept.drop(error)
                sql = direct.sql if direct is not None else str(statement)
                raise DBAPIError(sql, None, error, connection_invalidated=True) from error
            self._give_back(kept)
            raise
        except BaseException:  # cancelled in the middle of the protocol: the connection cannot be trusted
            asyncio.get_running_loop().create_task(kept.drop(None))
            raise
        self._give_back(kept)
        return result

    async def _take(self) -> _KeptConnection:
        """A connection of this event loop kept from an earlier statement, or a new one from the pool.

        Checking a connection out of SQLAlchemy's pool for every statement (a greenlet hop, a reset on return)
        costs more than the statement; so statements keep theirs, one per statement in flight.
        """
        idle = self._kept.get(asyncio.get_running_loop())
        while idle:
            kept = idle.pop()
            if not kept.driver.is_closed():
                return kept
            await kept.drop(None)
        conn = await self._engine.connect()
        try:
            raw = await conn.get_raw_connection()
        except BaseException:
            await conn.close()
            raise
        return _KeptConnection(conn, raw)

    def _give_back(self, kept: _KeptConnection) -> None:
        idle = self._kept.setdefault(asyncio.get_running_loop(), [])
        if len(idle) < _KEPT_PER_LOOP:
            idle.append(kept)
        else:
            asyncio.get_running_loop().create_task(kept.close())

    async def dispose(self) -> None:
        """Give the kept connections back and close the pooled connections of its own engine."""
        kept, self._kept = self._kept, {}
        for loop, connections in kept.items():
            if loop is asyncio.get_running_loop():
                for connection in connections:
                    with contextlib.suppress(Exception):
                        await connection.close()
        if self._own is not None:
            await self._own.dispose()


_KEPT_PER_LOOP = 4
"""Idle connections an :class:`AsyncAutocommit` keeps per event loop (more in flight go back to the pool)."""


@dataclass(slots=True)
class _KeptConnection:
    """A pooled connection held open across statements, with its driver connection (found once)."""

    conn: AsyncConnection
    raw: Any

    @property
    def driver(self) -> Any:
        return self.raw.driver_connection

    async def close(self) -> None:
        """Return it to the pool."""
        await self.conn.close()

    async def drop(self, error: BaseException | None) -> None:
        """Invalidate it (the pool opens a new one) and return it; never raises."""
        with contextlib.suppress(Exception):
            self.raw.invalidate(error)
        with contextlib.suppress(Exception):
            await self.conn.close()

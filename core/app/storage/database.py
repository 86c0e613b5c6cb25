"""The application database: open it, migrate it (one transaction under a migration lock; an unversioned database is
adopted or refused with :class:`MigrationError`), and the job store over its ``jobs`` table.

Coroutines on the caller's event loop; the migration runs on a connection of its own (docs/design/storage.md).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import event, inspect, text
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine
from sqlalchemy.pool import NullPool

from core.app.storage.schema import APP_TABLE_NAMES, Job
from core.backends import sqlite
from core.db import AsyncDatabaseManager
from core.models import Base
from core.retry import DEFAULT_BACKOFF
from core.store import JobStore

__all__ = [
    "APP_MAX_ATTEMPTS",
    "MIGRATIONS_DIR",
    "MigrationError",
    "alembic_config",
    "current_revision",
    "downgrade",
    "head_revision",
    "include_name",
    "include_object",
    "make_app_store",
    "migration_connection",
    "open_app_database",
    "schema_differences",
    "upgrade",
]

MIGRATIONS_DIR = Path(__file__).resolve().with_name("migrations")
"""The Alembic script folder (``env.py``, ``script.py.mako``, ``versions/``)."""

APP_MAX_ATTEMPTS: Mapping[str, int] = MappingProxyType({"ingest": 5, "generate": 3, "download_model": 5})
"""Attempt budgets per job kind: reading a file may hit a locked or syncing file; a model call is
expensive; a download resumes where it stopped, so another attempt costs little."""

FIRST_SHAPE_COLUMNS = frozenset(
    {
        "id", "kind", "status", "stage", "progress", "params", "payload", "result_id", "error",
        "attempts", "max_attempts", "started_at", "finished_at", "created_at", "updated_at",
    }
)  # fmt: skip
"""The seed's ``jobs`` columns: an unversioned table with exactly these is revision ``0001``."""

_PG_LOCK_KEY = 0x53_4A_4D_49_47  # "SJMIG": the advisory lock that serialises migrations on one database


class MigrationError(RuntimeError):
    """The database could not be brought to the wanted revision; nothing was changed."""


# -- Alembic plumbing ----------------------------------------------------------------------------------------


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic :class:`Config` pointing at ``core/app/storage/migrations``; ``connection`` is handed to
    ``env.py``."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    """The newest revision this code knows (e.g. ``"0002"``)."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:  # pragma: no cover - the versions folder ships with the package
        raise MigrationError(f"no migrations found in {MIGRATIONS_DIR}")
    return head


def include_name(name: str | None, type_: str, parent_names: Mapping[str, Any]) -> bool:
    """Alembic filter: of the database's tables, look only at the application's (not the broker's)."""
    return type_ != "table" or name in APP_TABLE_NAMES


def include_object(obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any) -> bool:
    """Alembic filter: of the metadata's tables, look only at the application's (not a library user's)."""
    return type_ != "table" or name in APP_TABLE_NAMES


@contextlib.asynccontextmanager
async def migration_connection(
    url: str | URL, *, busy_timeout_ms: int = sqlite.BUSY_TIMEOUT_MS
) -> AsyncIterator[AsyncConnection]:
    """One connection, inside one transaction that holds the migration lock; commits when the block succeeds.

    It has an engine of its own (never the application's pool): on SQLite its connections run with foreign
    keys off and begin with ``BEGIN IMMEDIATE``. Violated foreign keys found at the end abort the transaction.
    """
    url = make_url(url)
    is_sqlite = url.get_backend_name() == "sqlite"
    engine = create_async_engine(url, poolclass=NullPool)
    if is_sqlite:
        event.listen(engine.sync_engine, "connect", sqlite.migration_pragmas(busy_timeout_ms))
        event.listen(engine.sync_engine, "begin", sqlite.begin_immediate)
    try:
        async with engine.begin() as conn:
            if url.get_backend_name() == "postgresql":
                await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK_KEY})
            yield conn
            if is_sqlite:
                broken = (await conn.exec_driver_sql("PRAGMA foreign_key_check")).fetchall()
                if broken:
                    raise MigrationError(f"foreign keys violated after the migration: {broken[:5]!r}")
    finally:
        await engine.dispose()


@contextlib.asynccontextmanager
async def _manager(db_or_url: AsyncDatabaseManager | str | URL) -> AsyncIterator[AsyncDatabaseManager]:
    if isinstance(db_or_url, AsyncDatabaseManager):
        yield db_or_url
        return
    db = AsyncDatabaseManager(db_or_url)
    try:
        yield db
    finally:
        await db.dispose()


def _revision_of(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def _differences(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(
        connection,
        opts={
            "include_name": include_name,
            "include_object": include_object,
            "compare_type": True,
            "compare_server_default": True,
        },
    )
    return list(compare_metadata(context, Base.metadata))


def _adopt_unversioned(connection: Connection, cfg: Config) -> None:
    """Stamp a database that has tables but no migration history (see the module docstring)."""
    if _revision_of(connection) is not None:
        return
    tables = set(inspect(connection).get_table_names()) & APP_TABLE_NAMES
    if not tables:
        return
    columns = {c["name"] for c in inspect(connection).get_columns("jobs")} if "jobs" in tables else set()
    if tables == {"jobs"} and columns == FIRST_SHAPE_COLUMNS:
        command.stamp(cfg, "0001")
    elif not _differences(connection):
        command.stamp(cfg, "head")
    else:
        raise MigrationError(
            f"the database has the tables {sorted(tables)} but no migration history, and their shape "
            "matches no known revision; move it aside or upgrade it by hand"
        )


def _redacted(url: URL) -> str:
    return url.render_as_string(hide_password=True)


# -- the public API ------------------------------------------------------------------------------------------


async def upgrade(db_or_url: AsyncDatabaseManager | str | URL, revision: str = "head") -> str | None:
    """Bring the database to ``revision`` (default: the newest); a database already there is left alone.

    Safe to call from several processes at once (they take turns) and on every start-up.

    Args:
        db_or_url: A manager (left open) or a URL (a manager is made and disposed of).
        revision: The target revision.

    Returns:
        The revision the database is at afterwards.

    Raises:
        MigrationError: the upgrade failed; the transaction was rolled back, so the database is unchanged.
    """
    async with _manager(db_or_url) as db:

        def run(connection: Connection) -> str | None:
            cfg = alembic_config(connection)
            known = {script.revision for script in ScriptDirectory.from_config(cfg).walk_revisions()}
            found = _revision_of(connection)
            if found is not None and found not in known:
                raise MigrationError(
                    f"the database {_redacted(db.url)} is at revision {found}, made by a newer version of "
                    f"StudyJobs (this one knows up to {head_revision()}); update StudyJobs to open it"
                )
            _adopt_unversioned(connection, cfg)
            command.upgrade(cfg, revision)
            return _revision_of(connection)

        try:
            async with migration_connection(db.url, busy_timeout_ms=db.busy_timeout_ms) as conn:
                return await conn.run_sync(run)
        except MigrationError:
            raise
        except Exception as exc:
            raise MigrationError(f"could not upgrade {_redacted(db.url)} to {revision}: {exc}") from exc


async def downgrade(db_or_url: AsyncDatabaseManager | str | URL, revision: str) -> str | None:
    """Take the database back to ``revision`` (for development; data in dropped columns is lost)."""
    async with (
        _manager(db_or_url) as db,
        migration_connection(db.url, busy_timeout_ms=db.busy_timeout_ms) as conn,
    ):

        def run(connection: Connection) -> str | None:
            command.downgrade(alembic_config(connection), revision)
            return _revision_of(connection)

        return await conn.run_sync(run)


async def current_revision(db_or_url: AsyncDatabaseManager | str | URL) -> str | None:
    """The database's revision, or ``None`` when it was never migrated."""
    async with _manager(db_or_url) as db, db.engine.connect() as conn:
        return await conn.run_sync(_revision_of)


async def schema_differences(db_or_url: AsyncDatabaseManager | str | URL) -> list[Any]:
    """How the application's tables differ from the models (Alembic's diff); ``[]`` when they are equal.

    Columns, types, nullability, server defaults, indexes, unique constraints and foreign keys are compared;
    tables that are not the application's are ignored.
    """
    async with _manager(db_or_url) as db, db.engine.connect() as conn:
        return await conn.run_sync(_differences)


async def open_app_database(url: str | URL, **options: Any) -> AsyncDatabaseManager:
    """A manager over the application database, upgraded to head (a fresh database gets every table).

    Args:
        url: ``sqlite+aiosqlite:///…`` or ``postgresql+asyncpg://…``.
        **options: Passed on to :class:`AsyncDatabaseManager`.

    Raises:
        MigrationError: the upgrade failed (the manager is disposed of; the database is unchanged).
    """
    db = AsyncDatabaseManager(url, **options)
    try:
        await upgrade(db)
    except BaseException:
        await db.dispose()
        raise
    return db


def make_app_store(
    db: AsyncDatabaseManager,
    *,
    stale_after: float = 60.0,
    backoff: Sequence[float] = DEFAULT_BACKOFF,
) -> JobStore[Job]:
    """The :class:`JobStore` over ``jobs``, with the application's attempt budgets and ``stale_after``."""
    return JobStore(db, model=Job, stale_after=stale_after, backoff=backoff, max_attempts_by_kind=APP_MAX_ATTEMPTS)

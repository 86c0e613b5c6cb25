"""Alembic environment of the application database: uses the connection :mod:`core.app.storage.database` hands over,
else opens its own; looks only at :data:`core.app.storage.schema.APP_TABLE_NAMES` (docs/design/storage.md,
"Migrations").
"""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy.engine import Connection

import core.app.storage.schema  # noqa: F401 - registers the application's tables on the metadata
from core.app.storage.database import include_name, include_object, migration_connection
from core.models import Base

config = context.config
target_metadata = Base.metadata


def _configure(**options: object) -> None:
    context.configure(
        target_metadata=target_metadata,
        render_as_batch=True,
        include_name=include_name,
        include_object=include_object,
        compare_type=True,
        compare_server_default=True,
        **options,
    )


def run_with_connection(connection: Connection) -> None:
    """Run the migrations on ``connection``, inside the caller's transaction when there is one."""
    _configure(connection=connection)
    with context.begin_transaction():
        context.run_migrations()


def _url() -> str:
    url = context.get_x_argument(as_dictionary=True).get("url") or os.environ.get("STUDYJOBS_DATABASE_URL")
    url = url or config.get_main_option("sqlalchemy.url")
    if not url:
        raise SystemExit("give the database with -x url=… or STUDYJOBS_DATABASE_URL")
    return url


async def _run_online(url: str) -> None:
    async with migration_connection(url) as connection:
        await connection.run_sync(run_with_connection)


if context.is_offline_mode():
    _configure(url=_url(), literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
elif (shared := config.attributes.get("connection")) is not None:
    run_with_connection(shared)
else:
    asyncio.run(_run_online(_url()))

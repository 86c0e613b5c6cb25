"""Helpers the tests import (the fixtures live in conftest.py, which tests never import by name).

A real SQLite file or a real PostgreSQL database per test, the job table a library user would declare, and waits
that poll a condition with a deadline instead of sleeping.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
from sqlalchemy import Uuid
from sqlalchemy.orm import Mapped, mapped_column

from core import BaseJobModel

PG_ADMIN_DSN = os.environ.get("STUDYJOBS_TEST_PG_DSN", "postgresql://postgres@127.0.0.1:5432/test")


class SampleJob(BaseJobModel):
    """The job table a user of the library would declare: three lines."""

    __tablename__ = "sample_jobs"


class FamilyJob(BaseJobModel):
    """A job table whose follow-up jobs name their parent job, as an application's documents do."""

    __tablename__ = "family_jobs"

    parent_id: Mapped[uuid.UUID | None] = mapped_column(Uuid, nullable=True, index=True)


async def pg_admin(sql: str) -> None:
    """Run one statement on the admin database (CREATE/DROP DATABASE)."""
    conn = await asyncpg.connect(PG_ADMIN_DSN)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def pg_url(name: str) -> str:
    """The async SQLAlchemy URL of database ``name`` on the test server."""
    base = PG_ADMIN_DSN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://", 1)
    return f"{base}/{name}"


@contextlib.asynccontextmanager
async def temporary_database(backend: str, folder: Path) -> AsyncIterator[str]:
    """A fresh, empty database of ``backend``: a file in ``folder``, or a PostgreSQL database dropped after."""
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{folder / f'jobs-{uuid.uuid4().hex[:8]}.db'}"
        return
    name = f"sj_{uuid.uuid4().hex[:12]}"
    await pg_admin(f'CREATE DATABASE "{name}" TEMPLATE template0')
    await pg_admin(f'ALTER DATABASE "{name}" SET synchronous_commit = off')  # speed only; same semantics
    try:
        yield pg_url(name)
    finally:
        await pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

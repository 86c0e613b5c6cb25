"""Helpers the tests import (the fixtures live in conftest.py, which tests never import by name).

A real SQLite file or a real PostgreSQL database per test, the job table a library user would declare, and waits
that poll a condition with a deadline instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
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


def wait_for(predicate, *, timeout: float = 10.0, interval: float = 0.01, message: str = "condition") -> None:
    """Poll ``predicate`` until it is true; fail the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {message}")
        time.sleep(interval)


async def async_wait_for(predicate, *, timeout: float = 10.0, interval: float = 0.01, message: str = "condition"):
    """Await ``predicate()`` (sync or async) until it is true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {message}")
        await asyncio.sleep(interval)


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

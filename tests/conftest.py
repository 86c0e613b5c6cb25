"""Fixtures shared by the whole suite: real databases (an SQLite file and the machine's PostgreSQL) and leak checks.

Every database test runs twice, once per backend, with the same code. PostgreSQL tests get a database of their own
(created from ``template0``, dropped afterwards), so they can run side by side and from several processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

from core import AsyncDatabaseManager, BaseJobModel, JobStore

PG_ADMIN_DSN = os.environ.get("STUDYJOBS_TEST_PG_DSN", "postgresql://postgres@127.0.0.1:5432/test")
BACKENDS = ("sqlite", "postgresql")


class SampleJob(BaseJobModel):
    """The job table a user of the library would declare: three lines."""

    __tablename__ = "sample_jobs"


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


async def _pg_admin(sql: str) -> None:
    conn = await asyncpg.connect(PG_ADMIN_DSN)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def _pg_url(name: str) -> str:
    base = PG_ADMIN_DSN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://", 1)
    return f"{base}/{name}"


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The backend under test: ``"sqlite"`` or ``"postgresql"``."""
    return str(request.param)


@contextlib.asynccontextmanager
async def temporary_database(backend: str, folder: Path) -> AsyncIterator[str]:
    """A fresh, empty database of ``backend``: a file in ``folder``, or a PostgreSQL database dropped after."""
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{folder / f'jobs-{uuid.uuid4().hex[:8]}.db'}"
        return
    name = f"sj_{uuid.uuid4().hex[:12]}"
    await _pg_admin(f'CREATE DATABASE "{name}" TEMPLATE template0')
    await _pg_admin(f'ALTER DATABASE "{name}" SET synchronous_commit = off')  # speed only; same semantics
    try:
        yield _pg_url(name)
    finally:
        await _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
async def database_url(backend: str, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh, empty database of the backend under test."""
    async with temporary_database(backend, tmp_path) as url:
        yield url


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[AsyncDatabaseManager]:
    """A manager over the fresh database, with every declared table created."""
    manager = AsyncDatabaseManager(database_url)
    await manager.create_tables()
    try:
        yield manager
    finally:
        await manager.dispose()


@pytest.fixture
def store(db: AsyncDatabaseManager) -> JobStore[SampleJob]:
    """A store over :class:`SampleJob` with a short lease and a fast backoff for tests."""
    return JobStore(db, model=SampleJob, stale_after=60.0, backoff=(60, 300, 900, 3600))


@pytest.fixture(autouse=True)
def no_leaked_threads() -> Iterator[None]:
    """Fail a test that leaves a thread running (engines, timers and workers must be cleaned up)."""
    before = set(threading.enumerate())
    yield

    def leaked() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if t not in before and t.is_alive() and not t.daemon]

    deadline = time.monotonic() + 5.0
    while leaked() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not leaked(), f"threads left running: {leaked()}"

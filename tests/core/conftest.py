"""Fixtures of the core tests that need the SQLite file itself (its path, other connections to it)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from core import AsyncDatabaseManager, JobStore
from tests.jobtesting import SampleJob


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[JobStore[SampleJob]]:
    """A store on ``tmp_path / "jobs.db"`` (engine disposed after the test)."""
    db = AsyncDatabaseManager(f"sqlite+aiosqlite:///{tmp_path / 'jobs.db'}")
    await db.create_tables()
    try:
        yield JobStore(db, model=SampleJob, stale_after=60.0)
    finally:
        await db.dispose()

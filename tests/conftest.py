"""Fixtures shared by the whole suite: real databases (an SQLite file and the machine's PostgreSQL) and leak checks.

Every database test runs twice, once per backend, with the same code. PostgreSQL tests get a database of their own
(created from ``template0``, dropped afterwards), so they can run side by side and from several processes.
"""

from __future__ import annotations

import os

# No test, and no process a test starts, may reach the developer's own keyring: keyring's failing backend is the
# default ("no keyring"); tests that need one set tests/keyringtesting.py's.
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"

import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path

import keyring
import pytest
from jobtesting import SampleJob, temporary_database
from keyring.backend import KeyringBackend
from keyringtesting import MemoryKeyring, WaitingKeyring

from core import AsyncDatabaseManager, JobStore

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The backend under test: ``"sqlite"`` or ``"postgresql"``."""
    return str(request.param)


@contextmanager
def _keyring_in_force(backend: KeyringBackend) -> Iterator[None]:
    """``backend`` is the keyring meanwhile; the one in force before is put back after."""
    before = keyring.get_keyring()
    keyring.set_keyring(backend)
    try:
        yield
    finally:
        keyring.set_keyring(before)


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    """A keyring in memory for this test."""
    backend = MemoryKeyring()
    with _keyring_in_force(backend):
        yield backend


@pytest.fixture
def waiting_keyring() -> Iterator[WaitingKeyring]:
    """A keyring in memory whose reads wait for the test's word, as a locked one waits for its password; it is
    given at the end so that no read stays waiting."""
    backend = WaitingKeyring()
    with _keyring_in_force(backend):
        try:
            yield backend
        finally:
            backend.answer.set()


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

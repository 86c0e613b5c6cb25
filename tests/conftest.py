"""Fixtures shared by the whole suite: real databases (an SQLite file and the machine's PostgreSQL), leak checks, the
tiny deterministic GGUF model, and the slow marker's rule.

Every database test runs twice, once per backend, with the same code. PostgreSQL tests get a database of their own
(created from ``template0``, dropped afterwards), so they can run side by side and from several processes.
"""

from __future__ import annotations

import os

# No test, and no process a test starts, may reach the developer's own keyring: keyring's failing backend is the
# default ("no keyring"); tests that need one set tests/keyringtesting.py's.
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"

import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path

import keyring

# pydantic is imported whole before any test module: with pytest-qt loaded, PySide6 6.11's import hook
# (shibokensupport.feature) reads ``__wrapped__`` of every module a test module imports, and pydantic's lazy
# ``__getattr__`` answers that with an import of a module still being initialised (ImportError at collection when
# a test module is the first to import pydantic). Preloading its lazy parts keeps the hook off that path.
import pydantic.fields  # noqa: F401
import pytest
from keyring.backend import KeyringBackend

from core import AsyncDatabaseManager, JobStore
from daemon.llm.llamacpp import LlamaCppGenerator, unload_all
from devkit.tiny_gguf import write_tiny_model
from tests.jobtesting import SampleJob, temporary_database
from tests.keyringtesting import MemoryKeyring, WaitingKeyring
from tests.waiting import wait_until

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

    try:
        wait_until(lambda: not leaked(), timeout=5.0, what="the test's threads to end", interval=0.01)
    except AssertionError as timed_out:
        raise AssertionError(f"{timed_out}; threads left running: {leaked()}") from None


TESTS = Path(__file__).resolve().parent

SLOW_PATHS = {
    "daemon/worker/": "starts the real worker daemon, its watchdog and its reader processes",
    "packaging/test_windows.py": "builds the Windows installer and runs it under Wine",
    "gui/test_first_hour_on_a_real_screen.py": "runs the app and its worker on a real X server",
}
"""Test files and folders (relative to tests/, a folder ends in ``/``) whose every test is slow, and why."""

SLOW_FIXTURES = {
    "tiny_gguf": "the tiny model: the window's tests only need it for a real worker process",
    "launcher": "the window's launcher starts the real worker",
    "linux_build": "builds the Linux bundle and the .deb",
}
"""Fixtures that make a test slow, and why."""


def slow_because(item: pytest.Item) -> str | None:
    """Why ``item`` is slow by the rule above (``None`` when it is not): where it lives or what it uses."""
    where = item.path.relative_to(TESTS).as_posix() if item.path.is_relative_to(TESTS) else ""
    for path, reason in SLOW_PATHS.items():
        if where == path or (path.endswith("/") and where.startswith(path)):
            return reason
    used = getattr(item, "fixturenames", ())
    return next((reason for fixture, reason in SLOW_FIXTURES.items() if fixture in used), None)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The one rule of the ``slow`` mark: a test that starts a real worker process, a real window or app process, a
    watchdog, or builds packages (see :data:`SLOW_PATHS` and :data:`SLOW_FIXTURES`). ``scripts/test -m "not slow"``
    is the fast inner loop; ``.ci/run`` runs everything. A test the rule cannot see (it starts such a process
    itself, or loads a real model for minutes) carries ``@pytest.mark.slow``."""
    for item in items:
        if slow_because(item) is not None:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The tiny successor model (see ``devkit.tiny_gguf``), written once per session."""
    path = write_tiny_model(tmp_path_factory.mktemp("models") / "tiny.gguf")
    yield path
    unload_all()


@pytest.fixture
def tiny(tiny_model: Path) -> LlamaCppGenerator:
    """The tiny model with a 4,096-token context and one thread (a test module may ask for another context)."""
    return LlamaCppGenerator(tiny_model, n_ctx=4096, n_threads=1)

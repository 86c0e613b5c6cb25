"""Fixtures for the GUI tests: the offscreen platform, a qasync loop per test, a real app database on a temp file.

Tests are plain synchronous functions. Async work runs through ``run(coro)``, which drives the qasync loop until
the coroutine ends; inside a coroutine, wait with the ``wait_until`` fixture (asyncio sleeps, never
``qtbot.wait*``). A test fails when a coroutine step ran with no running event loop ("no running event loop" in
the log).
"""

from __future__ import annotations

import os

os.environ["QT_QPA_PLATFORM"] = "offscreen"  # before Qt is imported anywhere
os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")

import asyncio
import dataclasses
import functools
import logging
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytestqt.plugin
import qasync
from PySide6.QtWidgets import QApplication

from core.app.settings.config import Settings
from core.app.storage.database import make_app_store, open_app_database
from core.app.storage.schema import Job
from core.db import AsyncDatabaseManager
from core.store import JobStore
from gui.main_window import MainWindow
from gui.tasks import run_loop_until
from tests.gui.guidaemon import write_tiny_model
from tests.waiting import async_wait_until

Run = Callable[..., Any]


@pytest.fixture(scope="session")
def tiny_gguf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The suite's tiny deterministic model, written once per session by a subprocess (no ``daemon`` import here)."""
    return write_tiny_model(tmp_path_factory.mktemp("tiny-model") / "tiny.gguf")


@pytest.fixture
def qloop(qapp: QApplication, monkeypatch: pytest.MonkeyPatch) -> Iterator[qasync.QEventLoop]:
    """A qasync loop over the test's QApplication, set as the current event loop.

    pytest-qt processes Qt's events between a test's phases; there qasync would step the loop's tasks with no
    running loop (asyncio's primitives then fail), so those events are processed through the loop instead, as the
    app always does; and the loop is driven by :func:`gui.tasks.run_loop_until`, as the app's is (qasync's own
    ``run_until_complete`` processes events once more after the loop stopped)."""
    qapp.setQuitOnLastWindowClosed(False)
    loop = qasync.QEventLoop(qapp, already_running=False)
    asyncio.set_event_loop(loop)

    def process_events() -> None:
        if loop.is_closed() or loop.is_running():
            qapp.processEvents()
        else:
            run_loop_until(loop, asyncio.sleep(0))

    monkeypatch.setattr(pytestqt.plugin, "_process_events", process_events)
    yield loop
    run_loop_until(loop, asyncio.sleep(0))
    loop.close()
    asyncio.set_event_loop(None)


@pytest.fixture
def run(qloop: qasync.QEventLoop) -> Run:
    """``run(coro, timeout=30)``: drive the qasync loop until ``coro`` ends and return its result."""

    def runner(coro: Awaitable[Any], timeout: float = 30.0) -> Any:
        return run_loop_until(qloop, asyncio.wait_for(coro, timeout))

    return runner


@pytest.fixture
def wait_until() -> Callable[..., Awaitable[Any]]:
    """``await wait_until(condition, what=..., timeout=30)``: :func:`tests.waiting.async_wait_until` with the GUI
    tests' defaults (30 s, a look every 20 ms), on the running qasync loop."""
    return functools.partial(async_wait_until, timeout=30.0, interval=0.02)


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """Default settings over a temp data folder (nothing touches the user's folders)."""
    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setenv("STUDYJOBS_DATA_DIR", str(data))
    return dataclasses.replace(Settings.defaults(data), output_dir=tmp_path / "out", hide_to_tray=False)


@pytest.fixture
def app_db(settings: Settings, run: Run) -> Iterator[AsyncDatabaseManager]:
    """The migrated application database on a temp SQLite file, disposed after the test."""
    db = run(open_app_database(settings.database_url))
    yield db
    run(db.dispose())


@pytest.fixture
def store(app_db: AsyncDatabaseManager) -> JobStore[Job]:
    """The application's job store."""
    return make_app_store(app_db)


@pytest.fixture
def make_window(app_db: AsyncDatabaseManager, store: JobStore[Job], settings: Settings, run: Run) -> Iterator[Any]:
    """``make_window(**options)``: a shown, started MainWindow; shut down and deleted after the test."""
    windows: list[MainWindow] = []

    def factory(**options: Any) -> MainWindow:
        window = MainWindow(db=app_db, store=store, settings=settings, **options)
        window.start()
        window.show()
        windows.append(window)
        return window

    yield factory
    for window in windows:
        run(window.shutdown())
        window.hide()
        window.deleteLater()
    run(asyncio.sleep(0.05))


@pytest.fixture
def window(make_window: Any) -> MainWindow:
    """A shown main window over the test database."""
    return make_window()


class _LoopErrors(logging.Handler):
    """Keeps the log records that say a coroutine ran outside its event loop."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.found: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f" {record.exc_info[1]}"
        if "no running event loop" in text:
            self.found.append(f"{record.name}: {record.getMessage().splitlines()[0]}")


@pytest.fixture(autouse=True)
def no_step_outside_the_loop() -> Iterator[None]:
    """Fail the test when anything logged "no running event loop" during it (its fixtures' teardown included)."""
    handler = _LoopErrors()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)
    assert handler.found == [], f"a coroutine ran with no running event loop: {handler.found}"

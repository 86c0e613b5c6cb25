"""The desktop app's entry point: one instance per data folder, the qasync loop, the window, a clean exit.

``main(argv)`` runs on the main thread, which becomes the UI thread; it opens one ``AsyncDatabaseManager`` for the
whole GUI on the qasync loop and, on the way out, stops every task and timer and disposes the engine.
Command line: ``studyjobs-gui [FILE …] [--quit]``. Start-up order: docs/design/window.md.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from core.app.exit_codes import EXIT_DATABASE, EXIT_MISSING_LIBRARIES, EXIT_OK, EXIT_USAGE
from core.app.logs import configure_logging
from core.app.settings.config import Settings, SettingsError, load_settings, resolve_language
from core.app.storage.database import MigrationError, make_app_store, open_app_database
from core.app.workers.launch import login_command
from gui.error_dialog import ErrorReporter
from gui.i18n import ICONS_DIR, install_translations
from gui.main_window import MainWindow
from gui.platform_check import check_desktop
from gui.single_instance import SingleInstance
from gui.tasks import run_loop_until
from gui.theme import apply_palette
from gui.tray import Tray
from gui.worker import autostart
from gui.worker.process import DaemonLauncher

__all__ = ["main"]

log = logging.getLogger(__name__)


def _arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="studyjobs-gui", description="The StudyJobs window.")
    parser.add_argument("files", nargs="*", help="documents to add")
    parser.add_argument("--quit", action="store_true", help="ask the running window to quit")
    parser.add_argument("--no-daemon", action="store_true", help="do not start the worker")
    args, _qt_args = parser.parse_known_args(list(argv))
    return args


def app_icon() -> QIcon:
    """The application icon."""
    return QIcon(str(ICONS_DIR / "studyjobs.svg"))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the app; returns the exit code (0 on a normal quit)."""
    argv = list(sys.argv if argv is None else argv)
    args = _arguments(argv[1:])
    if QApplication.instance() is None and (problem := _desktop_problem()):
        print(problem, file=sys.stderr)  # Qt would abort the process without saying what to install
        return EXIT_MISSING_LIBRARIES
    app = QApplication.instance() or QApplication(argv)
    assert isinstance(app, QApplication)
    app.setApplicationName("StudyJobs")
    app.setOrganizationName("StudyJobs")
    app.setQuitOnLastWindowClosed(False)
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(f"studyjobs-gui: {exc}", file=sys.stderr)
        if QApplication.platformName() != "offscreen":
            QMessageBox(QMessageBox.Icon.Critical, "StudyJobs", str(exc)).exec()  # no loop runs yet: exec is safe
        return EXIT_USAGE
    configure_logging(settings.log_dir, "gui")
    instance = SingleInstance(settings.data_dir)
    files = [str(Path(f).expanduser().absolute()) for f in args.files]
    if instance.hand_over({"quit": True} if args.quit else {"files": files}):
        log.info("handed over to the running instance")
        return EXIT_OK
    if args.quit:
        return EXIT_OK
    instance.listen()
    install_translations(app, settings.language)
    apply_palette(app)
    app.setWindowIcon(app_icon())
    import qasync  # imported here: it picks the Qt binding that is already loaded

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    try:
        first_run = not settings.settings_path.exists()  # a fresh install: the welcome panel, once
        return run_loop_until(
            loop, _run(app, settings, instance, files, start_daemon=not args.no_daemon, first_run=first_run)
        )
    finally:
        instance.close()
        loop.close()
        asyncio.set_event_loop(None)


async def _run(
    app: QApplication,
    settings: Settings,
    instance: SingleInstance,
    files: list[str],
    *,
    start_daemon: bool,
    first_run: bool = False,
) -> int:
    loop = asyncio.get_running_loop()
    quit_event = asyncio.Event()
    previous = {sig: signal.signal(sig, lambda *_: loop.call_soon_threadsafe(quit_event.set))
                for sig in (signal.SIGINT, signal.SIGTERM)}  # fmt: skip
    try:
        db = await open_app_database(settings.database_url)
    except (MigrationError, OSError) as exc:
        log.error("cannot open the database: %s", exc, exc_info=True)
        _restore_signals(previous)
        return EXIT_DATABASE
    reporter: ErrorReporter | None = None
    old_hook = sys.excepthook
    try:
        store = make_app_store(db, stale_after=settings.stale_after)
        tray = Tray(app_icon(), notifications=settings.notifications)
        launcher = DaemonLauncher(None if start_daemon else ["off"], log_dir=settings.log_dir)
        window = MainWindow(db=db, store=store, settings=settings, launcher=launcher, tray=tray, first_run=first_run)
        reporter = window.reporter

        def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
            assert reporter is not None
            reporter.report(exc.with_traceback(tb))

        sys.excepthook = hook
        loop.set_exception_handler(lambda _l, ctx: _loop_error(reporter, ctx))
        for signal_ in (window.quit_requested, tray.quit_requested, instance.quit_requested):
            signal_.connect(quit_event.set)
        tray.show_requested.connect(lambda: _bring_forward(window))
        instance.files_received.connect(lambda paths: _handed_over(window, paths))
        window.start()
        window.show()
        log.info("window shown over %s", db)
        if files:
            window.add_files(files)
        window.tasks.start(window.daemon_bar.start_if_none(), name="daemon-autostart")
        _refresh_login_autostart(settings)
        await quit_event.wait()
        log.info("quitting")
        await window.shutdown()
        window.hide()
        tray.close()
        window.deleteLater()
    finally:
        sys.excepthook = old_hook
        loop.set_exception_handler(None)
        await db.dispose()
        _restore_signals(previous)
    return EXIT_OK


def _desktop_problem() -> str:
    """What to install when Qt could not open a window on this desktop (:mod:`gui.platform_check`), else ``""``."""
    try:
        language = load_settings().user_language()
    except SettingsError:
        language = resolve_language("system")
    return check_desktop(os.environ, language)


def _restore_signals(previous: dict[Any, Any]) -> None:
    for sig, handler in previous.items():
        signal.signal(sig, handler)


def _loop_error(reporter: ErrorReporter | None, context: dict[str, Any]) -> None:
    exc = context.get("exception")
    if isinstance(exc, BaseException) and reporter is not None:
        reporter.report(exc)
    else:
        log.error("event loop: %s", context.get("message"))


def _refresh_login_autostart(settings: Settings) -> None:
    """Re-register the worker at login when the user asked for it, so a moved app keeps starting it.

    Never when the user turned it off in the desktop's own startup settings.
    """
    if not settings.autostart:
        return
    try:
        if autostart.status() in (autostart.AutostartStatus.ENABLED, autostart.AutostartStatus.DISABLED):
            autostart.enable(*login_command())
    except (OSError, ValueError):
        log.warning("could not register the worker to start at login", exc_info=True)


def _bring_forward(window: MainWindow) -> None:
    window.showNormal()
    window.raise_()
    window.activateWindow()


def _handed_over(window: MainWindow, paths: list[str]) -> None:
    log.info("a second launch handed over %d file(s)", len(paths))
    _bring_forward(window)
    if paths:
        window.add_files(paths)

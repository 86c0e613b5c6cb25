"""Take the screenshots of the first run's welcome and of Settings → Model from a real run on a real X server.

Usage: ``.venv/bin/python docs/model_screenshots.py`` (needs ``Xvfb``; under a minute). A fresh data folder (no
settings file: a first run), the real catalog (``resources/models.json``), the window as ``studyjobs-gui`` opens it,
with the worker the window starts. The badges, RAM figures and guide times are what this computer gives; nothing is
downloaded (the hub is not reachable from the machines that take them). Pictures go to ``docs/screenshots/``:
``welcome_<language>.png`` (the window with its welcome panel) and ``model_page_<language>.png``.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docs.screenshots import OUT, WINDOW_SIZE, run_in_app, until, x_server  # noqa: E402


def save(app: Any, widget: Any, path: Path) -> None:
    """Grab ``widget``'s window from the X screen into ``path``."""
    frame = widget.frameGeometry()
    app.primaryScreen().grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height()).save(str(path))
    print(f"wrote {path.relative_to(ROOT)}")


async def shoot(app: Any, language: str, home: Path) -> None:
    """One language: the first run's window with its welcome panel, then Settings → Model."""
    from core.app.settings.config import load_settings
    from core.app.storage.database import make_app_store, open_app_database
    from gui.i18n import install_translations
    from gui.main_window import MainWindow
    from gui.theme import apply_palette
    from gui.worker.process import DaemonLauncher

    os.environ["STUDYJOBS_DATA_DIR"] = str(home / f"data-{language}")
    settings = load_settings()
    first_run = not settings.settings_path.exists()
    install_translations(app, language)
    apply_palette(app, "light")
    db = await open_app_database(settings.database_url)
    launcher = DaemonLauncher(None, log_dir=settings.log_dir)
    window = MainWindow(db=db, store=make_app_store(db), settings=settings, launcher=launcher, first_run=first_run)
    try:
        window.resize(*WINDOW_SIZE)
        window.move(0, 0)
        window.start()
        window.show()
        await window.daemon_bar.start_if_none()
        await until(lambda: window.daemon_bar.alive, timeout=60, what="the worker in the status bar")
        await asyncio.sleep(2.0)  # the welcome's look for local servers
        save(app, window, OUT / f"welcome_{language}.png")
        window.open_model_settings()
        dialog = window.settings_dialog
        dialog.resize(980, 980)
        dialog.move(10, 10)
        await asyncio.sleep(1.5)
        save(app, dialog, OUT / f"model_page_{language}.png")
        dialog.reject()
    finally:
        await window.shutdown()
        window.hide()
        window.deleteLater()
        process = launcher.process
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)
            process.wait(30)
        await db.dispose()


async def run(app: Any, home: Path) -> None:
    for language in ("en", "pt_BR"):
        await shoot(app, language, home)


def main() -> int:
    """Take the pictures in a fresh home."""
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="studyjobs-model-screens-") as tmp, x_server():
        home = Path(tmp)
        os.environ.update(HOME=str(home), QT_QPA_PLATFORM="xcb")
        for name in ("STUDYJOBS_DATABASE_URL", "STUDYJOBS_CATALOG"):
            os.environ.pop(name, None)
        run_in_app(run, home)
    return 0


if __name__ == "__main__":
    sys.exit(main())

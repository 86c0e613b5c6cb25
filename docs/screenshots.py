"""Render the main window with a realistic set of jobs to PNG files under ``docs/screenshots/``.

Usage: ``.venv/bin/python docs/screenshots.py`` (runs offscreen; writes ``main_window_pt_BR.png``,
``main_window_en.png`` and ``main_window_en_dark.png``).
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import asyncio
import dataclasses
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import qasync  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from core.appdb import make_app_store, open_app_database  # noqa: E402
from core.config import Settings  # noqa: E402
from gui.demo_data import seed_history, seed_showcase  # noqa: E402
from gui.i18n import ICONS_DIR, install_translations  # noqa: E402
from gui.main_window import MainWindow  # noqa: E402
from gui.theme import apply_palette  # noqa: E402

OUT = ROOT / "docs" / "screenshots"


async def _shoot(app: QApplication, language: str, scheme: str, path: Path) -> None:
    install_translations(app, language)
    apply_palette(app, scheme)
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        settings = dataclasses.replace(Settings.defaults(data), language=language, output_dir=data / "out")
        db = await open_app_database(settings.database_url)
        try:
            store = make_app_store(db)
            await seed_history(db, 12)
            ids = await seed_showcase(store)
            window = MainWindow(db=db, store=store, settings=settings)
            window.resize(1320, 640)
            window.start()
            window.show()
            deadline = time.monotonic() + 10
            while not window.select_job(ids["running"]) and time.monotonic() < deadline:  # noqa: ASYNC110
                await asyncio.sleep(0.05)
            while (  # noqa: ASYNC110
                window.details.job is None or window.details.job.id != ids["running"]
            ) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            window.daemon_bar.label.setText(window.daemon_bar.label.text())
            await asyncio.sleep(0.5)
            window.grab().save(str(path))
            print(f"wrote {path}")
            await window.shutdown()
            window.hide()
            window.deleteLater()
        finally:
            await db.dispose()


def main() -> int:
    """Write the screenshots."""
    OUT.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    app.setQuitOnLastWindowClosed(False)
    from PySide6.QtGui import QIcon

    app.setWindowIcon(QIcon(str(ICONS_DIR / "studyjobs.svg")))
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with loop:
        for language, scheme, name in (
            ("pt_BR", "light", "main_window_pt_BR.png"),
            ("en", "light", "main_window_en.png"),
            ("en", "dark", "main_window_en_dark.png"),
        ):
            loop.run_until_complete(_shoot(app, language, scheme, OUT / name))
    return 0


if __name__ == "__main__":
    sys.exit(main())

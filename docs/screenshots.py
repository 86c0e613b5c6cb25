"""Take the README's screenshots from a real run: the real worker, real documents, the bundled model, a real X server.

Usage: ``.venv/bin/python docs/screenshots.py`` (needs ``Xvfb``, which ``scripts/desktop_libs`` installs; about
five minutes on two cores). It makes a fresh data folder, starts the worker the way the window does (the embedded
defaults: SQLite and the bundled SmolLM2 model), and adds three real documents through the window:

* a two-page Portuguese LaTeX cheat sheet, which becomes a study guide (shown in the guide tab);
* a Portuguese PDF cut off half-way, as an interrupted copy would be (it fails with its plain reason);
* a 188-page Portuguese LaTeX course (slides without bookmarks), photographed while the model plans its guide
  (bars, counters, time left): the bundled model writes no summaries, so planning is its guide's long part (its
  sections quote key passages).

The documents come from the test corpus (``tests/daemon/corpus.py``: Debian's ``texlive-lang-portuguese``). The
pictures are grabbed from the X server's screen, in Brazilian Portuguese and English and with the dark palette, into
``docs/screenshots/``. Nothing shown is staged: every row, bar, time and sentence is what the app showed then.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
sys.path.insert(0, str(ROOT))

GUIDE_DOCUMENT = "latexcheat-ptbr/latexsheet-ptbr.pdf"
LONG_DOCUMENT = "cursolatex/cursolatex.pdf"
DAMAGED_FROM = "numberpt/numberpt.pdf"
WINDOW_SIZE = (1360, 760)


@contextlib.contextmanager
def x_server() -> Iterator[None]:
    """Use ``$DISPLAY`` when set, else a private Xvfb for the run."""
    if os.environ.get("DISPLAY"):
        yield
        return
    number = next(n for n in range(90, 190) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    server = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"])
    try:
        while not Path(f"/tmp/.X11-unix/X{number}").exists():
            if server.poll() is not None:
                raise SystemExit("Xvfb did not start (scripts/desktop_libs installs it)")
            time.sleep(0.05)
        os.environ["DISPLAY"] = f":{number}"
        yield
    finally:
        server.terminate()
        server.wait(10)


async def until(predicate: Callable[[], Any], *, timeout: float, what: str) -> Any:
    """Await ``predicate()`` (sync or async) until it is truthy."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if isinstance(value, Awaitable):
            value = await value
        if value:
            return value
        if time.monotonic() > deadline:
            raise SystemExit(f"gave up waiting for {what}")
        await asyncio.sleep(0.2)


def documents(folder: Path) -> dict[str, Path]:
    """The three real documents, copied into ``folder`` under plain names."""
    from tests.daemon.corpus import fetch_corpus

    corpus = fetch_corpus()
    guide = folder / "guia-rapido-latex.pdf"
    long = folder / "curso-latex.pdf"
    damaged = folder / "numeros-por-extenso.pdf"
    shutil.copy(corpus.portuguese_pdf(GUIDE_DOCUMENT), guide)
    shutil.copy(corpus.portuguese_pdf(LONG_DOCUMENT), long)
    whole = corpus.portuguese_pdf(DAMAGED_FROM).read_bytes()
    damaged.write_bytes(whole[: len(whole) // 2])
    return {"guide": guide, "damaged": damaged, "long": long}


class Photographer:
    """Opens a window in a language and palette, selects a document, and saves what the X screen shows."""

    def __init__(self, app: Any, db: Any, store: Any, settings: Any) -> None:
        self.app, self.db, self.store, self.settings = app, db, store, settings

    async def shoot(self, language: str, scheme: str, shots: list[tuple[uuid.UUID, str, str]]) -> None:
        from gui.i18n import install_translations
        from gui.main_window import MainWindow
        from gui.theme import apply_palette

        install_translations(self.app, language)
        apply_palette(self.app, scheme)
        settings = dataclasses.replace(self.settings, language=language)
        window = MainWindow(db=self.db, store=self.store, settings=settings)
        window.resize(*WINDOW_SIZE)
        window.move(0, 0)
        window.start()
        window.show()
        try:
            await until(lambda: window.daemon_bar.alive, timeout=30, what="the worker in the status bar")
            for document_id, tab, name in shots:
                await until(lambda d=document_id: window.select_job(d), timeout=30, what="the document's row")
                await until(lambda d=document_id: window.details.job is not None and window.details.job.id == d,
                            timeout=30, what="the document's details")  # fmt: skip
                if tab == "guide":
                    window.details_tabs.show_guide()
                    await until(lambda: window.guide_viewer.guide is not None and window.guide_viewer.guide.complete,
                                timeout=30, what="the guide in its tab")  # fmt: skip
                else:
                    window.details_tabs.show_details()
                await asyncio.sleep(1.5)  # the clock columns tick once a second
                self.save(window, OUT / name)
        finally:
            await window.shutdown()
            window.hide()
            window.deleteLater()

    def save(self, window: Any, path: Path) -> None:
        screen = self.app.primaryScreen()
        frame = window.frameGeometry()
        screen.grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height()).save(str(path))
        print(f"wrote {path.relative_to(ROOT)}")


async def run(app: Any, home: Path) -> None:
    """Add the documents, wait for the three states, photograph them, stop the worker."""
    from core.app.settings.config import load_settings
    from core.app.storage.database import make_app_store, open_app_database
    from gui.worker.process import DaemonLauncher

    settings = load_settings()
    paths = documents(home)
    db = await open_app_database(settings.database_url)
    launcher = DaemonLauncher(None, log_dir=settings.log_dir)
    try:
        store = make_app_store(db, stale_after=settings.stale_after)
        launcher.start()
        ids: dict[str, uuid.UUID] = {}

        async def add(key: str) -> None:
            job = await store.enqueue("ingest", title=paths[key].name, params={"path": str(paths[key])})
            ids[key] = job.id

        await add("guide")
        await add("damaged")
        await until(lambda: _status(store, ids["guide"], "done"), timeout=900, what="the first guide")
        await until(lambda: _status(store, ids["damaged"], "failed"), timeout=60, what="the damaged file to fail")
        await add("long")  # added last, so that it is the one being written when the pictures are taken
        await until(lambda: _planning(store, ids["long"]), timeout=900, what="the model planning the long guide")
        photographer = Photographer(app, db, store, settings)
        for language in ("pt_BR", "en"):
            await photographer.shoot(
                language,
                "light",
                [
                    (ids["long"], "details", f"main_window_{language}.png"),
                    (ids["damaged"], "details", f"failed_job_{language}.png"),
                    (ids["guide"], "guide", f"guide_viewer_{language}.png"),
                ],
            )
        await photographer.shoot("en", "dark", [(ids["long"], "details", "main_window_en_dark.png")])
    finally:
        process = launcher.process
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)
            process.wait(30)
        await db.dispose()


async def _status(store: Any, document_id: uuid.UUID, wanted: str) -> bool:
    from core.app.documents.pipelines import Pipelines

    view = await Pipelines(store).get(document_id)
    if view is None:
        return False
    if view.status in ("failed", "cancelled") and wanted != view.status:
        raise SystemExit(f"{document_id} ended {view.status}: {view.error}")
    return bool(view.status == wanted)


async def _planning(store: Any, document_id: uuid.UUID) -> bool:
    """The model is writing the long guide's outline (its first words are out: the time left has its pace)."""
    from core.app.documents.pipelines import Pipelines

    view = await Pipelines(store).get(document_id)
    return view is not None and bool(
        view.status == "running" and view.stage == "outline" and view.detail.get("tokens", 0) >= 5
    )


def run_in_app(scene: Callable[[Any, Path], Awaitable[None]], home: Path) -> None:
    """Start StudyJobs' Qt application on the current X server and run ``scene(app, home)`` on its qasync loop."""
    import qasync
    from PySide6.QtWidgets import QApplication

    from gui.app import app_icon

    app = QApplication([sys.argv[0]])
    app.setQuitOnLastWindowClosed(False)
    app.setWindowIcon(app_icon())
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with loop:
        loop.run_until_complete(scene(app, home))


def main() -> int:
    """Take the screenshots in a fresh home and data folder."""
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="studyjobs-screens-") as tmp, x_server():
        home = Path(tmp)
        os.environ.update(HOME=str(home), STUDYJOBS_DATA_DIR=str(home / "data"), QT_QPA_PLATFORM="xcb")
        os.environ.pop("STUDYJOBS_DATABASE_URL", None)
        run_in_app(run, home)
    return 0


if __name__ == "__main__":
    sys.exit(main())

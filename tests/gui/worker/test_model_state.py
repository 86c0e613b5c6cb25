"""The status bar's worker corner with a real worker: "Starting the worker…" until it is up, the slots freed as soon
as a job ends, and "model unloaded" once the worker gave its memory back after its idle minutes (en and pt_BR).

The worker is the real one (``python -m daemon.cli.main daemon --watch`` through the window's launcher) with the suite's
tiny model; the window is a real :class:`gui.main_window.MainWindow` (Qt offscreen).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
import tomli_w
from PySide6.QtWidgets import QApplication

from core.app.documents.adding import add_document
from core.app.settings.config import ENV_DATA_DIR, Settings, load_settings
from core.app.workers.registry import alive_workers
from gui.i18n import install_translations, remove_translations
from gui.worker.process import ENV_DAEMON_COMMAND, DaemonLauncher
from tests.gui.guidaemon import environment, stop_process, write_settings

UNLOAD_MINUTES = 0.1
"""The idle time of these tests' worker: 6 s."""


@pytest.fixture
def settings(settings: Settings, tiny_gguf: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The tiny model, a long lease (the worker touches its row every 5 s), and a short idle time."""
    monkeypatch.delenv(ENV_DAEMON_COMMAND, raising=False)
    write_settings(settings.data_dir, settings.output_dir, model=tiny_gguf, stale_after=60.0)
    path = settings.data_dir / "settings.toml"
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    doc["model"]["unload_after_minutes"] = UNLOAD_MINUTES
    path.write_text(tomli_w.dumps(doc), encoding="utf-8")
    return load_settings(env={ENV_DATA_DIR: str(settings.data_dir)})


@pytest.fixture
def launcher(settings: Settings) -> Iterator[DaemonLauncher]:
    launcher = DaemonLauncher(None, log_dir=settings.log_dir, env=environment(settings.data_dir))
    yield launcher
    stop_process(launcher.process)


def test_the_corner_says_starting_then_frees_the_slot_at_the_job_end_then_model_unloaded(
    make_window, launcher, store, app_db, settings, tmp_path, run, wait_until, qapp: QApplication
):
    window = make_window(launcher=launcher)
    bar = window.daemon_bar
    bar.timer.setInterval(100)  # the corner looks every 0.1 s instead of 3 s: what it shows follows the row
    seen: list[str] = []

    def label() -> str:
        text = bar.label.text()
        if not seen or seen[-1] != text:
            seen.append(text)
        return text

    async def until_alive() -> None:
        assert await bar.start_if_none(), "the app starts a worker when none is alive"
        label()
        await wait_until(lambda: "Worker running" in label(), timeout=60, what="the worker up")

    run(until_alive(), timeout=90)
    assert "Starting the worker…" in seen, seen
    assert not any(text.startswith("No worker is running") for text in seen), seen

    source = tmp_path / "notes.txt"
    source.write_text("Cells divide by mitosis. Each daughter cell gets the same chromosomes.\n\n" * 20, "utf-8")

    async def guide_then_free_slot() -> None:
        document = await add_document(store, source, only_extract=False, language=None)
        await wait_until(lambda: "1 of 1 slots busy" in label(), timeout=60, what="a slot busy")

        async def ended() -> bool:
            guides = [job for job in await store.list_recent(kind="generate", limit=10) if job.parent_id == document.id]
            return bool(guides) and guides[0].status in ("done", "failed")

        await wait_until(ended, timeout=120, what="the document's end")
        # The worker writes its row when its last job ends, not at its next heartbeat (every 5 s here).
        await wait_until(lambda: "0 of 1 slots busy" in label(), timeout=3, what="the slot freed")

    run(guide_then_free_slot(), timeout=200)

    async def until_unloaded() -> None:
        await wait_until(lambda: "model unloaded" in label(), timeout=60, what="model unloaded")
        workers = await alive_workers(app_db)
        assert [w.model_state for w in workers] == ["unloaded"]

    run(until_unloaded(), timeout=90)
    try:
        install_translations(qapp, "pt_BR")
        run(wait_until(lambda: "modelo descarregado" in label(), timeout=10, what="pt_BR"))
    finally:
        remove_translations(qapp)

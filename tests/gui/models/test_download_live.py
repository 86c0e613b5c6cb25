"""A fresh install picks a catalog model in the window, downloads it with a live bar and writes a guide with it.

Everything is real: the worker the window starts (its normal command, with its watchdog), a hub on 127.0.0.1
(``devkit.loopback_hub.FakeHub``, run in a subprocess: this process never imports ``daemon``) serving the
suite's tiny GGUF at a steady 2 MB/s from its first byte, a catalog whose one download is that file
(``STUDYJOBS_CATALOG``), and the settings a fresh install has plus ``hub_url``. The window's Settings → Model
page downloads it, Use makes the worker start again on it, and a real document then gets a guide from it.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from sqlalchemy import select

from core.app.models.downloads import installed_path, models_dir
from core.app.settings.config import ENV_DATA_DIR, Settings, load_settings
from core.app.storage.schema import StudyGuide
from core.app.workers.registry import alive_workers
from gui.i18n import install_translations
from gui.worker.process import ENV_DAEMON_COMMAND, DaemonLauncher
from tests.modelcatalog import TINY_ID, TINY_NAME, write_test_catalog

ROOT = Path(__file__).resolve().parents[3]
REPO, FILE = "tests/tiny-GGUF", "tiny-q8_0.gguf"
HUB = """
import pathlib, sys
from devkit.loopback_hub import FakeHub
hub = FakeHub({sys.argv[1]: pathlib.Path(sys.argv[2])})
hub.faults.trickle_after, hub.faults.trickle_pause = 0, 0.03
with hub:
    print(hub.url, flush=True)
    sys.stdin.read()
"""
TEXT = (
    "Photosynthesis is the process by which plants turn sunlight into chemical energy. It happens in the "
    "chloroplasts, which hold chlorophyll, the green pigment that absorbs the light.\n\n"
) * 6


@pytest.fixture
def hub_url(tiny_gguf: Path) -> Iterator[str]:
    """The loopback hub's address (the subprocess ends when its stdin closes)."""
    process = subprocess.Popen(
        [sys.executable, "-c", HUB, f"{REPO}/{FILE}", str(tiny_gguf)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        yield process.stdout.readline().strip()
    finally:
        assert process.stdin is not None
        process.stdin.close()
        process.wait(15)


@pytest.fixture
def settings(settings: Settings, hub_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """A fresh install's settings (the bundled demo model) with ``hub_url`` on the loopback hub."""
    monkeypatch.delenv(ENV_DAEMON_COMMAND, raising=False)
    monkeypatch.setenv("STUDYJOBS_CATALOG", str(write_test_catalog(tmp_path / "catalog.json", REPO, FILE)))
    doc = {"output_dir": str(settings.output_dir), "language": "en", "hide_to_tray": False, "hub_url": hub_url}
    (settings.data_dir / "settings.toml").write_text(tomli_w.dumps(doc), encoding="utf-8")
    return load_settings(env={ENV_DATA_DIR: str(settings.data_dir)})


@pytest.fixture
def launcher(settings: Settings) -> Iterator[DaemonLauncher]:
    """The window's launcher with its normal command (watchdog and worker); stopped (SIGTERM, wait) after."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("STUDYJOBS_") or k == "STUDYJOBS_CATALOG"}
    env.update({ENV_DATA_DIR: str(settings.data_dir), "PYTHONPATH": str(ROOT)})
    launcher = DaemonLauncher(None, log_dir=settings.log_dir, env=env)
    yield launcher
    process = launcher.process
    if process is not None and process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def test_a_fresh_install_downloads_a_catalog_model_in_the_window_uses_it_and_writes_a_guide_with_it(
    qapp: Any, make_window: Any, launcher: DaemonLauncher, store: Any, app_db: Any, settings: Settings,
    tiny_gguf: Path, tmp_path: Path, run: Any, wait_until: Any,
) -> None:  # fmt: skip
    install_translations(qapp, "en")
    window = make_window(launcher=launcher)
    target = installed_path(models_dir(settings.data_dir), REPO, FILE)
    source = tmp_path / "photosynthesis.txt"
    source.write_text(TEXT, encoding="utf-8")
    bars: list[int] = []
    texts: list[str] = []

    async def scenario() -> None:
        assert await window.daemon_bar.start_if_none()
        first = await wait_until(lambda: alive_workers(app_db), timeout=60, what="the worker")
        window.open_model_settings()
        page = window.settings_dialog.model_page
        card = page.card(TINY_ID)
        assert "Fits this computer" in card.badges.text() and not card.buttons["download"].isHidden()
        card.buttons["download"].click()
        while card.buttons["use"].isHidden():
            if card.bar.isVisible() and (not bars or bars[-1] != card.bar.value()):
                bars.append(card.bar.value())
                texts.append(card.status.text())
            assert card.buttons["retry"].isHidden(), card.status.text()
            await asyncio.sleep(0.02)
        card.buttons["use"].click()
        assert window.settings.model.gguf_path == target
        assert page.current.text() == f"Model in use: {TINY_NAME}"
        window.settings_dialog.reject()
        old = {w.id for w in first}
        await wait_until(lambda: _new_worker(app_db, old), timeout=90, what="the worker started again on the new model")
        assert window.worker_controls.restart.question is None  # no job runs: nothing to ask
        window.enqueue([source], False)
        await wait_until(lambda: _guide(app_db), timeout=150, what="the study guide")

    run(scenario(), timeout=300)
    assert target.read_bytes() == tiny_gguf.read_bytes()  # downloaded and verified
    moving = [value for value in bars if 0 < value < 1000]
    assert len(moving) >= 3 and moving == sorted(moving), bars  # a live bar, only going forward
    assert any("MB/s" in text and " of " in text for text in texts), texts  # bytes and rate while downloading
    guide = run(_guide(app_db))
    assert guide.model_name == FILE  # written by the downloaded model
    assert load_settings(settings.settings_path).model.gguf_path == target
    assert window.model.rowCount() == 1  # the document; the download is not one


async def _new_worker(db: Any, old: set[str]) -> bool:
    return any(w.id not in old for w in await alive_workers(db))


async def _guide(db: Any) -> Any:
    async with db.get_session_context() as session:
        return (await session.scalars(select(StudyGuide))).first()

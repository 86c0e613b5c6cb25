"""Settings → Model and the first run's welcome: the catalog with its fits badges, a download's live bar from its
job row, Cancel, Retry, Use and Remove; the welcome panel once on a fresh install; a download is not a document.

The worker's side of a download is played by writes to the real job store (claim, progress with the byte counts,
succeed), as the daemon makes them; ``test_gui_model_download_live.py`` runs the real worker against a hub."""

from __future__ import annotations

import dataclasses
import json
import re
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from core.app.models.catalog import load_catalog
from core.app.models.downloads import installed_path, models_dir, partial_path
from core.app.models.library import download_jobs, model_setting, model_states
from core.app.models.servers import ServerTarget
from core.app.settings.config import Settings, load_settings
from core.app.timing.guide_time import guide_seconds
from core.app.timing.model_speed import default_threads
from core.app.timing.speeds import Basis, ModelKey, calibration, speed_book
from gui.i18n import install_translations
from gui.models.catalog_texts import good_for_text
from gui.models.page import ModelPage
from gui.models.welcome_panel import WelcomePanel, welcome_shown
from gui.settings.dialog import SettingsDialog
from gui.texts import eta_text
from tests.modelcatalog import COMMIT, TINY_ID, TINY_NAME, write_test_catalog

REPO, FILE = "tests/tiny-GGUF", "tiny-q8_0.gguf"
GB = 1_000_000_000


@pytest.fixture(autouse=True)
def english(qapp: Any) -> None:
    """The window in English (numbers too: an earlier test may have left Portuguese installed)."""
    install_translations(qapp, "en")


@pytest.fixture
def catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = write_test_catalog(tmp_path / "catalog.json", REPO, FILE)
    monkeypatch.setenv("STUDYJOBS_CATALOG", str(path))
    return path


def _job(run: Any, store: Any) -> Any:
    return run(download_jobs(store))[TINY_ID]


async def _progress(store: Any, job_id: Any, done: int, total: int, rate: int) -> None:
    now = datetime.now(UTC).isoformat()
    detail = {"bytes_done": done, "bytes_total": total, "bytes_per_second": rate, "eta_seconds": 90.0, "eta_at": now}
    await store.report_progress(job_id, done / total, stage="download", detail=detail)


def test_the_real_catalog_shows_size_ram_languages_licence_and_a_fits_or_too_big_badge(
    qtbot: Any, window: Any, settings: Settings
) -> None:
    page = ModelPage(settings, window.store, window.tasks, window.models.feed, ram=3 * GB)
    qtbot.addWidget(page)
    qwen, big = page.card("ministral-3-3b-instruct-2512-q4_k_m"), page.card("qwen2.5-7b-instruct-q4_k_m")
    demo = page.card("smollm2-135m-demo")
    assert "Fits this computer" in qwen.badges.text() and "Too big for this computer" in big.badges.text()
    # the RAM figure is core.app.models.fit's (tested there); the card shows it in the user's words
    assert "2.1 GB" in qwen.facts.text() and re.search(r"needs 2\.\d GB of RAM", qwen.facts.text())
    assert "pt" in qwen.facts.text() and "licence: Apache 2.0 (commercial use allowed)" in qwen.facts.text()
    assert 'href="https://www.apache.org/licenses/LICENSE-2.0"' in qwen.facts.text()
    assert qwen.good_for.text().startswith("Lighter laptops") and "A guide of 50 pages" in qwen.timing.text()
    assert "Demo · works offline" in demo.badges.text() and "In use" in demo.badges.text()
    assert page.current.text() == "Model in use: SmolLM2 135M (demo)"
    assert not qwen.buttons["download"].isHidden() and qwen.buttons["use"].isHidden()
    assert demo.buttons["download"].isHidden() and demo.buttons["remove"].isHidden()


def test_download_shows_a_live_bar_with_bytes_rate_and_time_left_then_cancel_retry_use_and_remove(
    qtbot: Any, window: Any, store: Any, settings: Settings, catalog: Path, run: Any, wait_until: Any
) -> None:
    window.open_settings()
    dialog = window.settings_dialog
    assert isinstance(dialog, SettingsDialog) and dialog.model_page is not None
    assert dialog.tabs.tabText(0) == "Model"
    card = dialog.model_page.card(TINY_ID)
    card.buttons["download"].click()
    run(wait_until(lambda: not card.buttons["cancel"].isHidden(), what="the queued download"))
    assert card.status.text() == "Waiting for the worker…" and window.models.note.isVisible()
    job = _job(run, store)
    run(store.claim(job.id))
    run(_progress(store, job.id, 3_000_000, 10_000_000, 2_000_000))
    run(wait_until(lambda: card.bar.value() == 300, what="the bar at 30 %"))
    assert card.status.text().startswith("3.0 MB of 10 MB · 2.0 MB/s · about")
    assert window.models.note.text().startswith("Model download: 30 %")
    assert window.model.rowCount() == 0  # a download is not a document
    dialog.tabs.setCurrentIndex(1)
    window.models.note.click()  # the status bar's note opens Settings → Model
    dialog = window.settings_dialog
    assert dialog.tabs.currentIndex() == 0 and dialog.model_page is not None
    card = dialog.model_page.card(TINY_ID)
    assert card.bar.value() == 300 and not card.buttons["cancel"].isHidden()
    card.buttons["cancel"].click()
    run(wait_until(lambda: not card.buttons["retry"].isHidden(), what="Retry after the Cancel"))
    assert "Retry continues where it stopped" in card.status.text() and not card.buttons["remove"].isHidden()
    assert not window.models.note.isVisible()
    card.buttons["retry"].click()
    run(wait_until(lambda: card.buttons["retry"].isHidden(), what="the download queued again"))
    assert _job(run, store).status == "queued"
    claimed = run(store.claim(job.id))
    target = installed_path(models_dir(settings.data_dir), REPO, FILE)
    target.parent.mkdir(parents=True)
    target.write_bytes(b"GGUF" + b"\0" * 100)
    run(store.succeed(job.id, attempt=claimed.attempts))
    run(wait_until(lambda: not card.buttons["use"].isHidden(), what="Use once downloaded"))
    assert "Downloaded" in card.badges.text() and card.bar.isHidden()
    card.buttons["use"].click()
    run(wait_until(lambda: window.settings.model.gguf_path == target, what="the window on the new model"))
    assert load_settings(settings.settings_path).model.gguf_path == target  # saved
    assert dialog.gguf.isChecked() and dialog.gguf_path.text() == str(target)
    assert "In use" in card.badges.text() and not card.buttons["remove"].isEnabled()
    assert dialog.model_page.current.text() == f"Model in use: {TINY_NAME}"
    dialog.model_page.card("smollm2-135m-demo").buttons["use"].click()
    run(wait_until(lambda: window.settings.model.kind == "bundled", what="back on the demo"))
    run(wait_until(lambda: card.buttons["remove"].isEnabled(), what="Remove enabled"))
    card.buttons["remove"].click()
    run(wait_until(lambda: not card.buttons["download"].isHidden(), what="Download again after Remove"))
    assert not target.exists() and not run(download_jobs(store))
    dialog.reject()


def test_removing_a_stopped_download_deletes_its_partial_file(
    qtbot: Any, window: Any, store: Any, settings: Settings, catalog: Path, run: Any, wait_until: Any
) -> None:
    page = ModelPage(settings, store, window.tasks, window.models.feed)
    qtbot.addWidget(page)
    card = page.card(TINY_ID)
    card.buttons["download"].click()
    run(wait_until(lambda: not card.buttons["cancel"].isHidden(), what="the queued download"))
    part = partial_path(models_dir(settings.data_dir), REPO, COMMIT, FILE)
    part.parent.mkdir(parents=True)
    part.write_bytes(b"x" * 1000)
    card.buttons["cancel"].click()
    run(wait_until(lambda: not card.buttons["remove"].isHidden(), what="Remove after the Cancel"))
    card.buttons["remove"].click()
    run(wait_until(lambda: not part.exists() and not card.buttons["download"].isHidden(), what="the partial gone"))


def test_a_fresh_install_shows_the_welcome_once_with_the_recommended_download_and_its_guide_time(
    make_window: Any, settings: Settings, store: Any, run: Any, wait_until: Any
) -> None:
    window = make_window(first_run=True)
    panel = window.models.welcome
    assert isinstance(panel, WelcomePanel) and panel.isVisible() and welcome_shown(settings.data_dir)
    assert panel.choice is not None and panel.choice.fits and not panel.choice.model.demo
    offer = panel.offer.text()
    assert f"Recommended for this computer: {panel.choice.model.name}" in offer and "of RAM" in offer
    assert "A guide of 50 pages: " in offer
    panel.download_button.click()
    run(wait_until(lambda: panel.bar.isVisible(), what="the welcome's bar"))
    assert run(download_jobs(store))[panel.choice.model.id].status == "queued"
    assert window.add_action.isEnabled()  # the window stays usable
    assert make_window(first_run=True).models.welcome is None  # once
    assert make_window().models.welcome is None


def test_the_welcome_says_so_when_no_download_fits_and_names_the_servers_found(
    qtbot: Any, window: Any, settings: Settings
) -> None:
    panel = WelcomePanel(settings, window.store, window.tasks, window.models.feed, ram=GB // 2, servers=["Ollama"])
    qtbot.addWidget(panel)
    assert panel.choice is None and "None of the catalog's models fits" in panel.offer.text()
    assert panel.download_button.isHidden() and "Ollama" in panel.servers.text()


def test_using_the_downloaded_model_from_the_welcome_saves_it(
    make_window: Any, settings: Settings, store: Any, catalog: Path, run: Any, wait_until: Any
) -> None:
    window = make_window(first_run=True)
    panel = window.models.welcome
    assert panel is not None and panel.choice is not None and panel.choice.model.id == TINY_ID
    panel.download_button.click()
    run(wait_until(lambda: TINY_ID in window.models.feed.jobs, what="the download"))
    job = window.models.feed.jobs[TINY_ID]
    claimed = run(store.claim(job.id))
    target = model_setting(settings, panel.choice.model).gguf_path
    assert target is not None
    target.parent.mkdir(parents=True)
    target.write_bytes(b"GGUF")
    run(store.succeed(job.id, attempt=claimed.attempts))
    run(wait_until(lambda: panel.use_button.isVisible(), what="Use it"))
    panel.use_button.click()
    assert window.settings == dataclasses.replace(settings, model=model_setting(settings, panel.choice.model))
    assert not panel.isVisible()


class _Ollama(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # Ollama's model list
        body = json.dumps({"models": [{"name": "qwen2.5:3b"}, {"name": "llama3.2"}]}).encode()
        status = 200 if self.path == "/api/tags" else 404
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body) if status == 200 else 0))
        self.end_headers()
        if status == 200:
            self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def ollama() -> Iterator[str]:
    """An Ollama-like server on 127.0.0.1 (its model list only)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Ollama)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def test_the_welcome_names_a_local_model_server_that_answers(
    qtbot: Any, window: Any, settings: Settings, ollama: str, run: Any, wait_until: Any
) -> None:
    panel = WelcomePanel(settings, window.store, window.tasks, window.models.feed)
    qtbot.addWidget(panel)
    panel.show()
    panel.search_servers(
        [ServerTarget("ollama", "Ollama", ollama), ServerTarget("llamacpp", "llama.cpp", "http://127.0.0.1:9")]
    )
    run(wait_until(lambda: panel.servers.isVisible(), what="the server named"))
    assert "Ollama (qwen2.5:3b, llama3.2)" in panel.servers.text() and "llama.cpp" not in panel.servers.text()


def test_the_model_page_and_the_welcome_speak_portuguese(
    qapp: Any, qtbot: Any, window: Any, settings: Settings
) -> None:
    install_translations(qapp, "pt_BR")
    try:
        page = ModelPage(settings, window.store, window.tasks, window.models.feed, ram=3 * GB)
        panel = WelcomePanel(settings, window.store, window.tasks, window.models.feed, ram=64 * GB)
        qtbot.addWidget(page)
        qtbot.addWidget(panel)
        qwen = page.card("ministral-3-3b-instruct-2512-q4_k_m")
        assert "Cabe neste computador" in qwen.badges.text() and re.search(
            r"2,1 GB · precisa de 2,\d GB de RAM", qwen.facts.text()
        )
        assert qwen.buttons["download"].text() == "Baixar" and "Um guia de 50 páginas" in qwen.timing.text()
        assert "Grande demais" in page.card("qwen2.5-7b-instruct-q4_k_m").badges.text()
        assert "licença: Apache 2.0 (uso comercial permitido)" in qwen.facts.text()
        assert page.current.text() == "Modelo em uso: SmolLM2 135M (demo)"
        assert panel.offer.text().startswith("Recomendado para este computador: Qwen3 4B Instruct 2507")
        assert "Notebooks com 8 GB de RAM: guias claros" in panel.offer.text()
        for model in load_catalog():  # every catalog line has its Portuguese
            assert good_for_text(model) != model.good_for
            assert page.card(model.id).good_for.text() == good_for_text(model)
    finally:
        install_translations(qapp, "en")


def _guide_figure(settings: Settings, model: Any, n_ctx: int) -> Any:
    """The worker's estimate of a 50-page guide with ``model`` (``core.app.timing.guide_time``; the daemon's own
    estimate gives the same seconds: ``tests/daemon/llm/test_estimate.py``)."""
    return guide_seconds(
        model.size_bytes or model.approx_bytes, model_file=model.filename, data_dir=settings.data_dir,
        threads=settings.model.n_threads, n_ctx=n_ctx, summaries=model.writes_summaries,
    )  # fmt: skip


def test_the_welcome_gives_the_recommended_downloads_guide_time_from_the_calibrated_speeds_and_its_size(
    qtbot: Any, window: Any, settings: Settings
) -> None:
    panel = WelcomePanel(settings, window.store, window.tasks, window.models.feed, ram=8 * GB)
    qtbot.addWidget(panel)
    assert panel.choice is not None and panel.choice.model.id == "qwen3-4b-instruct-2507-q4_k_m"
    model = panel.choice.model
    figure = _guide_figure(settings, model, panel.choice.n_ctx)
    assert figure is not None and figure.basis == Basis.CALIBRATED  # nothing has run on this computer yet
    shown = f"A guide of 50 pages: {eta_text(figure.seconds)} (estimated from the bundled model's speed)"
    assert panel.offer.text().endswith(shown)
    base = calibration()
    demo = guide_seconds(base.model_bytes, data_dir=settings.data_dir, threads=settings.model.n_threads)
    assert demo is not None and demo.seconds < figure.seconds < demo.seconds * model.approx_bytes / base.model_bytes


def test_the_model_pages_guide_time_is_scaled_from_the_bundled_model_here_until_the_model_has_run_here(
    qtbot: Any, window: Any, settings: Settings
) -> None:
    model = next(m for m in load_catalog() if m.id == "qwen3-4b-instruct-2507-q4_k_m")
    assert model.size_bytes is not None
    threads = settings.model.n_threads or default_threads()

    def card_timing() -> tuple[str, str]:
        page = ModelPage(settings, window.store, window.tasks, window.models.feed, ram=8 * GB)
        qtbot.addWidget(page)
        (state,) = [s for s in model_states(settings, page.catalog, ram=8 * GB) if s.model.id == model.id]
        figure = _guide_figure(settings, model, state.n_ctx)
        return page.card(model.id).timing.text(), f"A guide of 50 pages: {eta_text(figure.seconds)}"

    base = calibration()
    bundled = ModelKey("SmolLM2-135M-Instruct.Q4_1.gguf", base.model_bytes, threads)
    speed_book(settings.data_dir).remember(bundled, base.speeds.faster(0.25))  # this computer: 4× slower
    text, figure = card_timing()
    assert (
        text == f"{figure} (scaled from this computer's speed with the bundled model; this model has not run here yet)"
    )
    slow = text
    speed_book(settings.data_dir).remember(ModelKey(model.filename, model.size_bytes, threads), base.speeds)
    text, figure = card_timing()
    assert text == f"{figure} (from this model's own speed, measured on this computer)"
    assert text.split(" (")[0] != slow.split(" (")[0]  # its own figures, not the scaled ones


def test_the_model_pages_guide_time_follows_the_speeds_the_worker_writes_while_the_page_is_open(
    qtbot: Any, window: Any, settings: Settings, run: Any, wait_until: Any
) -> None:
    model = next(m for m in load_catalog() if m.id == "qwen3-4b-instruct-2507-q4_k_m")
    assert model.size_bytes is not None
    threads = settings.model.n_threads or default_threads()
    page = ModelPage(settings, window.store, window.tasks, window.models.feed, ram=8 * GB)
    qtbot.addWidget(page)
    timing = page.card(model.id).timing
    assert "(estimated from the bundled model's speed)" in timing.text()  # nothing has run on this computer yet
    speed_book(settings.data_dir).remember(ModelKey(model.filename, model.size_bytes, threads), calibration().speeds)
    run(wait_until(lambda: "from this model's own speed" in timing.text(), what="the measured speeds shown"))

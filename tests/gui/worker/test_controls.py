"""The window's worker controls over a real database: Pause/Resume in the toolbar, menu and status bar (kept across
windows), the question asked when a setting the worker uses changes while a job runs, and the log section."""

from __future__ import annotations

import dataclasses
import os
import socket
import uuid
from pathlib import Path

from PySide6.QtWidgets import QToolBar

from core.app.settings.config import ModelSettings
from core.app.storage.database import make_app_store
from core.app.workers.controls import RESTART_NOW, RESTART_WHEN_IDLE, queue_paused
from core.app.workers.registry import list_workers, register_worker, touch_worker, unregister_worker
from gui.i18n import install_translations, remove_translations
from gui.worker.restart import worker_settings_changed


def _worker(app_db, run, *, running: int) -> str:
    async def make() -> str:
        worker_id = await register_worker(
            app_db, host=socket.gethostname(), pid=os.getpid(), version="test", threads=1, broker="sqlite:///q"
        )
        await touch_worker(app_db, worker_id, running=running)
        store = make_app_store(app_db)
        for _ in range(running):  # the job rows the worker runs
            job = await store.enqueue("ingest", title="running.pdf", params={"path": "/docs/running.pdf"})
            await store.claim(job.id, worker_id=worker_id)
        return worker_id

    return run(make())


async def _restart_of(app_db, worker_id: str) -> str | None:
    (row,) = [w for w in await list_workers(app_db) if w.id == worker_id]
    return row.restart_requested


def _is(expected):  # type: ignore[no-untyped-def]
    """An async predicate: ``_restart_of(...)`` equals ``expected``."""

    async def check(app_db, worker_id: str) -> bool:
        return await _restart_of(app_db, worker_id) == expected

    return check


def test_pausing_in_the_toolbar_pauses_every_worker_shows_paused_and_a_new_window_keeps_it(
    make_window, app_db, run, wait_until
):
    window = make_window()
    action = window.worker_controls.pause.action
    toolbar = window.findChild(QToolBar, "main-toolbar")
    assert action in toolbar.actions()
    assert any(action in menu.actions() for menu in (a.menu() for a in window.menuBar().actions()) if menu)
    assert action.text().replace("&", "") == "Pause the queue"
    action.trigger()

    async def paused() -> None:
        await wait_until(lambda: queue_paused(app_db), what="the switch in the database")
        await wait_until(lambda: window.daemon_bar.label.text().startswith("Paused"), what="Paused in the bar")

    run(paused())
    assert action.text().replace("&", "") == "Resume the queue"

    second = make_window()  # the window started again: the switch lives in the database
    run(wait_until(lambda: second.daemon_bar.label.text().startswith("Paused"), what="Paused in a new window"))
    assert second.worker_controls.pause.action.text().replace("&", "") == "Resume the queue"
    second.worker_controls.pause.action.trigger()

    async def resumed() -> None:
        async def running() -> bool:
            return not await queue_paused(app_db)

        await wait_until(running, what="the switch cleared")
        await wait_until(lambda: not second.daemon_bar.label.text().startswith("Paused"), what="bar resumed")

    run(resumed())
    assert second.worker_controls.pause.action.text().replace("&", "") == "Pause the queue"


def test_only_the_settings_a_worker_reads_ask_for_a_restart(settings):
    assert worker_settings_changed(settings, dataclasses.replace(settings, notifications=False)) == []
    assert worker_settings_changed(settings, dataclasses.replace(settings, hide_to_tray=True)) == []
    model = ModelSettings(kind="gguf", gguf_path=Path("/models/other.gguf"))
    changed = dataclasses.replace(settings, model=model, worker_threads=2, language="pt_BR")
    assert worker_settings_changed(settings, changed) == ["model", "worker_threads"]  # messages carry no language
    moved = dataclasses.replace(settings, output_dir=settings.output_dir / "elsewhere")
    assert worker_settings_changed(settings, moved) == ["output_dir"]


def test_a_change_while_a_job_runs_asks_whether_to_stop_it_now_or_let_it_finish(
    make_window, app_db, run, settings, wait_until
):
    window = make_window()
    restart = window.worker_controls.restart
    changed = dataclasses.replace(settings, worker_threads=2)

    worker_id = _worker(app_db, run, running=1)
    assert restart.settings_saved(settings, changed) == ["worker_threads"]
    run(wait_until(lambda: restart.question is not None and restart.question.isVisible(), what="the restart question"))
    assert "a job is running now" in restart.question.text()
    restart.stop_now_button.click()
    run(wait_until(lambda: _is(RESTART_NOW)(app_db, worker_id), what="the restart-now request in the database"))
    assert window.daemon_bar.label.text() == "Restarting the worker to use the new settings…"

    other_id = _worker(app_db, run, running=1)
    restart.settings_saved(changed, settings)
    run(wait_until(lambda: restart.question is not None and restart.question.isVisible(), what="the restart question"))
    restart.wait_button.click()
    run(
        wait_until(
            lambda: _is(RESTART_WHEN_IDLE)(app_db, other_id), what="the other worker's restart-when-idle request"
        )
    )
    assert run(_restart_of(app_db, worker_id)) == RESTART_NOW  # "now" is never weakened to "idle"
    assert window.daemon_bar.label.text() == "The worker will start again with the new settings when its job ends."


def test_an_idle_worker_is_asked_to_start_again_without_a_question(make_window, app_db, run, settings, wait_until):
    window = make_window()
    worker_id = _worker(app_db, run, running=0)
    window.worker_controls.restart.settings_saved(settings, dataclasses.replace(settings, worker_threads=3))
    run(
        wait_until(
            lambda: _is(RESTART_WHEN_IDLE)(app_db, worker_id), what="the restart-when-idle request in the database"
        )
    )
    assert window.worker_controls.restart.question is None
    assert window.daemon_bar.restarting


def test_the_log_section_is_closed_until_opened_and_hidden_without_a_job(make_window, store, run, settings, wait_until):
    window = make_window()
    section = window.worker_controls.job_log
    assert section.isHidden()
    job = run(store.enqueue("ingest", title="a.txt", params={"path": "/nowhere/a.txt"}))
    run(wait_until(lambda: window.select_job(job.id), what="the job in the table"))
    run(
        wait_until(
            lambda: window.details.job is not None and window.details.job.id == job.id, what="the job in the panel"
        )
    )
    assert section.isVisible() and not section.expanded and section.text.isHidden()
    log = settings.log_dir / "daemon.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    line = f"2026-12-01 10:00:00.000 WARNING  daemon.jobs [1 MainThread] job={job.id} the page could not be read"
    log.write_text(f"{line}\n2026-12-01 10:00:01.000 INFO     x [1 MainThread] job={uuid.uuid4()} other\n", "utf-8")
    section.toggle.click()
    run(wait_until(lambda: section.text.toPlainText() == line, what="the line in the panel"))
    assert section.text.isVisible()


def test_a_worker_moved_to_another_database_is_announced_and_start_is_not_offered_here(
    make_window, app_db, run, settings, wait_until, tmp_path
):
    window = make_window()
    bar = window.daemon_bar
    worker_id = _worker(app_db, run, running=0)
    other = tmp_path / "other.db"
    moved = dataclasses.replace(settings, database_url=f"sqlite+aiosqlite:///{other}", broker_url=f"sqlite:///{other}")
    window.worker_controls.restart.settings_saved(settings, moved)
    run(
        wait_until(
            lambda: _is(RESTART_WHEN_IDLE)(app_db, worker_id), what="the restart-when-idle request in the database"
        )
    )
    assert bar.label.text() == "Restarting the worker to use the new settings…"
    run(unregister_worker(app_db, worker_id))  # it exits; its successor registers in the other database
    note = "The worker now uses the new database or queue. Start StudyJobs again to see its jobs."
    run(wait_until(lambda: bar.label.text() == note, what="the note"))
    looks: list[bool] = []

    def looked(paused: bool) -> None:
        looks.append(paused)

    bar.paused_seen.connect(looked)  # emitted by every look
    bar.look()
    run(wait_until(lambda: looks, what="another look"))
    assert bar.label.text() == note and bar.start_button.isHidden()


def test_a_new_api_key_alone_asks_the_idle_worker_to_start_again(
    make_window, app_db, run, settings, wait_until, memory_keyring
):
    window = make_window()
    model = ModelSettings(kind="http", endpoint="https://llm.example.org/v1", model_name="big")
    window.settings = dataclasses.replace(settings, model=model)
    worker_id = _worker(app_db, run, running=0)
    window.open_settings()
    dialog = window.settings_dialog
    dialog.api_key.edit.setText("sk-new-key-0042")
    dialog.api_key.edit.setModified(True)
    dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
    assert dialog.api_key_changed and window.settings == dataclasses.replace(settings, model=model)
    run(
        wait_until(
            lambda: _is(RESTART_WHEN_IDLE)(app_db, worker_id), what="the restart-when-idle request in the database"
        )
    )
    assert memory_keyring.passwords == {("StudyJobs", "https://llm.example.org/v1"): "sk-new-key-0042"}


def test_the_status_bar_says_loading_the_model_then_model_unloaded_as_the_worker_row_says_in_en_and_pt_br(
    make_window, app_db, run, wait_until, qapp
):
    worker_id = _worker(app_db, run, running=1)
    window = make_window()
    bar = window.daemon_bar

    def says(text: str):  # type: ignore[no-untyped-def]
        return lambda: bar.look() or text in bar.label.text()

    run(touch_worker(app_db, worker_id, running=1, model_state="loading"))
    run(wait_until(says("1 of 1 slots busy · loading the model"), timeout=10, what="the bar saying the model loads"))
    run(touch_worker(app_db, worker_id, running=0, model_state="unloaded"))
    run(wait_until(says("0 of 1 slots busy · model unloaded"), timeout=10, what="the bar saying the model is unloaded"))
    try:
        install_translations(qapp, "pt_BR")
        run(
            wait_until(
                says("modelo descarregado da memória"),
                timeout=10,
                what="the bar saying the model is unloaded, in Portuguese",
            )
        )
        run(touch_worker(app_db, worker_id, running=1, model_state="loading"))
        run(wait_until(says("carregando o modelo"), timeout=10, what="the bar saying the model loads, in Portuguese"))
    finally:
        remove_translations(qapp)
    run(touch_worker(app_db, worker_id, running=0))
    run(
        wait_until(
            lambda: bar.look() or bar.label.text().endswith("0 of 1 slots busy"),
            timeout=10,
            what="the bar's look or a free slot",
        )
    )
    run(unregister_worker(app_db, worker_id))

"""End to end with a real worker: the window starts the daemon, a document added in it becomes a study guide, shown
as one row from the first second to the last (its reading and its guide are two jobs in the store).

The daemon is the real one (``python -m daemon.cli.main daemon`` through :class:`gui.worker.process.DaemonLauncher`'s
normal command) on a temp data folder whose ``settings.toml`` names the suite's tiny deterministic GGUF model, so a
guide takes a few seconds. The model file is written by a subprocess: this process never imports ``daemon``. Every
daemon started here is stopped at teardown (SIGTERM, then wait).
"""

from __future__ import annotations

import asyncio
import dataclasses
import fcntl
import itertools
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from PySide6.QtCore import QObject, QUrl, Slot
from PySide6.QtGui import QDesktopServices
from sqlalchemy import select

from core.app.documents.formats import added_params
from core.app.documents.job_ids import generate_job_id_for
from core.app.settings.config import ENV_DATA_DIR, Settings, default_database_url, load_settings, save_settings
from core.app.storage.database import make_app_store, open_app_database
from core.app.storage.schema import StudyGuide
from core.app.workers.registry import alive_workers
from gui.worker.process import DEFAULT_COMMAND, ENV_DAEMON_COMMAND, DaemonLauncher
from tests import waiting
from tests.gui.guidaemon import environment, stop_process, write_settings

ROOT = Path(__file__).resolve().parents[3]
PARAGRAPH = (
    "Photosynthesis is the process by which plants turn sunlight into chemical energy. It happens in the "
    "chloroplasts, which hold chlorophyll, the green pigment that absorbs the light.\n\n"
)
INGEST_MESSAGES = ("Reading", "Cleaning", "Saving…")
GENERATE_MESSAGES = ("Loading the language model", "Planning the study guide", "Writing section", "Saving the study")


@pytest.fixture
def settings(settings: Settings, tiny_gguf: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The conftest's temp data folder, with a ``settings.toml`` the daemon reads too (the tiny model)."""
    monkeypatch.delenv(ENV_DAEMON_COMMAND, raising=False)
    write_settings(settings.data_dir, settings.output_dir, model=tiny_gguf)
    return load_settings(env={ENV_DATA_DIR: str(settings.data_dir)})


@pytest.fixture
def launcher(settings: Settings) -> Iterator[DaemonLauncher]:
    """The window's launcher with its normal command; the daemon it started is stopped (SIGTERM, wait) after."""
    launcher = DaemonLauncher(None, log_dir=settings.log_dir, env=environment(settings.data_dir))
    yield launcher
    stop_process(launcher.process)


def _parent_pid(pid: int) -> int:
    """The parent of process ``pid`` (Linux: the fourth field of ``/proc/<pid>/stat``)."""
    stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    return int(stat.rsplit(")", 1)[1].split()[1])


@dataclass(frozen=True)
class Sample:
    """What the details panel showed at one moment."""

    job_id: uuid.UUID
    status: str
    progress: float
    rows: int
    bars: tuple[tuple[str, str, float, int], ...]
    message: str
    eta: float | None
    eta_text: str


def _message_rank(message: str, order: tuple[str, ...]) -> tuple[int, int]:
    rank = next((i for i, start in enumerate(order) if message.startswith(start)), None)
    assert rank is not None, f"unexpected message {message!r}"
    number = re.search(r"(\d+) of \d+", message)
    return rank, int(number.group(1)) if number else 0


def _check_moves_in_order(samples: list[Sample], order: tuple[str, ...], phases: list[str]) -> None:
    """The document's bar never moves back; a phase's bar only fills up while the phase list stays the same; a
    later phase is never done before an earlier one; messages follow the plan; at the end every bar is full."""
    assert samples, "the panel never showed the document"
    progress = [s.progress for s in samples]
    assert progress == sorted(progress), progress
    for before, after in itertools.pairwise(samples):
        if [b[0] for b in before.bars] == [b[0] for b in after.bars]:
            for (name, _s, fraction, _v), (_n, _s2, fraction2, _v2) in zip(before.bars, after.bars, strict=True):
                assert fraction2 >= fraction - 1e-9, (name, fraction, fraction2)
    for sample in samples:
        done = [state == "done" for _name, state, _f, _v in sample.bars]
        assert done == sorted(done, reverse=True), sample.bars
    ranks = [_message_rank(s.message, order) for s in samples if s.message and s.status == "running"]
    assert ranks == sorted(ranks), [s.message for s in samples]
    last = samples[-1]
    assert last.status == "done"
    assert [b[0] for b in last.bars] == phases
    assert all(state == "done" and value == 1000 for _n, state, _f, value in last.bars), last.bars


class _Opened(QObject):
    """Receives what ``QDesktopServices.openUrl`` would hand to the desktop (Qt's own URL handler hook)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url)


def test_a_document_added_in_the_window_becomes_a_study_guide_through_the_real_daemon(
    make_window, launcher, store, app_db, settings, tmp_path, run, wait_until
):
    assert launcher.command == list(DEFAULT_COMMAND)
    window = make_window(launcher=launcher, watch_interval=0.1)
    source = tmp_path / "photosynthesis.txt"
    source.write_text(PARAGRAPH * 30, encoding="utf-8")
    samples: list[Sample] = []
    ids: dict[str, uuid.UUID] = {}

    async def sample_panel() -> None:
        while True:
            job = window.details.job
            if job is not None and job.id in ids.values():
                bars = tuple(
                    (s.name, s.state, s.fraction, bar.value())
                    for s, bar in zip(window.details.phases.states, window.details.phases.bars, strict=False)
                )
                eta_text = window.details.fields["eta"].text()
                rows = window.model.rowCount()
                message = window.details.message.text()
                sample = Sample(job.id, job.status, job.progress, rows, bars, message, job.eta, eta_text)
                if not samples or samples[-1] != sample:
                    samples.append(sample)
            await asyncio.sleep(0.01)

    async def scenario() -> None:
        sampler = asyncio.ensure_future(sample_panel())
        try:
            assert await window.daemon_bar.start_if_none()  # what the app does at launch
            dialog = window.add_files([str(source)])  # the Add action's and drag-and-drop's path
            assert dialog is not None and dialog.guide.isChecked() and not dialog.only_extract
            dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
            (ingest,) = await wait_until(lambda: store.list_recent(limit=5), what="the ingest job")
            ids["ingest"], ids["generate"] = ingest.id, generate_job_id_for(ingest.id)
            assert ingest.params == {"path": str(source), "only_extract": False, "added": added_params(source)}
            await wait_until(lambda: window.select_job(ingest.id), what="the document in the table")
            await wait_until(lambda: window.daemon_bar.alive, timeout=30, what="the worker in the status bar")
            await wait_until(
                lambda: window.details.job.id == ingest.id and window.details.job.status == "done",
                timeout=120,
                what="the document done in the panel",
            )
            await wait_until(lambda: window.output_path is not None, what="the study guide's path")
            await asyncio.sleep(0.05)
        finally:
            sampler.cancel()

    run(scenario(), timeout=150)
    worker_text = window.daemon_bar.label.text()
    assert "Worker running" in worker_text and window.daemon_bar.start_button.isHidden(), worker_text
    assert launcher.process is not None
    (worker,) = window.daemon_bar.alive
    assert _parent_pid(worker.pid) == launcher.process.pid  # the worker runs under the watchdog the window started

    assert {s.job_id for s in samples} == {ids["ingest"]} and {s.rows for s in samples} == {1}  # one row, always
    phases = ["read", "clean", "save", "load_model", "outline", "sections", "export"]
    _check_moves_in_order(samples, INGEST_MESSAGES + GENERATE_MESSAGES, phases)
    writing = {"load_model", "outline", "sections", "export"}
    running = [
        s for s in samples if s.status == "running" and any(b[0] in writing and b[1] != "waiting" for b in s.bars)
    ]
    assert len({s.bars for s in running}) >= 3, "the generate job's bars did not move while it ran"
    assert len({_message_rank(s.message, GENERATE_MESSAGES) for s in running if s.message}) >= 2
    assert all(s.eta_text for s in running if s.eta is not None)
    etas = [s.eta for s in running if s.eta is not None]
    assert any(b < a - 1e-6 for a, b in itertools.pairwise(etas)), etas

    async def guide_row() -> StudyGuide:
        async with app_db.get_session_context() as session:
            return (await session.scalars(select(StudyGuide).where(StudyGuide.job_id == ids["generate"]))).one()

    guide = run(guide_row())
    ingest_job, generate_job = run(store.get(ids["ingest"])), run(store.get(ids["generate"]))
    # what the bars were drawn from: each phase ran after the one before it, and the guide after the ingest
    spans = [(p["started_at"], p["finished_at"]) for job in (ingest_job, generate_job) for p in job.phases]
    assert all(start and end and start <= end for start, end in spans), spans
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans)), spans
    assert generate_job.result_id == guide.id
    guide_path = Path(guide.path)
    assert guide_path.parent == settings.output_dir and guide_path.suffix == ".md"
    assert guide_path.read_text(encoding="utf-8").startswith("# photosynthesis")
    assert window.output_path == guide_path and window.open_action.isEnabled()

    opened = _Opened()
    QDesktopServices.setUrlHandler("file", opened, "open")  # type: ignore[arg-type]
    try:
        window.open_action.trigger()
        assert [u.toLocalFile() for u in opened.urls] == [str(guide_path)]
    finally:
        QDesktopServices.unsetUrlHandler("file")


def _stop_daemon_of(data: Path) -> None:
    """SIGTERM the daemon holding ``data``'s lock (its pid is in the lock file), then wait for the lock to free."""
    lock = data / "daemon.lock"
    if not lock.exists():
        return
    text = lock.read_text(encoding="utf-8").strip()
    pid = int(text) if text.isdigit() else None
    if pid is not None:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            cmdline = b""
        if b"daemon.cli.main" in cmdline:
            os.kill(pid, signal.SIGTERM)
    with open(lock, "a+", encoding="utf-8") as handle:

        def released() -> bool:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return False
            fcntl.flock(handle, fcntl.LOCK_UN)
            return True

        try:
            waiting.wait_until(released, timeout=20, what="the daemon to stop (its lock released)")
        except AssertionError:
            if pid is not None:
                os.kill(pid, signal.SIGKILL)
            raise


def test_the_app_quits_in_under_two_seconds_while_its_daemon_runs_a_real_job(tmp_path, tiny_gguf):
    data, output = tmp_path / "data", tmp_path / "guides"
    data.mkdir()
    write_settings(data, output, model=tiny_gguf)
    source = tmp_path / "long.txt"
    source.write_text(PARAGRAPH * 200, encoding="utf-8")
    env = {**environment(data), "QT_QPA_PLATFORM": "offscreen"}  # the app starts the daemon's normal command
    app = subprocess.Popen([sys.executable, "-m", "gui"], cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)

    async def start_a_job() -> uuid.UUID:
        log = data / "logs" / "gui.log"

        def shown() -> bool:
            assert app.poll() is None, "the app ended early"
            return log.exists() and "window shown" in log.read_text(encoding="utf-8")

        await waiting.async_wait_until(shown, timeout=60, what="the window to show")
        db = await open_app_database(default_database_url(data))
        try:
            await waiting.async_wait_until(
                lambda: alive_workers(db), timeout=90, what="the worker the app starts", interval=0.1
            )
            store = make_app_store(db)
            job = await store.enqueue("ingest", title=source.name, params={"path": str(source)})
            generate = generate_job_id_for(job.id)

            async def running() -> bool:
                return any(j.id == generate and j.status == "running" for j in await store.list_recent(limit=5))

            await waiting.async_wait_until(running, timeout=150, what="the generate job to run")
            return generate
        finally:
            await db.dispose()

    try:
        asyncio.run(start_a_job())
        began = time.monotonic()
        app.terminate()
        code = app.wait(timeout=10)
        took = time.monotonic() - began
        stderr = app.stderr.read() if app.stderr else ""
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
        if app.stderr:
            app.stderr.close()
        _stop_daemon_of(data)
    assert code == 0, stderr
    assert "Traceback" not in stderr, stderr
    assert took < 2.0, took
    text = (data / "logs" / "gui.log").read_text(encoding="utf-8")
    assert "quitting" in text and "Traceback" not in text


def test_choosing_another_model_in_settings_restarts_the_worker_and_the_next_guide_uses_that_model(
    make_window, launcher, store, app_db, settings, tiny_gguf, tmp_path, run, wait_until
):
    """Settings take effect: the window asks the idle worker to start again, the status bar says so and then that it
    runs again, and a document added next is written by the model chosen (the guide's ``model_name``); the job's
    own log lines appear in the details' Log section."""
    window = make_window(launcher=launcher, watch_interval=0.1)
    window.daemon_bar.timer.setInterval(200)
    other_model = tmp_path / "other-model.gguf"
    shutil.copyfile(tiny_gguf, other_model)
    source = tmp_path / "photosynthesis.txt"
    source.write_text(PARAGRAPH * 10, encoding="utf-8")
    texts: list[str] = []

    async def watch_bar() -> None:
        while True:
            text = window.daemon_bar.label.text()
            if not texts or texts[-1] != text:
                texts.append(text)
            await asyncio.sleep(0.01)

    async def scenario() -> uuid.UUID:
        watcher = asyncio.ensure_future(watch_bar())
        try:
            assert await window.daemon_bar.start_if_none()
            (first,) = await wait_until(lambda: window.daemon_bar.alive, timeout=30, what="the first worker")
            window.open_settings()
            dialog = window.settings_dialog
            assert dialog is not None and dialog.gguf.isChecked()
            dialog.gguf_path.setText(str(other_model))
            dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
            await wait_until(
                lambda: [w for w in window.daemon_bar.alive or [] if w.id != first.id],
                timeout=60,
                what="a new worker",
            )
            await wait_until(lambda: "runs again" in window.daemon_bar.label.text(), what="the bar says it runs")
            add = window.add_files([str(source)])
            assert add is not None
            add.buttons.button(add.buttons.StandardButton.Ok).click()
            (ingest,) = await wait_until(lambda: store.list_recent(kind="ingest", limit=5), what="the ingest job")
            generate = generate_job_id_for(ingest.id)

            async def guide_done() -> bool:
                return any(j.id == generate and j.status == "done" for j in await store.list_recent(limit=10))

            await wait_until(guide_done, timeout=120, what="the guide written")
            await wait_until(lambda: window.select_job(ingest.id), what="the document in the table")
            section = window.worker_controls.job_log
            section.toggle.click()
            await wait_until(
                lambda: f"job={generate} study guide written" in section.text.toPlainText(), what="the job's log"
            )
            return generate
        finally:
            watcher.cancel()

    generate = run(scenario(), timeout=200)
    assert "Restarting the worker to use the new settings…" in texts, texts
    assert texts.index("Restarting the worker to use the new settings…") < next(
        i for i, t in enumerate(texts) if "runs again" in t
    )
    assert load_settings(env={ENV_DATA_DIR: str(settings.data_dir)}).model.gguf_path == other_model

    async def guide_row() -> StudyGuide:
        async with app_db.get_session_context() as session:
            return (await session.scalars(select(StudyGuide).where(StudyGuide.job_id == generate))).one()

    assert run(guide_row()).model_name == "other-model.gguf"
    log_text = window.worker_controls.job_log.text.toPlainText()
    assert f"job={generate} writing the study guide of photosynthesis.txt" in log_text
    assert "with other-model.gguf" in log_text, log_text
    assert all(str(generate) in line for line in log_text.splitlines() if line[:4].isdigit()), log_text
    watchdog_log = (settings.log_dir / "watchdog.log").read_text(encoding="utf-8")
    assert "start again with new settings" in watchdog_log and "unexpectedly" not in watchdog_log


def test_a_new_database_saved_while_no_worker_runs_makes_the_window_start_one_on_it(
    make_window, launcher, settings, tmp_path, run, wait_until
):
    window = make_window(launcher=launcher)
    moved_file = tmp_path / "moved" / "studyjobs.db"
    moved_file.parent.mkdir()
    moved = dataclasses.replace(
        settings, database_url=f"sqlite+aiosqlite:///{moved_file}", broker_url=f"sqlite:///{moved_file}"
    )
    save_settings(moved)  # what the settings dialog does before it tells the window
    assert window.worker_controls.restart.settings_saved(settings, moved) == ["database_url", "broker_url"]

    async def a_worker_on_the_new_database() -> None:
        await wait_until(lambda: launcher.process is not None, what="the window to start a worker")
        db = await open_app_database(moved.database_url)
        try:
            await wait_until(lambda: alive_workers(db), timeout=60, what="a worker on the new database")
        finally:
            await db.dispose()

    run(a_worker_on_the_new_database(), timeout=90)

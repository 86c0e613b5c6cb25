"""What the real daemon stores reads in the reader's language, and its counts reach the details panel.

The daemon runs in a subprocess on a temp data folder (:mod:`guidaemon`); the window runs here over the same
database. The daemon stores message codes; the window renders them in the language it installed, the command
line in the settings' language, whatever language the daemon was started with.
"""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QIcon
from PySide6.QtWidgets import QApplication
from sqlalchemy import select

from core.app.documents.job_ids import generate_job_id_for
from core.app.messages.sentences import message
from core.app.storage.schema import StudyGuide
from core.stored_messages import decode
from gui.documents.table_model import COLUMNS
from gui.i18n import install_translations, remove_translations
from gui.tray import Tray
from tests.daemon.readers.samples import ENGLISH, wrap, write_text_pdf
from tests.gui.guidaemon import DaemonProcess, studyjobs, write_settings

PAGES = 12


@pytest.fixture
def english_window(qapp: QApplication) -> Iterator[None]:
    """The window speaks English (as after ``install_translations`` with ``language = "en"``)."""
    assert install_translations(qapp, "en") == "en"
    yield
    remove_translations(qapp)


@pytest.fixture
def tray(qapp: QApplication) -> Iterator[Tray]:
    """A tray icon that records its notifications (``Tray.sent``); removed after the window is gone."""
    icon = Tray(QIcon())
    yield icon
    icon.close()


def _panel_error(window) -> str:
    return window.details.error.text()


def test_a_failure_stored_by_a_portuguese_daemon_reads_in_english_in_the_window_and_the_cli(
    qapp, english_window, tray, make_window, store, settings, tiny_gguf, tmp_path, run, wait_until
):
    write_settings(settings.data_dir, settings.output_dir, language="pt_BR", model=tiny_gguf)
    fake = tmp_path / "falso.pdf"
    fake.write_text("isto não é um PDF", encoding="utf-8")
    english, portuguese = message("not_a_pdf", "en"), message("not_a_pdf", "pt_BR")
    window = make_window(watch_interval=0.1, tray=tray)

    async def fail_one() -> uuid.UUID:
        job = await store.enqueue("ingest", title=fake.name, params={"path": str(fake), "only_extract": True})
        await wait_until(lambda: window.select_job(job.id), what="the job in the table")
        await wait_until(
            lambda: window.details.job.id == job.id and window.details.job.status == "failed",
            timeout=60,
            what="the job failed in the panel",
        )
        await wait_until(
            lambda: window.model.rows[window.model.row_of(job.id)].status == "failed", what="the failed row"
        )
        return job.id

    with DaemonProcess(settings.data_dir):
        job_id = run(fail_one(), timeout=90)
    stored = run(store.get(job_id)).error
    assert decode(stored) is not None and decode(stored).code == "not_a_pdf"  # a code, not a sentence

    assert _panel_error(window).startswith(f"It stopped because: {english}\n"), _panel_error(window)
    status = window.model.index(window.model.row_of(job_id), COLUMNS.index("status"))
    assert window.model.data(status, Qt.ItemDataRole.ToolTipRole) == english
    assert tray.sent == [("Stopped: falso.pdf", english)]
    window.details.copy_details()
    copied = QGuiApplication.clipboard().text()
    assert f"error: {english}" in copied and "error code: not_a_pdf" in copied and portuguese not in copied

    install_translations(qapp, "pt_BR")  # the same row in a Portuguese window
    window.details.show_job(window.details.job)
    assert portuguese in _panel_error(window) and english not in _panel_error(window)
    assert window.model.data(status, Qt.ItemDataRole.ToolTipRole) == portuguese

    shown = json.loads(studyjobs(settings.data_dir, "show", "--json", str(job_id)).stdout)
    assert (shown["error"], shown["error_code"], shown["error_values"]) == (portuguese, "not_a_pdf", {})
    write_settings(settings.data_dir, settings.output_dir, language="en", model=tiny_gguf)
    assert english in studyjobs(settings.data_dir, "show", str(job_id)).stdout
    listed = studyjobs(settings.data_dir, "list").stdout
    assert english in listed and portuguese not in listed


def test_a_failure_written_as_plain_text_is_shown_as_it_is(english_window, window, store, run, wait_until):
    async def old_row() -> None:
        job = await store.enqueue("ingest", title="antigo.pdf", params={"path": "/antigo.pdf"})
        await store.claim(job.id, worker_id="old-version")
        await store.fail(job.id, "O arquivo está protegido por senha.", transient=False)
        await wait_until(lambda: window.select_job(job.id), what="the old row in the table")
        await wait_until(lambda: window.details.job.status == "failed", what="the old row failed in the panel")

    run(old_row())
    assert _panel_error(window).startswith("It stopped because: O arquivo está protegido por senha.\n")


def _pdf(path: Path) -> Path:
    """A PDF of :data:`PAGES` pages of English prose, no two pages alike (a line found on every page is a running
    header to the reader, and is dropped)."""
    pages = []
    for n in range(PAGES):
        words = ENGLISH[n % len(ENGLISH)].split()
        pages.append([wrap(" ".join(words[n:] + words[:n]))])
    return write_text_pdf(path, pages, title="Photosynthesis")


def test_the_panel_counts_the_pages_and_the_sections_of_a_real_pdf_run_by_the_real_daemon(
    qapp, english_window, make_window, store, app_db, settings, tiny_gguf, tmp_path, run, wait_until
):
    write_settings(settings.data_dir, settings.output_dir, language="pt_BR", model=tiny_gguf)
    source = _pdf(tmp_path / "photosynthesis.pdf")
    window = make_window(watch_interval=0.1)
    shown: dict[str, list[str]] = {"ingest": [], "generate": []}

    async def sample(document: uuid.UUID) -> None:
        while True:
            job = window.details.job
            text = window.details.fields["counters"].text()
            running = job is not None and job.id == document and job.status == "running" and job.active is not None
            if running and text and (not shown[job.active.kind] or shown[job.active.kind][-1] != text):
                shown[job.active.kind].append(text)
            await asyncio.sleep(0.01)

    async def scenario() -> tuple[uuid.UUID, str]:
        job = await store.enqueue("ingest", title=source.name, params={"path": str(source), "only_extract": False})
        sampler = asyncio.ensure_future(sample(job.id))
        try:
            await wait_until(lambda: window.select_job(job.id), timeout=60, what="the document in the table")
            await wait_until(
                lambda: window.details.job.id == job.id and window.details.job.status in ("done", "failed"),
                timeout=180,
                what="the document ended in the panel",
            )
        finally:
            sampler.cancel()
        assert window.details.job.status == "done", _panel_error(window)
        return job.id, window.details.fields["counters"].text()

    with DaemonProcess(settings.data_dir):
        ingest_id, final = run(scenario(), timeout=240)

    async def guide() -> StudyGuide:
        async with app_db.get_session_context() as session:
            return (
                await session.scalars(select(StudyGuide).where(StudyGuide.job_id == generate_job_id_for(ingest_id)))
            ).one()

    count = run(guide()).section_count
    assert count >= 1
    plan = rf"plan: (one section|{count} sections) from [\d\u2009]+ tokens(, about \d+ min)?"  # the guide's plan
    assert re.fullmatch(rf"page {PAGES} of {PAGES} · section {count} of {count} · {plan}", final), final
    assert all(re.fullmatch(rf"page \d+ of {PAGES}", text) for text in shown["ingest"]), shown
    running = rf"page {PAGES} of {PAGES}( · (planning part \d+ of \d+|section \d+ of {count}))?( · {plan})?"
    assert shown["generate"] and all(re.fullmatch(running, text) for text in shown["generate"]), shown
    assert any("section" in text for text in shown["generate"]), shown

    install_translations(qapp, "pt_BR")
    window.details.show_job(window.details.job)
    counted = f"página {PAGES} de {PAGES} · seção {count} de {count} · plano: "
    assert window.details.fields["counters"].text().startswith(counted)
    cli = studyjobs(settings.data_dir, "show", str(ingest_id)).stdout  # the settings say pt_BR
    assert f"counters      {counted}" in cli, cli

"""The study guide tab: the guide rendered, filled in as parts are stored, saved, and shown when no app opens it.

The guides here are rows and files made the way the worker makes them (``core.app.guides.stored``); the real worker
writing one is in ``test_gui_guide_live.py``. "No app for Markdown files" is the offscreen platform itself: its
``QDesktopServices.openUrl`` opens nothing and answers ``False``, as a desktop without a handler does.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QObject, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices, QTextDocument
from PySide6.QtWidgets import QFileDialog

from core.app.documents.job_ids import generate_job_id_for
from core.app.documents.pipelines import Pipelines
from core.app.guides.markdown import head_markdown, join_guide, section_markdown
from core.app.guides.stored import save_guide_part
from core.app.storage.database import make_app_store, open_app_database
from core.app.storage.schema import Document, Job, StudyGuide
from core.db import AsyncDatabaseManager
from core.store import JobStore
from gui.error_dialog import ErrorReporter
from gui.guide.viewer import GuideViewer
from gui.tasks import TaskGroup
from tests.daemon.worker.smalldisk import fill, small_disk
from tests.jobtesting import temporary_database

SECTIONS = [
    ("Cell walls", "Plants have **rigid** walls:\n\n- cellulose\n- pectin"),
    ("Chloroplasts", "They hold *chlorophyll*, the green pigment."),
    ("Respiration", "1. glucose in\n2. energy out"),
]


def rendered(markdown: str) -> str:
    """What Qt's Markdown renderer makes of ``markdown``, as plain text."""
    document = QTextDocument()
    document.setMarkdown(markdown)
    return document.toPlainText()


def write_file(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


class Opened(QObject):
    """Receives what ``QDesktopServices.openUrl`` hands to the desktop (Qt's own URL handler hook)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url)


async def make_document(
    store: JobStore[Job], db: AsyncDatabaseManager, output: Path, *, parts: int, finished: bool
) -> tuple[uuid.UUID, uuid.UUID, Path]:
    """A done ``ingest`` root and its ``generate`` child with ``parts`` sections stored (and the guide, when
    ``finished``); returns the two ids and the guide's file."""
    root = await store.enqueue("ingest", title="cells.txt", params={"path": "/nowhere/cells.txt"})
    assert await store.claim(root.id) is not None
    await store.succeed(root.id)
    child = await store.enqueue("generate", title="cells.txt", job_id=generate_job_id_for(root.id),
                                columns={"parent_id": root.id})  # fmt: skip
    assert await store.claim(child.id) is not None
    head = head_markdown("cells")
    await save_guide_part(db, child.id, 0, "cells", head)
    for position, (title, body) in enumerate(SECTIONS[:parts], start=1):
        await save_guide_part(db, child.id, position, title, section_markdown(title, body))
    path = output / f"cells - {child.id.hex[:8]}.md"
    if finished:
        markdown = join_guide([head, *(section_markdown(t, b) for t, b in SECTIONS[:parts])])
        await asyncio.to_thread(write_file, path, markdown)
        async with db.get_session_context() as session:
            session.add(StudyGuide(job_id=child.id, title="cells", language="en", path=str(path), markdown=markdown,
                                   section_count=parts))  # fmt: skip
        await store.succeed(child.id)
    return root.id, child.id, path


async def show_finished_guide(window, root: uuid.UUID, wait_until) -> None:  # type: ignore[no-untyped-def]
    """Select the document ``root`` in the window's table and wait for its finished guide in the study guide tab."""
    await wait_until(lambda: window.select_job(root), what="the document in the table")
    window.details_tabs.show_guide()
    viewer = window.guide_viewer
    await wait_until(lambda: viewer.guide is not None and viewer.guide.complete, what="the guide shown")


def test_a_finished_guide_is_rendered_in_its_tab_as_its_file_renders(
    make_window, store, app_db, settings, run, wait_until
):
    window = make_window()
    root, _child, path = run(make_document(store, app_db, settings.output_dir, parts=3, finished=True))
    viewer = window.guide_viewer

    run(show_finished_guide(window, root, wait_until))
    assert viewer.browser.toPlainText() == rendered(path.read_text(encoding="utf-8"))
    assert viewer.state.text() == f"Finished: {path.name}"
    html = viewer.browser.toHtml()
    assert "font-weight:700" in html and "font-style:italic" in html  # emphasis rendered, not shown as asterisks
    assert viewer.browser.document().firstBlock().blockFormat().headingLevel() == 1
    assert viewer.open_button.isEnabled() and viewer.save_button.isEnabled()


def test_the_tab_fills_in_while_the_sections_are_stored_and_says_how_many_so_far(
    make_window, store, app_db, settings, run, wait_until
):
    window = make_window()
    root, child, _path = run(make_document(store, app_db, settings.output_dir, parts=1, finished=False))
    viewer = window.guide_viewer

    async def scenario() -> None:
        await wait_until(lambda: window.select_job(root), what="the document in the table")
        window.details_tabs.show_guide()
        await wait_until(lambda: viewer.state.text() == "Writing… (1 section so far)", what="one section")
        assert "Cell walls" in viewer.browser.toPlainText() and "Chloroplasts" not in viewer.browser.toPlainText()
        assert not viewer.open_button.isEnabled()
        title, body = SECTIONS[1]
        await save_guide_part(app_db, child, 2, title, section_markdown(title, body))
        await wait_until(lambda: viewer.state.text() == "Writing… (2 sections so far)", what="two sections")

    run(scenario())
    expected = join_guide([head_markdown("cells"), *(section_markdown(t, b) for t, b in SECTIONS[:2])])
    assert viewer.browser.toPlainText() == rendered(expected)


def test_save_as_writes_the_markdown_where_the_user_chose_and_says_where(
    make_window, store, app_db, settings, run, wait_until, tmp_path
):
    window = make_window()
    root, _child, path = run(make_document(store, app_db, settings.output_dir, parts=2, finished=True))
    viewer = window.guide_viewer

    run(show_finished_guide(window, root, wait_until))
    viewer.save_button.click()
    dialog = viewer.save_dialog
    assert isinstance(dialog, QFileDialog) and dialog.isVisible()  # opened with open(), never exec()
    target = tmp_path / "copy" / "my guide.md"
    target.parent.mkdir()
    dialog.selectFile(str(target))
    dialog.accept()
    assert target.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")
    assert viewer.note.isVisible() and viewer.note.text() == f"Saved to {target}."


def test_save_as_on_a_full_disk_says_so_and_leaves_the_file_that_was_there(
    make_window, store, app_db, settings, run, wait_until, tmp_path
):
    window = make_window()
    root, _child, _path = run(make_document(store, app_db, settings.output_dir, parts=2, finished=True))
    viewer = window.guide_viewer

    run(show_finished_guide(window, root, wait_until))
    with small_disk(tmp_path / "stick", 1) as stick:
        target = stick / "my guide.md"
        target.write_text("# The copy saved last week\n", encoding="utf-8")
        fill(stick)
        assert viewer.save_to(target) is False
        assert target.read_text(encoding="utf-8") == "# The copy saved last week\n"
        assert sorted(p.name for p in stick.iterdir()) == ["filler.bin", "my guide.md"]  # no half-written copy
    notice = viewer.notice
    assert notice is not None and notice.text().startswith(f"The study guide could not be saved to {target}")
    notice.close()


def test_open_study_guide_without_an_app_for_markdown_shows_the_guide_in_the_window(
    make_window, store, app_db, settings, run, wait_until
):
    window = make_window()
    root, _child, path = run(make_document(store, app_db, settings.output_dir, parts=3, finished=True))
    viewer = window.guide_viewer

    async def scenario() -> None:
        await wait_until(lambda: window.select_job(root), what="the document in the table")
        await wait_until(lambda: window.open_action.isEnabled(), what="the guide's file found")
        assert window.details_tabs.currentWidget() is window.details
        window.open_action.trigger()  # the offscreen platform has no app for anything: openUrl says False
        assert window.details_tabs.currentWidget() is viewer
        await wait_until(lambda: viewer.guide is not None and viewer.guide.complete, what="the guide shown")

    run(scenario())
    assert viewer.note.isVisible() and "No app on this computer is set up to open Markdown files" in viewer.note.text()
    assert viewer.browser.toPlainText() == rendered(path.read_text(encoding="utf-8"))
    viewer.open_button.click()
    assert viewer.notice is not None and viewer.notice.isVisible() and not viewer.notice.isModal()
    assert viewer.notice.windowModality() == Qt.WindowModality.NonModal
    assert "No app on this computer is set up to open Markdown files" in viewer.notice.text()


def test_open_study_guide_whose_file_is_gone_shows_the_copy_kept_in_the_database(
    make_window, store, app_db, settings, run, wait_until
):
    window = make_window()
    root, _child, path = run(make_document(store, app_db, settings.output_dir, parts=2, finished=True))
    markdown = path.read_text(encoding="utf-8")
    viewer = window.guide_viewer

    async def scenario() -> None:
        await wait_until(lambda: window.select_job(root), what="the document in the table")
        await wait_until(lambda: window.open_action.isEnabled(), what="the guide's file found")
        path.unlink()
        opened = Opened()
        QDesktopServices.setUrlHandler("file", opened, "open")  # type: ignore[arg-type]
        try:
            window.open_action.trigger()
        finally:
            QDesktopServices.unsetUrlHandler("file")
        assert opened.urls == []  # a file that is gone is not handed to another app
        await wait_until(lambda: viewer.guide is not None and viewer.guide.complete, what="the guide shown")

    run(scenario())
    assert window.details_tabs.currentWidget() is viewer
    assert viewer.note.text().startswith(f"The file {path} is no longer there.")
    assert viewer.browser.toPlainText() == rendered(markdown)
    viewer.open_button.click()
    assert viewer.notice is not None and viewer.notice.isVisible()
    assert viewer.notice.text().startswith(f"The file {path} is no longer there.")


def test_open_study_guide_with_an_app_for_markdown_opens_it_there_and_stays_on_the_details(
    make_window, store, app_db, settings, run, wait_until
):
    window = make_window()
    root, _child, path = run(make_document(store, app_db, settings.output_dir, parts=1, finished=True))
    opened = Opened()

    async def scenario() -> None:
        await wait_until(lambda: window.select_job(root), what="the document in the table")
        await wait_until(lambda: window.open_action.isEnabled(), what="the guide's file found")

    run(scenario())
    QDesktopServices.setUrlHandler("file", opened, "open")  # type: ignore[arg-type]
    try:
        window.open_action.trigger()
        assert window.details_tabs.currentWidget() is window.details
        window.details_tabs.show_guide()
        run(wait_until(lambda: window.guide_viewer.open_button.isEnabled(), what="the guide in its tab"))
        window.guide_viewer.open_button.click()
    finally:
        QDesktopServices.unsetUrlHandler("file")
    assert [u.toLocalFile() for u in opened.urls] == [str(path)] * 2
    assert not window.guide_viewer.note.isVisible() and window.guide_viewer.notice is None


def test_an_opener_given_to_the_window_is_the_one_it_uses(make_window, store, app_db, settings, run, wait_until):
    asked: list[str] = []

    def open_url(url: QUrl) -> bool:
        asked.append(url.toLocalFile())
        return True

    window = make_window(open_url=open_url)
    root, _child, path = run(make_document(store, app_db, settings.output_dir, parts=1, finished=True))

    async def scenario() -> None:
        await wait_until(lambda: window.select_job(root), what="the document in the table")
        await wait_until(lambda: window.open_action.isEnabled(), what="the guide's file found")

    run(scenario())
    window.open_action.trigger()
    assert asked == [str(path)] and window.details_tabs.currentWidget() is window.details


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request: pytest.FixtureRequest, tmp_path: Path, run) -> Iterator[AsyncDatabaseManager]:
    """The migrated application database on either backend (PostgreSQL has no data version: the slow path)."""
    database = temporary_database(request.param, tmp_path)
    url = run(database.__aenter__())
    db = run(open_app_database(url))
    try:
        yield db
    finally:
        run(db.dispose())
        run(database.__aexit__(None, None, None))


@pytest.fixture
def live_viewer(any_db, run) -> Iterator[tuple[JobStore, GuideViewer]]:
    """A shown viewer on ``any_db``'s store, watching at 0.05 s; closed after the test, which must report no error."""
    store = make_app_store(any_db)
    reporter = ErrorReporter(show_dialogs=False)
    tasks = TaskGroup(reporter)
    viewer = GuideViewer(store, tasks, interval=0.05)
    viewer.show()
    try:
        yield store, viewer
    finally:
        run(tasks.close())
        viewer.hide()
        viewer.deleteLater()
    assert reporter.shown == []


def test_a_viewer_follows_a_guide_being_written_on_either_database_until_it_is_finished(
    live_viewer, any_db, run, wait_until, tmp_path
):
    store, viewer = live_viewer
    root, child, _path = run(make_document(store, any_db, tmp_path / "out", parts=0, finished=False))

    async def scenario() -> None:
        viewer.show_job(root)
        await wait_until(lambda: viewer.state.text() == "Writing… (no section yet)", what="the head")
        for position, (title, body) in enumerate(SECTIONS[:2], start=1):
            await save_guide_part(any_db, child, position, title, section_markdown(title, body))
            await wait_until(lambda n=position: f"({n} section" in viewer.state.text(), what=f"{position}")
        assert section_titles_of(viewer) == ["Cell walls", "Chloroplasts"]
        markdown = join_guide([head_markdown("cells"), *(section_markdown(t, b) for t, b in SECTIONS[:2])])
        async with any_db.get_session_context() as session:
            session.add(StudyGuide(job_id=child, title="cells", language="en", path=str(tmp_path / "gone.md"),
                                   markdown=markdown, section_count=2))  # fmt: skip
        await store.succeed(child)
        await wait_until(lambda: viewer.state.text() == "Finished: gone.md", what="the finished guide")
        assert viewer.browser.toPlainText() == rendered(markdown)

    run(scenario())


def test_a_viewer_reads_the_guide_again_when_a_section_of_its_document_is_stored_and_not_for_other_documents(
    live_viewer, any_db, run, wait_until, tmp_path
):
    store, viewer = live_viewer
    root, child, _path = run(make_document(store, any_db, tmp_path / "out", parts=1, finished=False))
    other, other_child, _ = run(make_document(store, any_db, tmp_path / "out", parts=0, finished=False))

    async def scenario() -> None:
        viewer.show_job(root)
        await wait_until(lambda: viewer.state.text() == "Writing… (1 section so far)", what="one section")
        await wait_until(lambda: not viewer.reading, what="the first read over")
        first_read = viewer.last_read
        witness = Pipelines(store).watch([other], interval=0.05)  # the viewer's change hub: its looks are ours
        try:
            assert await anext(witness) == {other}
            for position, (title, body) in enumerate(SECTIONS, start=1):  # another document being written
                await save_guide_part(any_db, other_child, position, title, section_markdown(title, body))
                assert await asyncio.wait_for(anext(witness), 10) == {other}
                await wait_until(lambda: not viewer.reading, what="any read over")
        finally:
            await witness.aclose()
        assert viewer.last_read == first_read  # no read of the guide for another document's changes
        title, body = SECTIONS[1]
        await save_guide_part(any_db, child, 2, title, section_markdown(title, body))
        await wait_until(lambda: viewer.state.text() == "Writing… (2 sections so far)", what="two sections")
        assert viewer.last_read > first_read and section_titles_of(viewer) == ["Cell walls", "Chloroplasts"]

    run(scenario())


def section_titles_of(viewer: GuideViewer) -> list[str]:
    titles, block = [], viewer.browser.document().begin()
    while block.isValid():
        if block.blockFormat().headingLevel() == 2:
            titles.append(block.text())
        block = block.next()
    return titles


def test_a_document_read_for_its_text_only_that_no_app_opens_gets_a_message_and_no_guide_tab(
    make_window, store, app_db, settings, run, wait_until, tmp_path
):
    window = make_window()
    source = tmp_path / "notes.txt"
    source.write_text("Cells have walls.", encoding="utf-8")

    async def text_only() -> uuid.UUID:
        job = await store.enqueue("ingest", title="notes.txt", params={"path": str(source), "only_extract": True})
        document = Document(source_name="notes.txt", source_path=str(source), content_hash="0" * 64)
        async with app_db.get_session_context() as session:
            session.add(document)
        assert await store.claim(job.id) is not None
        await store.succeed(job.id, result_id=document.id)
        return job.id

    root = run(text_only())

    async def scenario() -> None:
        await wait_until(lambda: window.select_job(root), what="the document in the table")
        await wait_until(lambda: window.open_action.isEnabled(), what="the document's file found")

    run(scenario())
    window.open_action.trigger()  # the offscreen platform opens nothing
    notice = window.guide_viewer.notice
    assert (
        notice is not None and notice.isVisible() and notice.text() == f"No app on this computer could open {source}."
    )
    assert window.details_tabs.currentWidget() is window.details
    window.details_tabs.show_guide()
    run(
        wait_until(
            lambda: (
                window.guide_viewer.state.text() == "This document was added for its text only: it has no study guide."
            ),
            what="the text-only state",
        )
    )
    assert window.guide_viewer.browser.toPlainText() == "" and not window.guide_viewer.save_button.isEnabled()


def test_a_new_section_keeps_the_readers_place_and_a_reader_at_the_end_follows_the_guide(
    make_window, store, app_db, settings, run, wait_until
):
    window = make_window()
    root, child, _path = run(make_document(store, app_db, settings.output_dir, parts=0, finished=False))
    viewer = window.guide_viewer
    bar = viewer.browser.verticalScrollBar()
    body = "A sentence about cells that fills a line or two of the guide. " * 6

    async def add_section(position: int) -> None:
        await save_guide_part(app_db, child, position, f"Part {position}", section_markdown(f"Part {position}", body))
        await wait_until(lambda: f"({position} section" in viewer.state.text(), what=f"part {position}")

    async def scenario() -> None:
        await wait_until(lambda: window.select_job(root), what="the document in the table")
        window.details_tabs.show_guide()
        for position in range(1, 21):
            await add_section(position)
        assert bar.maximum() > 0
        middle = bar.maximum() // 2
        bar.setValue(middle)
        await add_section(21)
        assert bar.value() == middle  # the reader's place is kept
        bar.setValue(bar.maximum())
        before = bar.maximum()
        await add_section(22)
        assert bar.maximum() > before and bar.value() == bar.maximum()  # the reader at the end sees the new part

    run(scenario())


def test_after_write_again_the_tab_keeps_the_old_guide_until_the_new_one_is_done(
    make_window, store, app_db, settings, run, wait_until
):
    window = make_window()
    root, _child, path = run(make_document(store, app_db, settings.output_dir, parts=2, finished=True))
    viewer = window.guide_viewer
    new_markdown = join_guide([head_markdown("cells"), section_markdown("Written again", "Better words.")])

    async def scenario() -> None:
        await wait_until(lambda: window.select_job(root), what="the document in the table")
        window.details_tabs.show_guide()
        await wait_until(lambda: viewer.state.text() == f"Finished: {path.name}", what="the first guide")
        again = await Pipelines(store).write_again(root)
        assert again is not None and again.guide is not None
        new_id = again.guide.id
        assert await store.claim(new_id) is not None
        await save_guide_part(app_db, new_id, 0, "cells", head_markdown("cells"))
        written = time.monotonic()
        await wait_until(lambda: viewer.last_read > written and not viewer.reading, what="the tab looking again")
        assert viewer.state.text() == f"Finished: {path.name}"  # the new guide is not finished
        async with app_db.get_session_context() as session:
            session.add(StudyGuide(job_id=new_id, title="cells", language="en", path=str(path.with_name("new.md")),
                                   markdown=new_markdown, section_count=1))  # fmt: skip
        await store.succeed(new_id)
        await wait_until(lambda: viewer.state.text() == "Finished: new.md", what="the new guide")

    run(scenario())
    assert viewer.browser.toPlainText() == rendered(new_markdown)

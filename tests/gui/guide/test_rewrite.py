"""Rewriting one section from the study guide tab: the section under the cursor is asked of the worker again."""

from __future__ import annotations

import dataclasses
import uuid

import pytest
from PySide6.QtGui import QTextCursor
from sqlalchemy import select

from core.app.guides.stored import save_guide_plan
from core.app.settings.config import Settings
from core.app.storage.schema import Job
from tests.gui.guide.test_viewer import make_document, show_finished_guide


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The conftest's settings with a model that writes summaries (the bundled one quotes the document)."""
    return dataclasses.replace(settings, model=dataclasses.replace(settings.model, summaries=True))


def _put_cursor_in(viewer, text: str) -> None:  # type: ignore[no-untyped-def]
    found = viewer.browser.document().find(text)
    assert not found.isNull(), text
    cursor = QTextCursor(found.block())
    viewer.browser.setTextCursor(cursor)


async def _rewrite_jobs(db) -> list[Job]:  # type: ignore[no-untyped-def]
    async with db.get_session_context() as session:
        jobs = (await session.scalars(select(Job).where(Job.kind == "generate"))).all()
    return [job for job in jobs if "rewrite_position" in job.params]


async def _finished_guide(store, app_db, settings) -> tuple[uuid.UUID, uuid.UUID]:  # type: ignore[no-untyped-def]
    """A document with a finished three-part guide and its stored plan: the root job's id and the guide job's."""
    root, child, _path = await make_document(store, app_db, settings.output_dir, parts=3, finished=True)
    await save_guide_plan(app_db, child, '{"sections": []}')
    return root, child


def test_the_section_under_the_cursor_is_queued_to_be_written_again(
    make_window, store, app_db, settings, run, wait_until
):
    window = make_window()
    root, child = run(_finished_guide(store, app_db, settings))
    viewer = window.guide_viewer
    queued: list[Job] = []

    async def scenario() -> None:
        await show_finished_guide(window, root, wait_until)
        assert viewer.rewrite_button.isEnabled()
        _put_cursor_in(viewer, "the green pigment")
        viewer.rewrite_button.click()

        async def found() -> bool:
            queued[:] = await _rewrite_jobs(app_db)
            return bool(queued)

        await wait_until(found, what="the rewrite job queued")

    run(scenario())
    (job,) = queued
    assert job.params["rewrite_of"] == str(child) and job.params["rewrite_position"] == 2
    assert job.parent_id == root and job.status == "queued"
    assert viewer.note.isVisible() and viewer.note.text() == "“Chloroplasts” will be written again."
    assert viewer.rewrite_button.toolTip() == "Write the section where the cursor is again, with other words"


def test_before_the_first_section_nothing_is_queued_and_the_tab_says_what_to_do(
    make_window, store, app_db, settings, run, wait_until
):
    window = make_window()
    root, _child = run(_finished_guide(store, app_db, settings))
    viewer = window.guide_viewer

    async def scenario() -> None:
        await show_finished_guide(window, root, wait_until)
        viewer.browser.moveCursor(QTextCursor.MoveOperation.Start)
        assert viewer.rewrite_current_section() is False

    run(scenario())
    assert viewer.note.text() == "Click in a section of the guide first."
    assert run(_rewrite_jobs(app_db)) == []


def test_with_a_model_that_writes_no_summaries_nothing_is_queued_and_the_tab_says_which_model_would(
    make_window, store, app_db, settings, run, wait_until
):
    window = make_window()
    window.settings = dataclasses.replace(settings, model=dataclasses.replace(settings.model, summaries=None))
    assert window.settings.model.kind == "bundled"  # the bundled demo quotes key passages
    root, _child = run(_finished_guide(store, app_db, settings))
    viewer = window.guide_viewer

    async def scenario() -> None:
        await show_finished_guide(window, root, wait_until)
        _put_cursor_in(viewer, "the green pigment")
        viewer.rewrite_button.click()

    run(scenario())
    assert viewer.note.isVisible() and "choose a model that writes summaries in Settings" in viewer.note.text()
    assert viewer.rewrite_button.toolTip() == viewer.note.text()  # the reason shows before a click too
    assert run(_rewrite_jobs(app_db)) == []

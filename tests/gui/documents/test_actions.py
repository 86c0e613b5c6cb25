"""Cancel, Retry, Remove and Show in folder from the window: the store changes, the buttons follow, cancelled is not
an error."""

from __future__ import annotations

from types import SimpleNamespace

from PySide6.QtGui import QPalette

from core.status import JobStatus
from gui.documents import commands
from gui.theme import dark_palette, status_color
from tests.jobhistory import seed_showcase


def _button(window, action):
    return next(b for b in window.details.buttons if b.defaultAction() is action)


def test_cancel_then_retry_change_the_store_and_the_buttons(window, store, run, wait_until):
    async def scenario() -> None:
        job = await store.enqueue("ingest", title="Química.pdf", params={"path": "/docs/Química.pdf"})
        await wait_until(lambda: window.select_job(job.id), what="the row")
        await wait_until(
            lambda: window.details.job is not None and window.details.job.id == job.id, what="the job in the panel"
        )
        assert window.cancel_action.isEnabled() and not window.retry_action.isEnabled()
        assert not window.remove_action.isEnabled()
        _button(window, window.cancel_action).click()
        await wait_until(lambda: window.retry_action.isEnabled(), what="retry enabled after cancel")
        assert (await store.get(job.id)).status == JobStatus.CANCELLED
        assert not window.cancel_action.isEnabled()
        assert window.remove_action.isEnabled()
        await wait_until(lambda: window.model.rows[0].status == "cancelled", what="the table row cancelled")
        _button(window, window.retry_action).click()
        await wait_until(lambda: window.cancel_action.isEnabled(), what="cancel enabled after retry")
        assert (await store.get(job.id)).status == JobStatus.QUEUED
        assert not window.retry_action.isEnabled()
        await wait_until(lambda: window.model.rows[0].status == "queued", what="the table row queued")

    run(scenario())


def test_a_job_cancelled_elsewhere_updates_the_buttons(window, store, run, wait_until):
    async def scenario() -> None:
        job = await store.enqueue("ingest", title="Química.pdf", params={"path": "/docs/Química.pdf"})
        await wait_until(lambda: window.select_job(job.id), what="the row")
        await store.claim(job.id)
        await wait_until(lambda: window.details.job.status == "running", what="running in the panel")
        await store.cancel(job.id)
        await wait_until(lambda: window.retry_action.isEnabled(), what="retry after a cancel by the CLI")

    run(scenario())


def test_remove_from_history_deletes_a_finished_job(window, store, run, wait_until):
    async def scenario() -> None:
        ids = await seed_showcase(store)
        await wait_until(lambda: window.select_job(ids["failed"]), what="the failed row")
        await wait_until(lambda: window.remove_action.isEnabled(), what="remove enabled")
        window.remove_action.trigger()
        await wait_until(lambda: window.model.row_of(ids["failed"]) is None, what="the row removed")
        assert await store.list_recent(statuses=["failed"]) == []
        assert window.details.job is None or window.details.job.id != ids["failed"]

    run(scenario())


def test_a_cancelled_job_is_not_painted_as_failed(window, store, run, wait_until):
    async def scenario() -> None:
        ids = await seed_showcase(store)
        await wait_until(lambda: window.select_job(ids["cancelled"]), what="the cancelled row")
        await wait_until(
            lambda: window.details.job is not None and window.details.job.status == "cancelled",
            what="the job cancelled in the panel",
        )
        assert window.details.error_box.isHidden()
        await wait_until(lambda: window.select_job(ids["failed"]), what="the failed row")
        await wait_until(
            lambda: window.details.job is not None and window.details.job.status == "failed",
            what="the job failed in the panel",
        )
        assert not window.details.error_box.isHidden()
        assert "senha" in window.details.error.text()

    run(scenario())
    for palette in (QPalette(), dark_palette()):
        assert status_color("cancelled", palette) != status_color("failed", palette)
    row = window.model.rows[window.model.row_of(next(r.id for r in window.model.rows if r.status == "cancelled"))]
    assert window.model.data(window.model.index(window.model.row_of(row.id), 2)) == "Cancelled"


def test_a_retry_waiting_shows_the_attempt_the_time_and_the_reason(window, store, run, wait_until):
    async def scenario() -> None:
        ids = await seed_showcase(store)
        await wait_until(lambda: window.select_job(ids["retrying"]), what="the retrying row")
        # seed_showcase enqueues the row, then writes its story: wait for the story, not only for the row
        await wait_until(
            lambda: (
                window.details.job is not None
                and window.details.job.id == ids["retrying"]
                and window.details.job.attempts == 2
            ),
            what="the retrying row's second attempt in the panel",
        )

    run(scenario())
    fields = window.details.fields
    assert fields["attempts"].text() == "attempt 2 of 5"
    assert "temporary" in fields["retry"].text()
    assert "did not work" in window.details.error.text()


def test_show_in_folder_opens_the_folder_of_the_document_before_its_guide_exists(
    window, store, run, wait_until, monkeypatch
):
    opened: list[str] = []
    monkeypatch.setattr(commands, "QDesktopServices", SimpleNamespace(openUrl=lambda url: opened.append(url.path())))

    async def scenario() -> None:
        job = await store.enqueue("ingest", title="Química.pdf", params={"path": "/docs/aulas/Química.pdf"})
        await wait_until(lambda: window.select_job(job.id), what="the row")
        await wait_until(lambda: window.folder_action.isEnabled(), what="show in folder enabled")
        assert not window.open_action.isEnabled()  # no guide yet
        window.folder_action.trigger()
        await wait_until(lambda: opened, what="a folder opened")

    run(scenario())
    assert opened == ["/docs/aulas"]

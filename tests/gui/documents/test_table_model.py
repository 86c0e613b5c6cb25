"""The documents model: Qt's model tester, filters and search through the feed, and paging through 100,000 rows."""

from __future__ import annotations

import asyncio
import time

import pytest

from core.app.documents.pipelines import Pipelines
from gui.documents.table_model import COLUMNS, JobRow, JobsModel
from tests.jobhistory import seed_history, seed_showcase


def test_the_jobs_model_passes_the_qt_model_tester(qtmodeltester, store, run):
    async def rows() -> list[JobRow]:
        await seed_showcase(store)
        return await Pipelines(store).list_recent(limit=50)

    model = JobsModel()
    loaded = run(rows())
    model.reset(loaded[:4], more=True, total=len(loaded))
    qtmodeltester.check(model, force_py=True)
    model.append(loaded[4:], more=False)
    qtmodeltester.check(model, force_py=True)
    assert model.apply(loaded, [], total=len(loaded), head_complete=True) == []  # the same documents: nothing new
    assert model.columnCount() == len(COLUMNS)


def test_only_the_rows_that_changed_are_repainted(store, run):
    async def scenario() -> tuple[list[JobRow], list[JobRow]]:
        ids = await seed_showcase(store)
        before = await Pipelines(store).list_recent(limit=50)
        await store.report_progress(ids["running"], 0.9, message="Escrevendo a seção 5 de 5…")
        after = await Pipelines(store).list_recent(limit=50)
        return before, after

    before, after = run(scenario())
    model = JobsModel()
    model.reset(before, more=False, total=len(before))
    seen: list[tuple[int, int]] = []
    model.dataChanged.connect(lambda a, b: seen.append((a.row(), b.row())))
    changed = model.apply(after, [], total=len(after), head_complete=True)
    running_row = next(i for i, r in enumerate(after) if r.title == "Biologia Celular.pdf")
    assert changed == [running_row]
    assert seen == [(running_row, running_row)]


@pytest.mark.parametrize(
    ("name", "statuses"),
    [
        ("all", {"queued", "running", "done", "failed", "cancelled"}),
        ("active", {"queued", "running"}),
        ("done", {"done"}),
        ("failed", {"failed"}),
        ("cancelled", {"cancelled"}),
    ],
)
def test_the_filter_buttons_show_only_their_jobs(window, store, run, wait_until, name, statuses):
    async def scenario() -> None:
        await seed_showcase(store)
        window.feed.refresh_now()
        await wait_until(lambda: window.model.rowCount() == 7, what="the showcase rows")
        window.filter_buttons[name].click()
        await wait_until(
            lambda: {r.status for r in window.model.rows} == statuses and window.model.total == window.model.rowCount(),
            what=f"the {name} filter",
        )

    run(scenario())
    assert window.filter_buttons[name].isChecked()


def test_the_search_box_finds_jobs_by_document_name(window, store, run, wait_until):
    async def scenario() -> None:
        await seed_showcase(store)
        await wait_until(lambda: window.model.rowCount() == 7, what="the showcase rows")
        window.search.setText("bio")
        await wait_until(lambda: [r.title for r in window.model.rows] == ["Biologia Celular.pdf"], what="search")
        window.search.clear()
        await wait_until(lambda: window.model.rowCount() == 7, what="the search cleared")

    run(scenario())


def test_the_active_filter_keeps_a_document_until_its_guide_is_written(window, store, run, wait_until):
    async def scenario() -> None:
        ids = await seed_showcase(store)
        window.filter_buttons["active"].click()
        document = ids["running"]

        def status() -> str | None:
            i = window.model.row_of(document)
            return None if i is None else window.model.rows[i].status

        await wait_until(lambda: window.model.row_of(document) is not None, what="the running row")
        child = await store.enqueue("generate", title="Biologia Celular.pdf", columns={"parent_id": document})
        await store.succeed(document)  # the reading is done; the document is not
        await wait_until(lambda: status() == "queued", what="waiting for its guide")
        claimed = await store.claim(child.id)
        await wait_until(lambda: status() == "running", what="writing its guide")
        await store.succeed(child.id, attempt=claimed.attempts)
        await wait_until(lambda: window.model.row_of(document) is None, what="the finished document gone")

    run(scenario())


def test_paging_reaches_the_end_of_100000_rows_of_history(window, app_db, run, wait_until):
    async def scenario() -> float:
        await seed_history(app_db, 100_000)
        window.feed.page_size = 5000
        began = time.perf_counter()
        window.feed.reload()
        await wait_until(lambda: window.model.rowCount() == 5000, what="the first page")
        first_page = time.perf_counter() - began
        while window.model.canFetchMore(window.model.index(-1, -1)) or window.model.loading:
            if not window.model.loading:
                window.model.fetchMore(window.model.index(-1, -1))
            await wait_until(lambda: not window.model.loading, timeout=30, what="a page")
        return first_page

    first_page = run(scenario(), timeout=240)
    rows = window.model.rows
    assert len(rows) == 100_000 == window.model.total
    assert len({r.id for r in rows}) == 100_000
    keys = [(r.created_at, r.id) for r in rows]
    assert keys == sorted(keys, reverse=True)
    assert first_page < 5.0


def test_scrolling_the_table_loads_older_pages(window, app_db, run, wait_until):
    async def scenario() -> None:
        await seed_history(app_db, 1000)
        window.feed.reload()
        await wait_until(lambda: window.model.rowCount() == 200, what="the first page")
        window.view.scrollToBottom()
        await wait_until(lambda: window.model.rowCount() > 200, what="the next page")

    run(scenario())


def test_more_documents_than_a_page_added_to_an_empty_list_can_still_be_scrolled_to(window, app_db, run, wait_until):
    """Hundreds of documents added at once (``studyjobs add`` on a folder) while the window shows none: the list
    takes its first page and scrolling loads the older ones."""

    async def scenario() -> None:
        await wait_until(lambda: window.model.rowCount() == 0 and window.model.total == 0, what="an empty list")
        await seed_history(app_db, 500)  # no reload: the feed's own change check finds them
        await wait_until(lambda: window.model.rowCount() == 200 and window.model.more, what="the first page")
        window.view.scrollToBottom()
        await wait_until(lambda: window.model.rowCount() > 200, what="the next page")

    run(scenario())


def test_several_jobs_added_between_two_looks_all_reach_the_table(window, store, run, wait_until):
    async def scenario() -> None:
        await store.enqueue("ingest", title="primeiro.pdf", params={})
        await wait_until(lambda: window.model.rowCount() == 1, what="the first row")
        window.feed.pause()
        for n in range(5):
            await store.enqueue("ingest", title=f"lote {n}.pdf", params={})
        window.feed.resume()
        await wait_until(lambda: window.model.rowCount() == 6, what="every new row")

    run(scenario())
    assert [r.title for r in window.model.rows] == [*(f"lote {n}.pdf" for n in reversed(range(5))), "primeiro.pdf"]


def test_more_new_jobs_than_a_head_holds_reload_the_table_without_a_gap(window, store, run, wait_until):
    window.feed.head_size = 3

    async def scenario() -> None:
        await store.enqueue("ingest", title="primeiro.pdf", params={})
        await wait_until(lambda: window.model.rowCount() == 1, what="the first row")
        window.feed.pause()
        for n in range(6):
            await store.enqueue("ingest", title=f"lote {n}.pdf", params={})
        window.feed.resume()
        await wait_until(lambda: window.model.rowCount() == 7, what="every new row")

    run(scenario())
    assert [r.title for r in window.model.rows] == [*(f"lote {n}.pdf" for n in reversed(range(6))), "primeiro.pdf"]


def test_the_status_bar_counts_a_document_that_ended_before_the_window_first_saw_it(window, store, run, wait_until):
    async def scenario() -> None:
        await store.enqueue("ingest", title="primeiro.pdf", params={})
        await wait_until(lambda: window.count_label.text() == "1 of 1 documents", what="the first count")
        window.feed.pause()
        job = await store.enqueue("ingest", title="sem texto.pdf", params={})
        claimed = await store.claim(job.id)
        assert claimed is not None
        await store.fail(job.id, "no_text:pdf", attempt=claimed.attempts)
        window.feed.resume()
        await wait_until(lambda: window.model.rowCount() == 2, what="the row")
        await wait_until(lambda: window.count_label.text() == "2 of 2 documents", what="the count")

    run(scenario())
    assert window.model.rows[0].status == "failed"


def test_an_idle_window_following_a_running_document_reads_no_job_and_a_write_still_reaches_it(
    window, store, run, wait_until
):
    from sqlalchemy import event

    async def scenario() -> list[str]:
        job = await store.enqueue("ingest", title="parado.pdf", params={})
        await store.claim(job.id)
        await wait_until(lambda: window.select_job(job.id), what="the document in the table")
        await wait_until(lambda: window.follower.active and window.details.job is not None, what="followed")
        await asyncio.sleep(0.5)  # the first looks of the list and the follower
        statements: list[str] = []
        engine = store.db.engine.sync_engine
        listener = lambda *a: statements.append(a[2])  # noqa: E731
        event.listen(engine, "before_cursor_execute", listener)
        await asyncio.sleep(1.0)  # ~10 looks of the list, 4 of the follower, nothing committed
        idle = [s for s in statements if " jobs" in s]
        await store.report_progress(job.id, 0.5, stage="read")
        await wait_until(lambda: window.details.job.progress > 0, what="the write in the details")
        event.remove(engine, "before_cursor_execute", listener)
        return idle

    assert run(scenario()) == []

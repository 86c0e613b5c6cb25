"""Documents as one thing: a root job and its newest child listed, filtered, counted and acted on together.

Every test runs on SQLite and PostgreSQL; the jobs are moved through their states by the store itself (claim,
succeed, fail, cancel), never written by hand.
"""

from __future__ import annotations

import itertools
import uuid
from datetime import timedelta

import pytest
from sqlalchemy import update

from core.app.documents.parts import pipeline_status
from core.app.documents.pipelines import DOCUMENT_FILTERS, Pipelines
from core.app.storage.database import make_app_store
from core.app.storage.schema import Job
from core.store import JobStore
from core.types import utcnow

STATUSES = ("queued", "running", "done", "failed", "cancelled")

# The specification, written out: (root status, guide wanted, newest child status or None) → pipeline status.
EXPECTED = {
    **{(root, wanted, child): root for root in STATUSES if root != "done" for wanted in (True, False)
       for child in (None, *STATUSES)},
    ("done", False, None): "done",
    ("done", True, None): "queued",
    **{("done", wanted, child): child for wanted in (True, False) for child in STATUSES},
}  # fmt: skip


@pytest.fixture
def app_store(db) -> JobStore[Job]:
    return make_app_store(db)


@pytest.fixture
def pipelines(app_store: JobStore[Job]) -> Pipelines:
    return Pipelines(app_store)


async def _move(store: JobStore[Job], job_id: uuid.UUID, status: str) -> None:
    """Take a queued job to ``status`` the way a worker and a user would."""
    if status == "queued":
        return
    if status == "cancelled":
        await store.cancel(job_id)
        return
    claimed = await store.claim(job_id)
    assert claimed is not None
    if status == "done":
        await store.succeed(job_id, attempt=claimed.attempts)
    elif status == "failed":
        await store.fail(job_id, "O arquivo está danificado.", attempt=claimed.attempts)


async def _document(
    store: JobStore[Job], root: str, child: str | None, *, only_extract: bool = False, title: str = "doc.pdf"
) -> tuple[uuid.UUID, uuid.UUID | None]:
    """A document whose root ends in ``root`` and whose child (made while the root runs, as ingest does) in
    ``child``."""
    ingest = await store.enqueue("ingest", title=title, params={"path": f"/docs/{title}", "only_extract": only_extract})
    child_id = None
    if child is not None:
        claimed = await store.claim(ingest.id)
        assert claimed is not None
        made = await store.enqueue("generate", title=title, params={}, columns={"parent_id": ingest.id})
        child_id = made.id
        await _move(store, child_id, child)
        if root == "done":
            await store.succeed(ingest.id, attempt=claimed.attempts)
        elif root == "failed":
            await store.fail(ingest.id, "Falhou.", attempt=claimed.attempts)
        elif root in ("cancelled", "queued"):
            await store.cancel(ingest.id)
            if root == "queued":
                await store.retry(ingest.id)
    else:
        await _move(store, ingest.id, root)
    return ingest.id, child_id


def test_the_written_table_covers_every_combination():
    assert len(EXPECTED) == len(STATUSES) * 2 * (len(STATUSES) + 1)
    for (root, wanted, child), status in EXPECTED.items():
        assert pipeline_status(root, wanted or child is not None, child) == status


async def test_every_combination_of_parts_has_the_pipeline_status_of_the_table_in_python_and_in_sql(
    app_store, pipelines
):
    made: dict[uuid.UUID, str] = {}
    for n, (root, only_extract, child) in enumerate(itertools.product(STATUSES, (False, True), (None, *STATUSES))):
        doc_id, _ = await _document(app_store, root, child, only_extract=only_extract, title=f"doc {n}.pdf")
        made[doc_id] = EXPECTED[(root, not only_extract, child)]
    views = {v.id: v for v in await pipelines.list_recent(limit=1000)}
    assert {i: v.status for i, v in views.items()} == made
    assert await pipelines.count() == len(made)
    for name, statuses in DOCUMENT_FILTERS.items():
        wanted = {i for i, s in made.items() if statuses is None or s in statuses}
        listed = await pipelines.list_recent(statuses=statuses, limit=1000)
        assert {v.id for v in listed} == wanted, name
        assert await pipelines.count(statuses=statuses) == len(wanted), name


async def test_a_document_is_one_row_whose_kind_says_study_guide_or_text_only(app_store, pipelines):
    guide_id, child_id = await _document(app_store, "done", "running", title="Biologia.pdf")
    text_id, _ = await _document(app_store, "done", None, only_extract=True, title="Notas.txt")
    listed = await pipelines.list_recent()
    assert [v.id for v in listed] == [text_id, guide_id]
    text, guide = listed
    assert (text.kind, text.status, text.progress, text.guide) == ("text", "done", 1.0, None)
    assert (guide.kind, guide.status, guide.guide_job_id) == ("guide", "running", child_id)
    assert (await pipelines.get(child_id)).id == guide_id  # a child's id finds its document
    assert await pipelines.get(uuid.uuid4()) is None


async def test_the_bar_lays_both_parts_end_to_end_and_never_jumps_when_the_child_appears(app_store, pipelines):
    read = [{"name": "read", "start": 0.0, "end": 0.5, "seconds": 1.0},
            {"name": "save", "start": 0.5, "end": 1.0, "seconds": 1.0}]  # fmt: skip
    write = [{"name": "outline", "start": 0.0, "end": 0.25, "seconds": 2.0},
             {"name": "sections", "start": 0.25, "end": 1.0, "seconds": 6.0}]  # fmt: skip
    root = await app_store.enqueue("ingest", title="a.pdf", params={"path": "/a.pdf"})
    claimed = await app_store.claim(root.id)
    await app_store.report_progress(
        root.id, 0.75, stage="save", phases=read, detail={"follow_up_seconds": 6.0}, message="Salvando…"
    )
    view = await pipelines.get(root.id)
    assert view.status == "running" and view.message == "Salvando…"
    assert view.progress == pytest.approx(0.75 * 2 / 8)  # the root is 2 s of 8
    assert [(p.name, p.part, p.state) for p in view.phases] == [
        ("read", "ingest", "done"), ("save", "ingest", "running"),
        ("load_model", "generate", "waiting"), ("outline", "generate", "waiting"),
        ("sections", "generate", "waiting"), ("export", "generate", "waiting"),
    ]  # fmt: skip
    assert view.phases[2].start == pytest.approx(0.25) and view.phases[-1].end == pytest.approx(1.0)
    assert all(a.end == pytest.approx(b.start) for a, b in itertools.pairwise(view.phases))
    child = await app_store.enqueue("generate", title="a.pdf", columns={"parent_id": root.id})
    await app_store.succeed(root.id, attempt=claimed.attempts)
    queued = await pipelines.get(root.id)
    assert (queued.status, queued.progress, queued.guide_job_id) == ("queued", pytest.approx(0.25), child.id)
    got = await app_store.claim(child.id)
    await app_store.report_progress(child.id, 0.25, stage="sections", phases=write, attempt=got.attempts)
    running = await pipelines.get(root.id)
    assert running.progress == pytest.approx(0.25 + 0.25 * 0.75)
    assert [(p.name, p.state) for p in running.phases] == [
        ("read", "done"),
        ("save", "done"),
        ("outline", "done"),
        ("sections", "running"),
    ]
    assert running.attempts == 1 and running.max_attempts == 3  # the active part's budget
    await app_store.fail(child.id, "O modelo parou.", attempt=got.attempts)
    failed = await pipelines.get(root.id)
    assert (failed.status, failed.error, failed.phases[-1].state) == ("failed", "O modelo parou.", "stopped")
    assert failed.progress == pytest.approx(running.progress) and failed.finished_at is not None


async def test_keyset_pages_list_each_document_once_newest_first_and_search_finds_titles(app_store, pipelines):
    made = [(await _document(app_store, "done", "done", title=f"Capítulo {i}.pdf"))[0] for i in range(12)]
    async with app_store.db.engine.begin() as conn:  # half of them in one instant: the id breaks the tie
        first = (await app_store.get(made[0])).created_at
        await conn.execute(update(Job).where(Job.id.in_(made[:6])).values(created_at=first))
    expected = [v.id for v in await pipelines.list_recent(limit=100)]
    seen: list[uuid.UUID] = []
    before = None
    while page := await pipelines.list_recent(limit=5, before=before):
        seen += [v.id for v in page]
        before = page[-1].cursor
    assert seen == expected and sorted(seen) == sorted(made)
    keys = [(v.created_at, v.id) for v in await pipelines.list_recent(limit=100)]
    assert keys == sorted(keys, reverse=True)
    assert [v.title for v in await pipelines.list_recent(search="capítulo 11")] == ["Capítulo 11.pdf"]
    assert await pipelines.count(search="CAPÍTULO") == 12
    assert await pipelines.count(search="%") == 0


async def test_cancel_stops_whatever_part_is_open(app_store, pipelines):
    reading, _ = await _document(app_store, "running", None)
    writing, child = await _document(app_store, "done", "running")
    finished, _ = await _document(app_store, "done", "done")
    assert (await pipelines.cancel(reading)).status == "cancelled"
    assert (await app_store.get(reading)).status == "cancelled"
    view = await pipelines.cancel(child)  # the child's id works as well as the document's
    assert view.status == "cancelled" and (await app_store.get(writing)).status == "done"
    assert (await app_store.get(child)).status == "cancelled"
    assert await pipelines.cancel(finished) is None


async def test_retry_runs_again_the_part_that_failed_or_was_cancelled(app_store, pipelines):
    root_failed, _ = await _document(app_store, "failed", None)
    child_failed, child = await _document(app_store, "done", "failed")
    root_cancelled, dropped = await _document(app_store, "cancelled", "cancelled")
    done, _ = await _document(app_store, "done", "done")
    assert (await pipelines.retry(root_failed)).status == "queued"
    assert (await app_store.get(root_failed)).status == "queued"
    again = await pipelines.retry(child_failed)
    assert again.status == "queued" and again.guide_job_id == child
    assert (await app_store.get(child_failed)).status == "done"
    rerun = await pipelines.retry(root_cancelled)
    assert rerun.status == "queued" and rerun.guide is None  # the rerun queues its follow-up again
    assert (await app_store.get(root_cancelled)).status == "queued"
    assert await app_store.count(kind="generate") == 2
    assert dropped not in {j.id for j in await app_store.list_recent(limit=100)}
    assert await pipelines.retry(done) is None


async def test_remove_deletes_the_root_and_its_children_but_never_an_open_document(app_store, pipelines):
    open_doc, open_child = await _document(app_store, "done", "running")
    finished, child = await _document(app_store, "done", "failed")
    assert not await pipelines.remove(open_doc)
    assert (await app_store.get(open_child)).status == "running"
    assert await pipelines.remove(child)
    remaining = {j.id for j in await app_store.list_recent(limit=100)}
    assert remaining == {open_doc, open_child}
    assert not await pipelines.remove(finished)


async def test_write_again_queues_a_new_guide_job_that_becomes_the_documents_newest(app_store, pipelines):
    doc, first = await _document(app_store, "done", "done")
    text_only, _ = await _document(app_store, "done", None, only_extract=True)
    view = await pipelines.write_again(doc)
    assert view.status == "queued" and view.guide_job_id not in (None, first)
    second = view.guide_job_id
    assert (await app_store.get(second)).parent_id == doc
    assert (await app_store.get(first)).status == "done"  # the old guide's job stays
    assert await pipelines.write_again(doc) is None  # not while the new one is open
    assert await pipelines.write_again(text_only) is None
    await _move(app_store, second, "done")
    assert (await pipelines.get(doc)).status == "done"
    assert await pipelines.count() == 2


async def test_cancel_all_and_retry_all_failed_act_on_every_document(app_store, pipelines):
    opened = (("queued", None), ("running", None), ("done", "queued"), ("done", "running"))
    open_docs = [(await _document(app_store, root, child))[0] for root, child in opened]
    ended_badly = (("failed", None), ("done", "failed"))
    failed_docs = [(await _document(app_store, root, child))[0] for root, child in ended_badly]
    kept, _ = await _document(app_store, "done", "done")
    assert await pipelines.cancel_all() == 4
    assert {v.id for v in await pipelines.list_recent(statuses=("cancelled",))} == set(open_docs)
    assert await pipelines.retry_all_failed() == 2
    assert {v.id for v in await pipelines.list_recent(statuses=("queued",))} == set(failed_docs)
    assert (await pipelines.get(kept)).status == "done"


async def test_the_time_left_shown_counts_down_between_the_workers_writes(app_store, pipelines):
    root = await app_store.enqueue("ingest", title="a.pdf", params={"path": "/a.pdf", "only_extract": True})
    claimed = await app_store.claim(root.id)
    wrote_at = utcnow()
    detail = {"eta_seconds": 30.0, "eta_at": wrote_at.isoformat()}
    await app_store.report_progress(root.id, 0.5, stage="read", detail=detail, attempt=claimed.attempts)
    view = await pipelines.get(root.id)
    assert view.eta is not None and view.eta <= 30.0
    later = view.seen_at + timedelta(seconds=10)
    assert view.time_left(later) == pytest.approx(view.eta - 10.0)
    assert view.time_left(view.seen_at + timedelta(hours=1)) == 0.0
    await app_store.succeed(root.id, attempt=claimed.attempts)
    done = await pipelines.get(root.id)
    assert done.eta is None and done.time_left() is None

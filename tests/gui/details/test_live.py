"""A real document driven through the store the way the daemon does — its reading, then its guide as a child job —
and the window follows it live as one row, bar by bar over both parts."""

from __future__ import annotations

import asyncio
import itertools

from core.app.storage.database import make_app_store
from core.db import AsyncDatabaseManager
from core.progress import PhasePlan
from core.tracker import ProgressTracker


async def _work(db_url: str, job_id, started: asyncio.Event) -> None:
    """Claim the root on a connection of its own, run its phase with real counters, queue its child (as ingest
    does), succeed; then run the child's two phases with real counters and messages, succeed."""
    db = AsyncDatabaseManager(db_url)
    try:
        store = make_app_store(db)
        await started.wait()
        job = await store.claim(job_id, worker_id="test-worker")
        assert job is not None
        reading = ProgressTracker(
            store, job_id, plan=PhasePlan.from_seconds({"extract": 0.8}), interval=0.1, attempt=job.attempts
        )

        async def extract() -> None:
            for page in range(1, 9):
                await asyncio.sleep(0.1)
                await reading.report(
                    "extract", done=page / 8, message=f"Lendo página {page} de 8…",
                    detail={"pages_done": page, "pages_total": 8},
                )  # fmt: skip

        await reading.run("extract", extract())
        child = await store.enqueue("generate", title="Biologia.pdf", columns={"parent_id": job_id})
        await store.succeed(job_id, attempt=job.attempts)
        await asyncio.sleep(0.6)  # queued behind other work for a moment
        claimed = await store.claim(child.id, worker_id="test-worker")
        assert claimed is not None
        plan = PhasePlan.from_seconds({"outline": 0.5, "write": 0.8})
        tracker = ProgressTracker(store, child.id, plan=plan, interval=0.1, attempt=claimed.attempts)

        async def outline() -> None:
            await asyncio.sleep(0.5)

        async def write() -> None:
            for section in range(1, 5):
                await asyncio.sleep(0.2)
                await tracker.report(
                    "write", done=section / 4, message=f"Escrevendo a seção {section} de 4…",
                    detail={"current_section": section, "total_sections": 4},
                )  # fmt: skip

        await tracker.run("outline", outline())
        await tracker.run("write", write())
        await store.succeed(child.id, attempt=claimed.attempts, message="Guia pronto.")
    finally:
        await db.dispose()


def test_one_row_follows_both_jobs_of_a_document_phase_by_phase_to_the_end(
    make_window, store, settings, run, wait_until
):
    window = make_window(watch_interval=0.05)  # a look per page read, even on a busy machine
    samples: list[tuple[list[tuple[str, str, float]], str, float | None, str, float]] = []

    async def scenario() -> None:
        job = await store.enqueue("ingest", title="Biologia.pdf", params={"path": "/docs/Biologia.pdf"})
        await wait_until(lambda: window.select_job(job.id), what="the document in the table")
        started = asyncio.Event()
        worker = asyncio.ensure_future(_work(settings.database_url, job.id, started))
        started.set()
        while not worker.done():
            shown = window.details.job
            if shown is not None and shown.id == job.id:
                states = [(s.name, s.state, s.fraction) for s in window.details.phases.states]
                samples.append((states, window.details.message.text(), shown.eta, shown.status, shown.progress))
                assert window.model.rowCount() == 1  # one document, one row, whichever of its jobs runs
            await asyncio.sleep(0.02)
        await worker
        await wait_until(lambda: window.details.job.status == "done", what="the done document in the panel")
        await wait_until(lambda: window.model.rows[0].status == "done", what="the done row in the table")

    run(scenario())
    statuses = [status for _p, _m, _e, status, _b in samples]
    # waiting, reading, waiting for the guide's turn, writing: one row through both jobs
    assert [k for k, _g in itertools.groupby(statuses)][:4] == ["queued", "running", "queued", "running"]
    progress = [bar for *_rest, bar in samples]
    assert progress == sorted(progress), "the document's bar moved back"
    running = [s for s in samples if s[3] == "running" and s[0]]
    assert len(running) > 10
    # before the guide's job exists, its planned phases wait after the reading; then its own phases take their place
    assert [n for n, _s, _f in running[0][0]] == ["extract", "load_model", "outline", "sections", "export"]
    assert [n for n, _s, _f in running[-1][0]] == ["extract", "outline", "write"]
    # each phase's bar only moves forward, and a later phase is never done before an earlier one
    for before, after in itertools.pairwise(running):
        if [n for n, _s, _f in before[0]] == [n for n, _s, _f in after[0]]:
            for (name, _state, fraction), (_n, _state2, fraction2) in zip(before[0], after[0], strict=True):
                assert fraction2 >= fraction - 1e-9, (name, fraction, fraction2)
    for states, *_ in running:
        done = [state == "done" for _name, state, _f in states]
        assert done == sorted(done, reverse=True), states
    # the phases were seen running in order, across both jobs
    order = []
    for states, *_ in running:
        for name, state, _f in states:
            if state == "running" and (not order or order[-1] != name):
                order.append(name)
    assert order == ["extract", "outline", "write"]
    # the messages moved in order
    messages = [m for _s, m, _e, _st, _b in running if m]
    pages = [m for m in dict.fromkeys(messages) if m.startswith("Lendo")]
    assert pages == sorted(pages, key=lambda m: int(m.split()[2])) and len(pages) >= 3
    assert any(m.startswith("Escrevendo a seção") for m in messages)
    # the time left for the whole document went down
    etas = [e for _s, _m, e, _st, _b in running if e is not None]
    assert etas[-1] < etas[0]
    # at the end every bar is full and the panel and the table agree
    final = window.details.phases.states
    assert [(s.part, s.state) for s in final] == [("ingest", "done"), ("generate", "done"), ("generate", "done")]
    assert all(s.fraction == 1.0 for s in final)
    assert all(bar.value() == bar.maximum() for bar in window.details.phases.bars)
    assert window.model.rows[0].progress == 1.0 and window.model.rowCount() == 1
    assert not window.cancel_action.isEnabled() and window.write_again_action.isEnabled()

"""A real job driven through the store the way the daemon will: the window follows it live, bar by bar."""

from __future__ import annotations

import asyncio
import itertools

from core.appdb import make_app_store
from core.db import AsyncDatabaseManager
from core.progress import PhasePlan
from core.tracker import ProgressTracker


async def _work(db_url: str, job_id, started: asyncio.Event) -> None:
    """Claim the job on a connection of its own, run three phases with real counters and messages, succeed."""
    db = AsyncDatabaseManager(db_url)
    try:
        store = make_app_store(db)
        await started.wait()
        job = await store.claim(job_id, worker_id="test-worker")
        assert job is not None
        plan = PhasePlan.from_seconds({"extract": 0.8, "outline": 0.5, "write": 0.8})
        tracker = ProgressTracker(store, job_id, plan=plan, interval=0.1, attempt=job.attempts)

        async def extract() -> None:
            for page in range(1, 9):
                await asyncio.sleep(0.1)
                await tracker.report(
                    "extract", done=page / 8, message=f"Lendo página {page} de 8…",
                    detail={"pages_done": page, "pages_total": 8},
                )  # fmt: skip

        async def outline() -> None:
            await asyncio.sleep(0.5)

        async def write() -> None:
            for section in range(1, 5):
                await asyncio.sleep(0.2)
                await tracker.report(
                    "write", done=section / 4, message=f"Escrevendo a seção {section} de 4…",
                    detail={"current_section": section, "total_sections": 4},
                )  # fmt: skip

        await tracker.run("extract", extract())
        await tracker.run("outline", outline())
        await tracker.run("write", write())
        await store.succeed(job_id, attempt=job.attempts, message="Guia pronto.")
    finally:
        await db.dispose()


def test_the_phase_bars_and_the_message_follow_a_real_job_to_the_end(window, store, settings, run, wait_until):
    samples: list[tuple[list[tuple[str, str, float]], str, float | None, str]] = []

    async def scenario() -> None:
        job = await store.enqueue("ingest", title="Biologia.pdf", params={"path": "/docs/Biologia.pdf"})
        await wait_until(lambda: window.select_job(job.id), message="the job in the table")
        started = asyncio.Event()
        worker = asyncio.ensure_future(_work(settings.database_url, job.id, started))
        started.set()
        while not worker.done():
            shown = window.details.job
            if shown is not None and shown.id == job.id:
                states = [(s.name, s.state, s.fraction) for s in window.details.phases.states]
                samples.append((states, window.details.message.text(), shown.eta, shown.status))
            await asyncio.sleep(0.02)
        await worker
        await wait_until(lambda: window.details.job.status == "done", message="the done row in the panel")
        await wait_until(lambda: window.model.rows[0].status == "done", message="the done row in the table")

    run(scenario())
    running = [s for s in samples if s[3] == "running" and s[0]]
    assert len(running) > 10
    # each phase's bar only moves forward, and a later phase is never done before an earlier one
    for before, after in itertools.pairwise(running):
        for (name, _state, fraction), (name2, _state2, fraction2) in zip(before[0], after[0], strict=False):
            assert name == name2
            assert fraction2 >= fraction - 1e-9, (name, fraction, fraction2)
    for states, *_ in running:
        done = [state == "done" for _name, state, _f in states]
        assert done == sorted(done, reverse=True), states
    # the phases were seen running in order
    order = []
    for states, *_ in running:
        for name, state, _f in states:
            if state == "running" and (not order or order[-1] != name):
                order.append(name)
    assert order == ["extract", "outline", "write"]
    # the messages moved in order
    messages = [m for _s, m, _e, _st in running if m]
    pages = [m for m in dict.fromkeys(messages) if m.startswith("Lendo")]
    assert pages == sorted(pages, key=lambda m: int(m.split()[2])) and len(pages) >= 3
    assert any(m.startswith("Escrevendo a seção") for m in messages)
    # the ETA went down
    etas = [e for _s, _m, e, _st in running if e is not None]
    assert etas[-1] < etas[0]
    # at the end every bar is full and the panel and the table agree
    final = window.details.phases.states
    assert [s.state for s in final] == ["done", "done", "done"]
    assert all(s.fraction == 1.0 for s in final)
    assert all(bar.value() == bar.maximum() for bar in window.details.phases.bars)
    assert window.model.rows[0].progress == 1.0
    assert not window.cancel_action.isEnabled()

"""A job's counters: a reader's count fills the share of its phase the counted work takes, so the bar and the time
left leave room for the work that comes after the last count."""

from __future__ import annotations

import asyncio
import threading
import uuid
from types import SimpleNamespace
from typing import Any

from core.app.documents.counters import PAGES
from core.progress import ETA_SECONDS, Phase, PhasePlan
from core.tracker import ProgressTracker
from daemon.jobs.context import JobContext


class _Rows:
    """A store that keeps each progress write and lets a test wait for the first one after the count."""

    def __init__(self) -> None:
        self.writes: list[tuple[float, dict[str, Any]]] = []
        self.counted = threading.Event()
        self.written_after_count = threading.Event()

    async def report_progress(self, job_id: uuid.UUID, value: float, **fields: Any) -> bool:
        self.writes.append((value, dict(fields.get("detail") or {})))
        if self.counted.is_set():
            self.written_after_count.set()
        return True


async def _bar_after_the_whole_count(share: float) -> tuple[float, float | None, PhasePlan]:
    """The bar and time left written after a reader counted all its pages, the read still running."""
    rows = _Rows()
    plan = PhasePlan([Phase("read", 2.0), Phase("save", 0.5)])
    tracker = ProgressTracker(rows, uuid.uuid4(), plan=plan, interval=0.05)  # type: ignore[arg-type]
    ctx = JobContext(
        runtime=None,  # type: ignore[arg-type]
        job=SimpleNamespace(detail={}),  # type: ignore[arg-type]
        running=None,  # type: ignore[arg-type]
        loop=asyncio.get_running_loop(),
    )
    counter = ctx.counter(tracker, "read", "reading_page", PAGES, every=0.0, share=share)

    def read() -> None:
        counter(40, 40)
        rows.counted.set()
        assert rows.written_after_count.wait(10)

    await tracker.run("read", asyncio.to_thread(read))
    value, detail = next((v, d) for v, d in reversed(rows.writes[:-1]))  # the last write before the read's end
    return value, detail.get(ETA_SECONDS), tracker.plan


async def test_a_readers_last_count_fills_only_its_share_of_the_read_and_leaves_time_for_the_rest() -> None:
    value, left, plan = await _bar_after_the_whole_count(0.9)
    start, end = plan.span("read")
    assert start + 0.9 * (end - start) - 1e-9 <= value <= start + plan.ceiling_margin * (end - start) + 1e-9
    assert left is not None and left > plan.expected_seconds("save")  # a tenth of the read is still to come


async def test_a_count_that_covers_its_whole_phase_fills_it() -> None:
    value, left, plan = await _bar_after_the_whole_count(1.0)
    assert value == plan.span("read")[1]
    assert left == plan.expected_seconds("save")

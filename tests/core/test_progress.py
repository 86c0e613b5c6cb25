"""PhasePlan and ProgressTracker: a bar that moves with measured time, real counts, and never lies."""

from __future__ import annotations

import asyncio
import itertools
import threading
from datetime import datetime, timedelta

import pytest

from core import JobStatus, JobStore, Phase, PhasePlan, ProgressTracker, StageInterruptedError, eta_seconds
from core.progress import ETA_AT, ETA_SECONDS
from tests.waiting import async_wait_until


def test_phases_are_laid_end_to_end_in_proportion_to_their_medians():
    plan = PhasePlan.from_seconds({"pdf": 1.0, "table": 30.0, "reading": 19.0})
    assert plan.names == ("pdf", "table", "reading")
    assert plan.span("pdf") == pytest.approx((0.0, 0.02))
    assert plan.span("table") == pytest.approx((0.02, 0.62))
    assert plan.span("reading") == pytest.approx((0.62, 1.0))


def test_expected_time_grows_with_the_input_size():
    plan = PhasePlan.from_seconds({"table": 30.0, "reading": 19.0}, per_kilochar={"table": 0.5})
    assert plan.expected_seconds("table") == pytest.approx(30.0)
    assert plan.expected_seconds("table", size=40_000) == pytest.approx(50.0)
    assert plan.expected_seconds("reading", size=40_000) == pytest.approx(19.0)


def test_a_calibrated_median_belongs_to_the_reference_size_and_the_slope_moves_it_both_ways():
    phase = Phase("outline", 16.0, per_kilochar=4.0, reference_kilochars=4.5)
    assert phase.expected_seconds() == pytest.approx(16.0)
    assert phase.expected_seconds(4_500) == pytest.approx(16.0)
    assert phase.expected_seconds(10_000) == pytest.approx(16.0 + 4.0 * 5.5)
    assert phase.expected_seconds(2_000) == pytest.approx(16.0 - 4.0 * 2.5)
    assert phase.expected_seconds(0) == pytest.approx(1.6)  # never below a tenth of the median


def test_a_plan_sized_for_one_input_gives_the_size_bound_phase_its_share_of_the_time():
    plan = PhasePlan([Phase("load", 10.0), Phase("write", 10.0, per_kilochar=1.0, reference_kilochars=10.0)])
    big = plan.sized({"write": 40_000})
    assert big.span("write") == pytest.approx((0.2, 1.0))  # 10 s of loading, 40 s of writing
    assert big.expected_seconds("write", 40_000) == pytest.approx(plan.expected_seconds("write", 40_000))
    assert big.expected_seconds("write") == pytest.approx(40.0)
    assert plan.sized({}).span("write") == plan.span("write")


def test_interpolation_is_linear_in_time_and_stops_at_the_ceiling_margin():
    plan = PhasePlan.from_seconds({"a": 10.0, "b": 10.0})
    assert plan.interpolate("b", 0) == pytest.approx(0.5)
    assert plan.interpolate("b", 5) == pytest.approx(0.75)
    assert plan.interpolate("b", 9.9) == pytest.approx(0.5 + 0.5 * 0.95)
    assert plan.interpolate("b", 1000) == pytest.approx(0.5 + 0.5 * 0.95)
    assert plan.interpolate("a", 5, size=None) < plan.span("a")[1]


def test_a_real_counter_may_reach_the_top_of_its_phase():
    plan = PhasePlan.from_seconds({"a": 10.0, "b": 10.0})
    assert plan.at("a", 0.5) == pytest.approx(0.25)
    assert plan.at("a", 1.0) == pytest.approx(0.5)
    assert plan.at("a", 7) == pytest.approx(0.5)


def test_bad_plans_are_refused():
    with pytest.raises(ValueError):
        PhasePlan([])
    with pytest.raises(ValueError):
        PhasePlan([Phase("a", 1), Phase("a", 2)])
    with pytest.raises(ValueError):
        PhasePlan.from_seconds({"a": 0.0})
    with pytest.raises(ValueError):
        PhasePlan.from_seconds({"a": 1.0}, per_kilochar={"b": 1.0})
    with pytest.raises(ValueError):
        Phase("a", -1)
    with pytest.raises(ValueError):
        PhasePlan.from_seconds({"a": 1.0}, ceiling_margin=0)
    with pytest.raises(KeyError):
        PhasePlan.from_seconds({"a": 1.0}).span("b")


def test_a_plan_survives_a_round_trip_through_its_json_file_with_its_reference_size(tmp_path):
    plan = PhasePlan([Phase("read", 0.03, per_kilochar=0.0005, reference_kilochars=56.5), Phase("save", 0.003)])
    plan.dump(tmp_path / "plan.json")
    loaded = PhasePlan.load(tmp_path / "plan.json")
    assert loaded.phase("read") == plan.phase("read")
    assert loaded.expected_seconds("read", 200_000) == pytest.approx(0.03 + 0.0005 * 143.5)


def test_a_plan_survives_a_round_trip_through_its_json_file(tmp_path):
    plan = PhasePlan.from_seconds({"read": 2.0, "clean": 0.5}, per_kilochar={"read": 0.01}, ceiling_margin=0.9)
    plan.dump(tmp_path / "ingest.json", measured_on="test corpus")
    again = PhasePlan.load(tmp_path / "ingest.json")
    assert again.phases == plan.phases and again.ceiling_margin == 0.9


async def claimed(store: JobStore):
    job = await store.enqueue("extract")
    return await store.claim(job.id)


async def test_entering_the_first_phase_writes_its_name_immediately(store: JobStore):
    job = await claimed(store)
    tracker = ProgressTracker(store, job.id, plan=PhasePlan.from_seconds({"read": 60.0, "save": 1.0}), interval=30)
    gate = asyncio.Event()
    runner = asyncio.create_task(tracker.run("read", gate.wait()))
    row = await async_wait_until(
        lambda: _stage_is(store, job.id, "read"), what="the stage on the row", timeout=10.0, interval=0.01
    )
    assert row.progress == 0.0
    assert [p["name"] for p in row.phases] == ["read", "save"]
    gate.set()
    await runner


async def test_a_phase_entered_with_a_message_shows_it_from_its_first_write(store: JobStore):
    job = await claimed(store)
    tracker = ProgressTracker(store, job.id, plan=PhasePlan.from_seconds({"read": 60.0, "save": 1.0}), interval=30)
    gate = asyncio.Event()
    runner = asyncio.create_task(tracker.run("read", gate.wait(), message="Reading…"))
    row = await async_wait_until(
        lambda: _stage_is(store, job.id, "read"), what="the stage on the row", timeout=10.0, interval=0.01
    )
    assert (row.message, row.progress) == ("Reading…", 0.0)
    gate.set()
    await runner
    assert (await store.get(job.id)).message == "Reading…"  # the phase's end keeps it


async def _stage_is(store: JobStore, job_id, stage: str):
    row = await store.get(job_id)
    return row if row.stage == stage else None


async def test_the_bar_moves_with_time_stops_below_the_ceiling_and_fills_when_the_phase_ends(store: JobStore):
    job = await claimed(store)
    plan = PhasePlan.from_seconds({"a": 0.1, "b": 0.1})
    tracker = ProgressTracker(store, job.id, plan=plan, interval=0.01, attempt=job.attempts)
    gate = asyncio.Event()
    runner = asyncio.create_task(tracker.run("a", gate.wait()))
    row = await async_wait_until(
        lambda: _progress_at_least(store, job.id, 0.5 * 0.95 - 1e-9), what="ceiling", timeout=10.0, interval=0.01
    )
    assert row.progress <= 0.5 * 0.95 + 1e-9, "an estimate filled the phase"
    gate.set()
    await runner
    row = await store.get(job.id)
    assert row.progress == pytest.approx(0.5)
    phase_a = row.phases[0]
    assert phase_a["name"] == "a" and phase_a["started_at"] and phase_a["finished_at"]
    assert "started_at" not in row.phases[1]
    assert await tracker.run("b", asyncio.sleep(0)) is None
    assert (await store.get(job.id)).progress == pytest.approx(1.0)


async def _progress_at_least(store: JobStore, job_id, value: float):
    row = await store.get(job_id)
    return row if row.progress >= value else None


async def test_a_real_count_beats_the_estimate(store: JobStore):
    job = await claimed(store)
    plan = PhasePlan.from_seconds({"read": 0.05, "save": 1.0})
    tracker = ProgressTracker(store, job.id, plan=plan, interval=0.01)
    span_end = plan.span("read")[1]

    async def read_pages() -> str:
        for page in range(1, 5):
            assert await tracker.report(
                "read",
                done=page / 4,
                message=f"Lendo página {page} de 4…",
                detail={"pages_done": page, "pages_total": 4},
            )
            await asyncio.sleep(0.03)
        return "text"

    assert await tracker.run("read", read_pages()) == "text"
    row = await store.get(job.id)
    assert row.progress == pytest.approx(span_end)
    assert row.message == "Lendo página 4 de 4…" and row.detail.items() >= {"pages_done": 4, "pages_total": 4}.items()


async def test_a_count_from_a_worker_thread_reaches_the_row_with_the_next_tick(store: JobStore):
    job = await claimed(store)
    plan = PhasePlan.from_seconds({"read": 10.0, "save": 10.0})  # read spans [0, 0.5]
    tracker = ProgressTracker(store, job.id, plan=plan, interval=0.02, attempt=job.attempts)
    counted, release = threading.Event(), threading.Event()

    def read_on_a_thread() -> str:
        tracker.count("read", done=0.5, message="Lendo página 2 de 4…", detail={"pages_done": 2, "pages_total": 4})
        counted.set()
        release.wait(10)
        return "text"

    runner = asyncio.create_task(tracker.run("read", asyncio.to_thread(read_on_a_thread)))
    row = await async_wait_until(
        lambda: _progress_at_least(store, job.id, 0.25),
        what="the thread's count on the row",
        timeout=10.0,
        interval=0.01,
    )
    assert counted.is_set()
    assert row.message == "Lendo página 2 de 4…" and row.detail.items() >= {"pages_done": 2, "pages_total": 4}.items()
    release.set()
    assert await runner == "text"


async def test_a_count_left_over_from_a_finished_phase_is_not_written_into_the_next(store: JobStore):
    job = await claimed(store)
    plan = PhasePlan.from_seconds({"read": 0.05, "save": 10.0})
    tracker = ProgressTracker(store, job.id, plan=plan, interval=0.01, attempt=job.attempts)
    await tracker.run("read", asyncio.sleep(0))
    tracker.count("read", done=1.0, message="Lendo página 4 de 4…")  # too late: the phase has ended
    await tracker.run("save", asyncio.sleep(0.05))
    row = await store.get(job.id)
    assert row.stage == "save" and row.message != "Lendo página 4 de 4…"


async def test_between_counts_the_bar_keeps_the_counts_pace_and_stops_below_the_ceiling(store: JobStore):
    job = await claimed(store)
    plan = PhasePlan.from_seconds({"read": 10.0, "save": 10.0})  # read spans [0, 0.5]
    tracker = ProgressTracker(store, job.id, plan=plan, interval=0.02)
    seen: list[float] = []

    async def read_slowly() -> None:
        await asyncio.sleep(0.1)
        await tracker.report("read", done=0.25)  # a quarter of the pages in 0.1 s: 0.125 of the bar
        for _ in range(15):  # no count for 0.3 s: the ticks carry the bar on at that pace
            await asyncio.sleep(0.02)
            seen.append((await store.get(job.id)).progress)

    await tracker.run("read", read_slowly())
    assert max(seen) > 0.125 + 0.05, "the bar stood still between counts"
    assert max(seen) <= 0.5 * plan.ceiling_margin + 1e-9, "the bar passed the phase's ceiling without a count"


async def test_a_cancel_during_a_phase_sets_the_stop_event_and_stops_the_work(store: JobStore):
    job = await claimed(store)
    tracker = ProgressTracker(store, job.id, plan=PhasePlan.from_seconds({"write": 60.0}), interval=0.02)
    stop = threading.Event()
    stopped_thread = threading.Event()

    def local_model() -> None:
        stop.wait(30)
        stopped_thread.set()

    async def work() -> None:
        await asyncio.to_thread(local_model)

    runner = asyncio.create_task(tracker.run("write", work(), stop_event=stop))
    await async_wait_until(
        lambda: _stage_is(store, job.id, "write"), timeout=10.0, interval=0.01, what="the write stage on the row"
    )
    await store.cancel(job.id)
    with pytest.raises(StageInterruptedError):
        await asyncio.wait_for(runner, 5)
    assert stop.is_set()
    assert stopped_thread.wait(5)
    assert tracker.interrupted


async def test_a_lost_claim_interrupts_the_tracker(store: JobStore):
    job = await claimed(store)
    tracker = ProgressTracker(
        store, job.id, plan=PhasePlan.from_seconds({"write": 60.0}), interval=0.02, attempt=job.attempts + 7
    )
    with pytest.raises(StageInterruptedError):
        await tracker.run("write", asyncio.sleep(10))
    assert (await store.get(job.id)).stage == ""


async def test_a_failing_phase_raises_its_own_error(store: JobStore):
    job = await claimed(store)
    tracker = ProgressTracker(store, job.id, plan=PhasePlan.from_seconds({"read": 1.0}), interval=0.01)

    async def broken() -> None:
        raise ValueError("corrupt file")

    with pytest.raises(ValueError, match="corrupt"):
        await tracker.run("read", broken())
    assert (await store.get(job.id)).status == JobStatus.RUNNING


async def test_time_left_is_not_inflated_by_a_finished_phase_calibrated_near_zero(store: JobStore):
    job = await claimed(store)
    plan = PhasePlan.from_seconds({"load_model": 0.001, "write": 20.0})
    tracker = ProgressTracker(store, job.id, plan=plan, interval=0.01)
    await tracker.run("load_model", asyncio.sleep(0.3))  # 300 times its calibrated figure
    gate = asyncio.Event()
    runner = asyncio.create_task(tracker.run("write", gate.wait()))
    row = await async_wait_until(
        lambda: _progress_at_least(store, job.id, plan.span("write")[0] + 0.001),
        timeout=10.0,
        interval=0.01,
        what="progress into the write stage",
    )
    left = eta_seconds(row)
    assert left is not None and 15.0 < left <= 20.0, left
    gate.set()
    await runner


async def test_the_worker_writes_its_time_left_with_each_write_and_the_screen_counts_down_from_it(store: JobStore):
    job = await claimed(store)
    plan = PhasePlan.from_seconds({"read": 1.0, "write": 2.0})
    left = iter(itertools.count(100, -1))
    tracker = ProgressTracker(store, job.id, plan=plan, interval=0.01, estimate=lambda *_: float(next(left)))
    gate = asyncio.Event()
    runner = asyncio.create_task(tracker.run("read", gate.wait()))
    row = await async_wait_until(
        lambda: _progress_at_least(store, job.id, 0.01),
        timeout=10.0,
        interval=0.01,
        what="the first progress on the row",
    )
    written, at = row.detail[ETA_SECONDS], datetime.fromisoformat(row.detail[ETA_AT])
    assert written < 100  # a later write carries a later estimate
    assert eta_seconds(row, now=at) == pytest.approx(written)
    assert eta_seconds(row, now=at + timedelta(seconds=30)) == pytest.approx(written - 30)
    assert eta_seconds(row, now=at + timedelta(hours=1)) == 0.0  # never below zero
    gate.set()
    await runner
    await store.succeed(job.id)
    assert eta_seconds(await store.get(job.id)) is None  # only a running job has time left


async def test_a_job_whose_worker_has_no_basis_yet_shows_estimating(store: JobStore):
    job = await claimed(store)
    tracker = ProgressTracker(store, job.id, plan=PhasePlan.from_seconds({"read": 1.0}), estimate=lambda *_: None)
    gate = asyncio.Event()
    runner = asyncio.create_task(tracker.run("read", gate.wait()))
    row = await async_wait_until(
        lambda: _stage_is(store, job.id, "read"), timeout=10.0, interval=0.01, what="the read stage on the row"
    )
    assert ETA_AT in row.detail and row.detail[ETA_SECONDS] is None
    assert eta_seconds(row) is None
    gate.set()
    await runner
    row.detail = {}  # a row from a worker that writes no estimate
    assert eta_seconds(row) is None


async def test_an_estimate_that_fails_shows_estimating_and_never_stops_the_job(store: JobStore):
    job = await claimed(store)

    def broken(_phase: str, _elapsed: float, _done: float | None) -> float | None:
        raise ZeroDivisionError("a bug in an estimate")

    plan = PhasePlan.from_seconds({"read": 0.05})
    tracker = ProgressTracker(store, job.id, plan=plan, interval=0.01, estimate=broken)
    assert await tracker.run("read", asyncio.sleep(0.05, result="text")) == "text"
    row = await store.get(job.id)
    assert row.progress == pytest.approx(1.0) and eta_seconds(row) is None


async def test_a_replan_lays_out_the_phases_not_begun_and_the_bar_never_moves_back(store: JobStore):
    """A job learns its input's real size in its first phase: the phases after it get the room the new figures
    give them, and the first keeps its share of the bar, the running phase's end included."""
    job = await claimed(store)
    plan = PhasePlan.from_seconds({"load": 1.0, "plan": 8.0, "write": 1.0})
    tracker = ProgressTracker(store, job.id, plan=plan, interval=30, attempt=job.attempts)

    async def load() -> None:  # the size is learned while the first phase runs
        tracker.replan(PhasePlan.from_seconds({"load": 3.0, "plan": 2.0, "write": 2.0}))

    await tracker.run("load", load())
    row = await store.get(job.id)
    assert row.progress == pytest.approx(0.1), "the first phase kept its share"
    assert tracker.plan.span("plan") == pytest.approx((0.1, 0.1 + 0.9 * 2 / 4))
    assert tracker.plan.span("write") == pytest.approx((0.55, 1.0))
    assert [(p["name"], p["start"], p["end"]) for p in row.phases] == [
        ("load", 0.0, 0.1), ("plan", 0.1, 0.55), ("write", 0.55, 1.0),
    ]  # fmt: skip
    assert row.phases[1]["seconds"] == 2.0
    with pytest.raises(ValueError, match="does not have the phases"):
        tracker.replan(PhasePlan.from_seconds({"load": 1.0, "write": 1.0}))

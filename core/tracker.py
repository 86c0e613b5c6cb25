"""``ProgressTracker``: runs the phases of one job and writes its bar to the row — the writes are also its cancel check.

A write that does not land means the job is no longer ours (cancelled, reclaimed, claim lost): the tracker then
sets the job's stop event and stops the work. See :mod:`core.progress` for the plans it follows.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from core.errors import StageInterruptedError
from core.progress import ETA_AT, ETA_SECONDS, Phase, PhasePlan, plan_remaining_seconds
from core.types import utcnow

if TYPE_CHECKING:
    from core.store import JobStore

__all__ = ["Estimate", "ProgressTracker"]

log = logging.getLogger(__name__)

T = TypeVar("T")

Estimate = Callable[[str, float, float | None], float | None]
"""``(phase, seconds in it, real count 0..1 or None) -> seconds left for the whole job`` (``None``: no basis)."""


class _PendingCount(NamedTuple):
    """A count recorded by :meth:`ProgressTracker.count`, waiting for the phase's next tick."""

    phase: str
    done: float
    at: float
    message: str | None
    detail: Mapping[str, Any] | None


class ProgressTracker:
    """Runs the phases of one claimed job and writes its bar, stage and phase list to the row.

    On entering a phase it always writes the phase's floor and name (even when the number does not move). Every
    ``interval`` seconds — more often in a phase expected to be short, ten writes over its expected time but no
    more than one per ``MIN_TICK`` — it writes the interpolated value for halfway to its next write (or, once the
    work counts, the last count moved on at the pace the counts have kept, below the phase's ceiling). That write
    is also the cancel check: when it does not land (cancelled, reclaimed, claim lost), the tracker sets
    ``stop_event``, cancels the work and raises :class:`StageInterruptedError`.

    Use from the job's event loop. ``report`` may be called from the work itself (a coroutine of the same loop);
    work on a thread calls :meth:`count` instead, which only records the count for the phase's next tick to write
    (no write per count, no hop to the loop: the thread keeps the GIL for its own work).

    Args:
        store: The job store.
        job_id: The claimed job.
        plan: The job kind's plan.
        interval: The longest time between writes (and cancel checks).
        attempt: The claim's fencing token (``claim(...).attempts``); recommended.
        sizes: Input characters per phase when known before the job starts: the bar gives each phase room in
            proportion to its expected time for this input (see :meth:`PhasePlan.sized`).
        detail: The row's ``detail`` when the job was claimed; every write stores it with what was added since
            (counters, :meth:`note`) and the time left.
        estimate: Gives the job's time left at each write (see :data:`Estimate`); by default the plan's
            expected times (:func:`core.progress.plan_remaining_seconds`). Written as ``detail["eta_seconds"]``
            with ``detail["eta_at"]`` (see :mod:`core.progress`). Called on the loop; must be quick.
    """

    MIN_TICK = 0.01

    def __init__(
        self,
        store: JobStore[Any],
        job_id: uuid.UUID,
        *,
        plan: PhasePlan,
        interval: float = 2.0,
        attempt: int | None = None,
        sizes: Mapping[str, int | None] | None = None,
        detail: Mapping[str, Any] | None = None,
        estimate: Estimate | None = None,
    ) -> None:
        if interval <= 0:
            raise ValueError("interval must be positive")
        self.store = store
        self.job_id = job_id
        self.plan = plan.sized(sizes) if sizes else plan
        self.interval = interval
        self.attempt = attempt
        self._phases = self.plan.describe()
        self._counted: dict[str, float] = {}
        self._counted_at: dict[str, float] = {}  # loop time of each phase's last count
        self._began = 0.0  # loop time the running phase began
        self._stop_event: threading.Event | None = None
        self._lost = False
        self._pending_lock = threading.Lock()
        self._pending: _PendingCount | None = None
        self._detail: dict[str, Any] = dict(detail or {})
        self._estimate: Estimate = estimate or self._plan_estimate
        self._phase_size: int | None = None

    def replan(self, plan: PhasePlan) -> None:
        """Lay the phases not yet begun out again with ``plan`` (the same phases, in the same order): a job that
        learns its input's real size in one of its first phases (a model's count of the text's tokens) gives the
        phases after it the room they need. The phases begun, the running one included, keep their share of the
        bar, so the bar never moves back. Call on the job's loop.

        Raises:
            ValueError: ``plan`` names other phases.
        """
        if [p.name for p in plan.phases] != [p.name for p in self.plan.phases]:
            raise ValueError(f"replan: {plan!r} does not have the phases of {self.plan!r}")
        begun = sum(1 for entry in self._phases if entry.get("started_at"))
        share = self.plan.span(self.plan.phases[begun - 1].name)[1] if begun else 0.0
        rest = plan.phases[begun:]
        rest_weight = sum(p.weight for p in rest)
        if not rest or rest_weight <= 0 or share >= 1.0:
            return
        done_weight = sum(p.weight for p in self.plan.phases[:begun])  # their weight that keeps their share
        scale = share / (1.0 - share) * rest_weight / done_weight if done_weight else 0.0
        kept = [
            Phase(p.name, p.weight * scale, p.per_kilochar, p.reference_kilochars) for p in self.plan.phases[:begun]
        ]
        self.plan = PhasePlan([*kept, *rest], ceiling_margin=plan.ceiling_margin)
        for entry, laid_out in list(zip(self._phases, self.plan.describe(), strict=True))[begun:]:
            entry.update(start=laid_out["start"], end=laid_out["end"], seconds=laid_out["seconds"])

    def note(self, **values: Any) -> None:
        """Add ``values`` to the row's ``detail``, from the next write on (call on the loop)."""
        self._detail.update(values)

    def _plan_estimate(self, phase: str, elapsed: float, done: float | None) -> float | None:
        return plan_remaining_seconds(self.plan, phase, elapsed, done=done, size=self._phase_size)

    def _time_left(self, phase: str) -> dict[str, Any]:
        """``detail`` keys for the time left now: :data:`ETA_SECONDS` and :data:`ETA_AT`."""
        start, end = self.plan.span(phase)
        counted = self._counted.get(phase)
        done = (counted - start) / (end - start) if counted is not None and end > start else None
        loop_now = asyncio.get_running_loop().time()
        elapsed = loop_now - self._began if self._began else 0.0
        try:
            left = self._estimate(phase, elapsed, done)
        except Exception:  # a figure for the screen must never stop the job: show "estimating…" instead
            log.exception("job %s: the time left could not be estimated", self.job_id)
            left = None
        seconds = None if left is None or not left >= 0 else round(left, 2)
        return {ETA_SECONDS: seconds, ETA_AT: utcnow().isoformat()}

    @property
    def interrupted(self) -> bool:
        """Whether a write found the job no longer ours."""
        return self._lost

    async def run(
        self,
        phase: str,
        work: Awaitable[T],
        *,
        size: int | None = None,
        stop_event: threading.Event | None = None,
        message: str | None = None,
    ) -> T:
        """Run ``work`` as phase ``phase``; returns what it returned.

        Args:
            phase: A phase of the plan.
            work: The coroutine doing the phase.
            size: Input characters, for the phase's per-kilochar slope.
            stop_event: Set when the job is interrupted, before the coroutine is cancelled: the way to reach a
                thread (local inference) that cancelling a coroutine cannot stop.
            message: The user message for the phase ("Reading…"), written with its floor: one write, not two.

        Raises:
            StageInterruptedError: the job was cancelled or its claim lost. Whatever ``work`` raises otherwise.
        """
        start, end = self.plan.span(phase)
        self._stop_event = stop_event
        self._phase_size = size
        self._began = asyncio.get_running_loop().time()
        expected = self.plan.expected_seconds(phase, size)
        tick = min(self.interval, max(expected / 10, self.MIN_TICK))
        self._mark(phase, seconds=expected, started_at=utcnow())
        task: asyncio.Future[T] = asyncio.ensure_future(work)
        try:
            if not await self._write(start, phase, phases=True, message=message):
                await self._interrupt(task)
            loop = asyncio.get_running_loop()
            began = self._began = loop.time()
            while True:
                done, _ = await asyncio.wait({task}, timeout=tick)
                if done:
                    break
                pending = self._take_count(phase)
                if not await self._write(
                    self._tick_value(phase, loop.time() + tick / 2, began, size), phase, **pending
                ):
                    await self._interrupt(task)
            result = task.result()
            self._mark(phase, finished_at=utcnow())
            self._counted[phase] = end
            if not await self._write(end, phase, phases=True, **self._take_count(phase)):
                await self._interrupt(task)
            return result
        finally:
            if not task.done():
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task

    def _tick_value(self, phase: str, at: float, began: float, size: int | None) -> float:
        """The bar at loop time ``at``: the plan's interpolation, or between the counter's last two reports.

        Written for halfway to the next write: a screen reading the row at any moment between two writes is then
        off by half a tick at most, instead of always behind by up to a whole one.
        """
        counted = self._counted.get(phase)
        if counted is None:
            return self.plan.interpolate(phase, at - began, size)
        return self._between_counts(phase, counted, at)

    async def report(
        self,
        phase: str,
        *,
        done: float,
        message: str | None = None,
        detail: Mapping[str, Any] | None = None,
    ) -> bool:
        """Write a real count: ``done`` (0..1) of ``phase``, with an optional user message and counters.

        Returns ``False`` when the job is no longer ours; then the running phase's ``stop_event`` is set, and the
        tracker's next tick interrupts the work.
        """
        value = self.plan.at(phase, done)
        self._record_count(phase, done, value, asyncio.get_running_loop().time())
        ok = await self._write(value, phase, message=message, detail=detail)
        if not ok and self._stop_event is not None:
            self._stop_event.set()
        return ok

    def count(
        self, phase: str, *, done: float, message: str | None = None, detail: Mapping[str, Any] | None = None
    ) -> None:
        """Record a real count from any thread; the running phase's next tick writes it, with its message.

        Counts of a phase that is not running when the tick comes are dropped. The latest count wins.
        """
        with self._pending_lock:
            self._pending = _PendingCount(phase, done, time.monotonic(), message, detail)

    def _take_count(self, phase: str) -> dict[str, Any]:
        """Apply the latest :meth:`count` of ``phase`` (if any) and return the message and detail to write."""
        with self._pending_lock:
            pending, self._pending = self._pending, None
        if pending is None or pending.phase != phase:
            return {}
        # pending.at is time.monotonic(), which is also the loop's clock
        self._record_count(phase, pending.done, self.plan.at(phase, pending.done), pending.at)
        return {"message": pending.message, "detail": pending.detail}

    def _record_count(self, phase: str, done: float, value: float, at: float) -> None:
        """Remember a real count (bar ``value`` at loop time ``at``) for the ticks' pace between counts."""
        if done > 0:  # a count of zero says nothing yet: until the first real step, time moves the bar
            self._counted[phase] = max(value, self._counted.get(phase, 0.0))
            self._counted_at[phase] = at

    def _between_counts(self, phase: str, counted: float, at: float) -> float:
        """The last count moved on at the pace the counts have kept so far, never past the phase's ceiling."""
        start, end = self.plan.span(phase)
        counted_at = self._counted_at[phase]
        pace = (counted - start) / max(counted_at - self._began, 1e-6)  # bar per second so far
        ceiling = start + (end - start) * self.plan.ceiling_margin
        return max(counted, min(counted + pace * (at - counted_at), ceiling))

    def _mark(self, phase: str, **fields: Any) -> None:
        for entry in self._phases:
            if entry["name"] == phase:
                entry.update({k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in fields.items()})

    async def _write(
        self,
        value: float,
        phase: str,
        *,
        phases: bool = False,
        message: str | None = None,
        detail: Mapping[str, Any] | None = None,
    ) -> bool:
        if detail is not None:
            self._detail.update(detail)
        self._detail.update(self._time_left(phase))
        ok = await self.store.report_progress(
            self.job_id,
            value,
            stage=phase,
            message=message,
            detail=dict(self._detail),
            phases=self._phases if phases else None,
            attempt=self.attempt,
        )
        if not ok:
            self._lost = True
        return ok

    async def _interrupt(self, task: asyncio.Future[Any]) -> None:
        if self._stop_event is not None:
            self._stop_event.set()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        raise StageInterruptedError(f"job {self.job_id} was cancelled or is no longer ours")

"""Progress that does not lie: phases measured on real inputs, a real counter where the work can count.

A :class:`PhasePlan` lays the phases end to end on ``[0, 1]``, each span proportional to its measured median.
Within a phase the bar moves linearly with elapsed time against the phase's expected duration (median plus a
per-kilochar slope times the input size) and stops at ``ceiling_margin`` of the span: only the phase really
finishing may fill it. A real counter (pages read of pages total) beats the estimate and may reach the top.

:class:`ProgressTracker` runs each phase of one job and writes the numbers to the job row; the same write answers
whether the job was cancelled (a write that does not land means the job is no longer ours).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import threading
import uuid
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from core.errors import StageInterruptedError
from core.types import utcnow

if TYPE_CHECKING:
    from core.store import JobStore

__all__ = ["Phase", "PhasePlan", "ProgressTracker", "eta_seconds"]

T = TypeVar("T")


@dataclass(frozen=True)
class Phase:
    """One phase of a job.

    Args:
        name: What the row's ``stage`` says while it runs.
        weight: Its share of the bar; for a measured plan, the median seconds it took.
        per_kilochar: Extra expected seconds per 1,000 characters of input above ``reference_kilochars``.
        reference_kilochars: The input size (thousands of characters) the median ``weight`` belongs to: the
            calibration corpus's median. An input of that size is expected to take ``weight`` seconds.
    """

    name: str
    weight: float
    per_kilochar: float = 0.0
    reference_kilochars: float = 0.0

    def __post_init__(self) -> None:
        if not self.name:
            raise ValueError("a phase needs a name")
        for label, value in (
            ("weight", self.weight),
            ("per_kilochar", self.per_kilochar),
            ("reference_kilochars", self.reference_kilochars),
        ):
            if not math.isfinite(value) or value < 0:
                raise ValueError(f"phase {self.name!r}: {label} must be a finite number ≥ 0")

    def expected_seconds(self, size: int | None = None) -> float:
        """The median moved along the size slope: ``weight + per_kilochar × (kilochars − reference)``.

        Without a size, the median. Never below a tenth of the median (a small input still has the phase's fixed
        costs) nor below a millisecond, so time always moves the bar.
        """
        if size is None:
            return max(self.weight, 1e-3)
        moved = self.weight + self.per_kilochar * (size / 1000.0 - self.reference_kilochars)
        return max(moved, self.weight * 0.1, 1e-3)


class PhasePlan:
    """Phases laid end to end on ``[0, 1]``, each span proportional to its weight.

    Args:
        phases: In the order they run; names must be unique; total weight must be positive.
        ceiling_margin: How far into its span an estimate may move a phase (0 < margin ≤ 1).
    """

    def __init__(self, phases: Sequence[Phase], *, ceiling_margin: float = 0.95) -> None:
        self.phases: tuple[Phase, ...] = tuple(phases)
        if not self.phases:
            raise ValueError("a PhasePlan needs at least one phase")
        names = [p.name for p in self.phases]
        if len(set(names)) != len(names):
            raise ValueError(f"repeated phase name in {names!r}")
        if not 0 < ceiling_margin <= 1:
            raise ValueError("ceiling_margin must be in (0, 1]")
        total = sum(p.weight for p in self.phases)
        if total <= 0:
            raise ValueError("the phases' total weight must be positive")
        self.ceiling_margin = ceiling_margin
        self._spans: dict[str, tuple[float, float]] = {}
        start = 0.0
        for i, phase in enumerate(self.phases):
            end = 1.0 if i == len(self.phases) - 1 else start + phase.weight / total
            self._spans[phase.name] = (start, end)
            start = end
        self._by_name = {p.name: p for p in self.phases}

    @classmethod
    def from_seconds(
        cls,
        medians: Mapping[str, float],
        per_kilochar: Mapping[str, float] | None = None,
        *,
        reference_kilochars: float = 0.0,
        ceiling_margin: float = 0.95,
    ) -> PhasePlan:
        """A plan from measured median seconds per phase (in mapping order), optional size slopes, and the input
        size (thousands of characters) the medians were measured at."""
        slopes = dict(per_kilochar or {})
        unknown = set(slopes) - set(medians)
        if unknown:
            raise ValueError(f"per_kilochar names phases that are not in the plan: {sorted(unknown)}")
        phases = [
            Phase(name, float(sec), float(slopes.get(name, 0.0)), float(reference_kilochars) if name in slopes else 0.0)
            for name, sec in medians.items()
        ]
        return cls(phases, ceiling_margin=ceiling_margin)

    def sized(self, sizes: Mapping[str, int | None]) -> PhasePlan:
        """This plan laid out for one input: each phase's span proportional to its expected seconds at ``sizes``.

        A job whose input is twice the usual size spends more of its time in the size-bound phases; its bar must
        give them more room. Phases without a size keep their median. Expected seconds are unchanged.
        """
        phases = []
        for p in self.phases:
            size = sizes.get(p.name)
            if size is None:
                phases.append(p)
            else:  # the same expectation, anchored at this size
                phases.append(Phase(p.name, p.expected_seconds(size), p.per_kilochar, size / 1000.0))
        return PhasePlan(phases, ceiling_margin=self.ceiling_margin)

    @classmethod
    def load(cls, path: str | Path) -> PhasePlan:
        """Read a plan written by :meth:`dump` (the calibration run's ``resources/plans/*.json``)."""
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return cls(
            [
                Phase(
                    p["name"],
                    float(p["seconds"]),
                    float(p.get("per_kilochar", 0.0)),
                    float(p.get("reference_kilochars", 0.0)),
                )
                for p in data["phases"]
            ],
            ceiling_margin=float(data.get("ceiling_margin", 0.95)),
        )

    def dump(self, path: str | Path, **extra: Any) -> None:
        """Write the plan as JSON (``extra`` keys, such as how it was measured, are kept alongside)."""
        data = {
            **extra,
            "ceiling_margin": self.ceiling_margin,
            "phases": [
                {
                    "name": p.name,
                    "seconds": p.weight,
                    "per_kilochar": p.per_kilochar,
                    "reference_kilochars": p.reference_kilochars,
                }
                for p in self.phases
            ],
        }
        Path(path).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

    @property
    def names(self) -> tuple[str, ...]:
        """The phase names, in order."""
        return tuple(p.name for p in self.phases)

    def phase(self, name: str) -> Phase:
        """The phase called ``name``."""
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"unknown phase {name!r}; the plan has {', '.join(self.names)}") from None

    def span(self, name: str) -> tuple[float, float]:
        """``(start, end)`` of the phase on ``[0, 1]``."""
        self.phase(name)
        return self._spans[name]

    def expected_seconds(self, name: str, size: int | None = None) -> float:
        """How long the phase is expected to take for an input of ``size`` characters."""
        return self.phase(name).expected_seconds(size)

    def interpolate(self, name: str, elapsed: float, size: int | None = None) -> float:
        """The bar after ``elapsed`` seconds in phase ``name``: linear, stopping at the ceiling margin."""
        start, end = self.span(name)
        fraction = min(max(elapsed, 0.0) / self.expected_seconds(name, size), self.ceiling_margin)
        return start + (end - start) * fraction

    def at(self, name: str, done: float) -> float:
        """The bar for a real count: ``done`` (0..1) of phase ``name``; may reach the end of its span."""
        start, end = self.span(name)
        return start + (end - start) * min(max(done, 0.0), 1.0)

    def describe(self, sizes: Mapping[str, int] | None = None) -> list[dict[str, Any]]:
        """The phase list a screen needs: name, start, end and expected seconds of each."""
        sizes = sizes or {}
        return [
            {
                "name": p.name,
                "start": round(self._spans[p.name][0], 6),
                "end": round(self._spans[p.name][1], 6),
                "seconds": round(p.expected_seconds(sizes.get(p.name)), 3),
            }
            for p in self.phases
        ]

    def __repr__(self) -> str:
        inner = ", ".join(f"{p.name}={p.weight:g}s" for p in self.phases)
        return f"PhasePlan({inner})"


class ProgressTracker:
    """Runs the phases of one claimed job and writes its bar, stage and phase list to the row.

    On entering a phase it always writes the phase's floor and name (even when the number does not move). Every
    ``interval`` seconds — more often in a phase expected to be short, ten writes over its expected time but no
    more than one per ``MIN_TICK`` — it writes the interpolated value for halfway to its next write (or, once the
    work counts, the last count moved on at the pace the counts have kept, below the phase's ceiling). That write
    is also the cancel check: when it does not land (cancelled, reclaimed, claim lost), the tracker sets
    ``stop_event``, cancels the work and raises :class:`StageInterruptedError`.

    Use from the job's event loop. ``report`` may be called from the work itself (a coroutine of the same loop;
    a thread must go through ``asyncio.run_coroutine_threadsafe``).

    Args:
        store: The job store.
        job_id: The claimed job.
        plan: The job kind's plan.
        interval: The longest time between writes (and cancel checks).
        attempt: The claim's fencing token (``claim(...).attempts``); recommended.
        sizes: Input characters per phase when known before the job starts: the bar gives each phase room in
            proportion to its expected time for this input (see :meth:`PhasePlan.sized`).
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
    ) -> T:
        """Run ``work`` as phase ``phase``; returns what it returned.

        Args:
            phase: A phase of the plan.
            work: The coroutine doing the phase.
            size: Input characters, for the phase's per-kilochar slope.
            stop_event: Set when the job is interrupted, before the coroutine is cancelled: the way to reach a
                thread (local inference) that cancelling a coroutine cannot stop.

        Raises:
            StageInterruptedError: the job was cancelled or its claim lost. Whatever ``work`` raises otherwise.
        """
        start, end = self.plan.span(phase)
        self._stop_event = stop_event
        expected = self.plan.expected_seconds(phase, size)
        tick = min(self.interval, max(expected / 10, self.MIN_TICK))
        self._mark(phase, seconds=expected, started_at=utcnow())
        task: asyncio.Future[T] = asyncio.ensure_future(work)
        try:
            if not await self._write(start, phase, phases=True):
                await self._interrupt(task)
            loop = asyncio.get_running_loop()
            began = self._began = loop.time()
            while True:
                done, _ = await asyncio.wait({task}, timeout=tick)
                if done:
                    break
                # The estimate for halfway to the next write: a screen reading the row at any moment between two
                # writes is then off by half a tick at most, instead of always behind by up to a whole one.
                at = loop.time() + tick / 2
                counted = self._counted.get(phase)
                if counted is None:
                    value = self.plan.interpolate(phase, at - began, size)
                else:
                    value = self._between_counts(phase, counted, at)
                if not await self._write(value, phase):
                    await self._interrupt(task)
            result = task.result()
            self._mark(phase, finished_at=utcnow())
            if not await self._write(end, phase, phases=True):
                await self._interrupt(task)
            return result
        finally:
            if not task.done():
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task

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
        if done > 0:  # a count of zero says nothing yet: until the first real step, time moves the bar
            self._counted[phase] = max(value, self._counted.get(phase, 0.0))
            self._counted_at[phase] = asyncio.get_running_loop().time()
        ok = await self._write(value, phase, message=message, detail=detail)
        if not ok and self._stop_event is not None:
            self._stop_event.set()
        return ok

    async def message(self, phase: str, text: str, *, detail: Mapping[str, Any] | None = None) -> bool:
        """Write a user message (and counters) without moving the bar."""
        return await self._write(self._counted.get(phase, self.plan.span(phase)[0]), phase, message=text, detail=detail)

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
        ok = await self.store.report_progress(
            self.job_id,
            value,
            stage=phase,
            message=message,
            detail=detail,
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


def eta_seconds(job: Any) -> float | None:
    """Seconds left for a running job, from its phase list and how fast its finished phases really went.

    The expected seconds of what is left (the rest of the current phase and the phases after it) are scaled by
    the ratio of real to expected time of the phases already finished, so a slow machine gets a longer, honest
    estimate. ``None`` when the job is not running or carries no phase list.
    """
    phases: list[dict[str, Any]] = list(getattr(job, "phases", None) or [])
    if getattr(job, "status", None) != "running" or not phases:
        return None
    progress = float(job.progress or 0.0)
    real = expected = remaining = 0.0
    for entry in phases:
        seconds = float(entry.get("seconds") or 0.0)
        if entry.get("finished_at"):
            if entry.get("started_at"):
                taken = datetime.fromisoformat(entry["finished_at"]) - datetime.fromisoformat(entry["started_at"])
                real += taken.total_seconds()
                expected += seconds
        elif entry["name"] == job.stage:
            start, end = float(entry["start"]), float(entry["end"])
            fraction = min(max((progress - start) / (end - start), 0.0), 1.0) if end > start else 0.0
            remaining += seconds * (1.0 - fraction)
        else:
            remaining += seconds
    speed = real / expected if expected > 0 and real > 0 else 1.0
    return remaining * speed

"""Phase plans, the bar's arithmetic and the time-left keys a worker stores on a job's ``detail``.

A bar never passes a phase's ceiling before the phase ends; a real counter may. ``eta_seconds``/``eta_at`` are the
worker's figure, counted down by :func:`eta_seconds` (docs/design/jobs.md, "Progress that does not lie", "Time
left").
Plain data and functions (:meth:`PhasePlan.load` reads a file); safe from any thread.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    pass

__all__ = [
    "ETA_AT",
    "ETA_SECONDS",
    "EXPECTED_SECONDS",
    "FOLLOW_UP_SECONDS",
    "Phase",
    "PhasePlan",
    "eta_seconds",
    "plan_remaining_seconds",
]

ETA_SECONDS = "eta_seconds"
"""``detail`` key: the worker's estimate of the job's remaining seconds (``None``: no basis yet)."""
ETA_AT = "eta_at"
"""``detail`` key: when :data:`ETA_SECONDS` was computed (ISO 8601, UTC)."""
FOLLOW_UP_SECONDS = "follow_up_seconds"
"""``detail`` key of an ``ingest`` job: the expected duration of the ``generate`` job it enqueues."""
EXPECTED_SECONDS = "expected_seconds"
"""``detail`` key of a ``generate`` job, set when it is enqueued: its expected duration."""

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


def plan_remaining_seconds(
    plan: PhasePlan, phase: str, elapsed: float, *, done: float | None = None, size: int | None = None
) -> float:
    """Seconds left by the plan alone: the rest of ``phase`` and every phase after it, at their expected times.

    Within ``phase``, a real count (``done`` of 0..1, ``elapsed`` seconds in) sets the pace; without one, the
    phase's expected time minus ``elapsed``, never below a tenth of it (the phase is not over until it ends).
    Nothing is scaled by how fast the finished phases went: a phase calibrated near zero would inflate it.
    """
    expected = plan.expected_seconds(phase, size)
    if done is not None and done > 0.05 and elapsed > 0:
        current = elapsed / min(done, 1.0) * (1.0 - min(done, 1.0))
    else:
        current = max(expected - max(elapsed, 0.0), expected * 0.1)
    later = plan.names[plan.names.index(phase) + 1 :]
    return current + sum(plan.expected_seconds(name, size) for name in later)


def eta_seconds(job: Any, now: datetime | None = None) -> float | None:
    """Seconds left for a running job: the worker's last estimate, counted down to ``now`` (default: the clock).

    ``None`` when the job is not running or its worker has not given an estimate (it has no basis yet, or the row
    comes from a worker that did not write one): a screen shows "estimating…", never a guess of its own.
    Never below zero.
    """
    if getattr(job, "status", None) != "running":
        return None
    detail = getattr(job, "detail", None) or {}
    return _counted_down(detail, now)


def _counted_down(detail: Mapping[str, Any], now: datetime | None) -> float | None:
    seconds = _number(detail.get(ETA_SECONDS))
    raw_at = detail.get(ETA_AT)
    if seconds is None or not isinstance(raw_at, str):
        return None
    try:
        at = datetime.fromisoformat(raw_at)
    except ValueError:
        return None
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    since = ((now or datetime.now(UTC)) - at).total_seconds()
    return max(seconds - max(since, 0.0), 0.0)


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        return None
    return float(value)

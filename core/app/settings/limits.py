"""Time limits of running jobs: the ``[limits]`` settings, and the soft and hard limits of one attempt of one job,
from the expected seconds on its row (what happens at each limit: docs/design/timing.md, "Time limits").

Plain data, no I/O; safe from any thread.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.progress import EXPECTED_SECONDS

__all__ = ["EXPECTED_SECONDS_KEY", "LIMIT_KEYS", "LimitSettings", "expected_seconds"]

LIMIT_KEYS = (
    "ingest_seconds", "generate_seconds", "times_expected", "grace_seconds", "no_progress_seconds", "request_seconds",
)  # fmt: skip
"""The keys of the settings file's ``[limits]`` table."""

EXPECTED_SECONDS_KEY = EXPECTED_SECONDS
"""``detail`` key with a job's expected duration in seconds from the model's measured speed (:mod:`core.progress`)."""

_DEFAULTS: Mapping[str, float] = {
    "ingest_seconds": 600.0,
    "generate_seconds": 1800.0,
    "times_expected": 4.0,
    "grace_seconds": 60.0,
    "no_progress_seconds": 300.0,
    "request_seconds": 900.0,
}


@dataclass(frozen=True)
class LimitSettings:
    """The ``[limits]`` table. Every value is a number above 0; seconds unless said otherwise.

    Attributes:
        ingest_seconds: The least time an ``ingest`` attempt gets before its soft limit (default 600).
        generate_seconds: The least time a ``generate`` attempt gets (default 1,800); other kinds get this too.
        times_expected: The soft limit as a multiple of the attempt's expected duration (default 4).
        grace_seconds: How long a job stopped at its soft limit may take to end before the worker process is
            ended (default 60).
        no_progress_seconds: How long a running job may write no progress before the worker process is ended
            (default 300).
        request_seconds: The longest one request to a model server may take, first byte to last (default 900).

    Raises:
        ValueError: a value that is not a number above 0 (the message names the key).
    """

    ingest_seconds: float = _DEFAULTS["ingest_seconds"]
    generate_seconds: float = _DEFAULTS["generate_seconds"]
    times_expected: float = _DEFAULTS["times_expected"]
    grace_seconds: float = _DEFAULTS["grace_seconds"]
    no_progress_seconds: float = _DEFAULTS["no_progress_seconds"]
    request_seconds: float = _DEFAULTS["request_seconds"]

    def __post_init__(self) -> None:
        for key in LIMIT_KEYS:
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value <= 0:
                raise ValueError(f"limits.{key}: {value!r} must be a number above 0 (default {_DEFAULTS[key]:g})")
            object.__setattr__(self, key, float(value))

    def floor(self, kind: str) -> float:
        """The least time an attempt of a job of ``kind`` gets."""
        return self.ingest_seconds if kind == "ingest" else self.generate_seconds

    def soft_limit(self, kind: str, expected: float | None) -> float:
        """Seconds an attempt of ``kind`` expected to take ``expected`` seconds (``None``: unknown) may run."""
        floor = self.floor(kind)
        return floor if expected is None else max(floor, self.times_expected * expected)


def expected_seconds(phases: Sequence[Mapping[str, Any]] | None, detail: Mapping[str, Any] | None) -> float | None:
    """A job's expected duration from its row: its phases' expected seconds added up, or the worker's own figure
    (``detail["expected_seconds"]``) when that is larger. ``None`` when the row has neither."""
    total = sum(_seconds(entry.get("seconds")) for entry in phases or ())
    own = _seconds((detail or {}).get(EXPECTED_SECONDS_KEY))
    best = max(total, own)
    return best if best > 0 else None


def _seconds(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return 0.0
    return max(float(value), 0.0)

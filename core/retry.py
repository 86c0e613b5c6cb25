"""The store's retry schedule: how long a transiently failed job waits before its next attempt."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

__all__ = ["DEFAULT_BACKOFF", "Backoff"]

DEFAULT_BACKOFF: tuple[float, ...] = (60.0, 300.0, 900.0, 3600.0)
"""1 min, 5 min, 15 min, 1 h — the last step repeats."""


@dataclass(frozen=True)
class Backoff:
    """Delays in seconds after the 1st, 2nd, … failed attempt; the last step repeats.

    Args:
        steps: At least one delay, none negative.
    """

    steps: tuple[float, ...] = DEFAULT_BACKOFF

    def __init__(self, steps: Sequence[float] = DEFAULT_BACKOFF) -> None:
        steps = tuple(float(s) for s in steps)
        if not steps or any(s < 0 for s in steps):
            raise ValueError(f"backoff needs at least one non-negative delay, got {steps!r}")
        object.__setattr__(self, "steps", steps)

    def delay(self, attempt: int) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based; 0 counts as 1)."""
        index = min(max(attempt, 1), len(self.steps)) - 1
        return self.steps[index]

    def retry_at(self, attempt: int, now: datetime) -> datetime:
        """When the attempt after ``attempt`` may start."""
        return now + timedelta(seconds=self.delay(attempt))

"""The running step of a ``generate`` job's estimate, and the tallies its rates are measured with.

Used by :class:`daemon.estimate.GenerateEstimate` only (from the job's loop).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Step", "Tally"]


@dataclass
class Step:
    """The step running now: what the writer reported, and when (monotonic seconds)."""

    phase: str
    step: int
    steps: int
    prompt_tokens: int
    budget: int
    started: float
    first_token: float | None = None  # of the running try
    tokens: int = 0  # written by the running try
    last_at: float | None = None  # the last report (a finished try's end)
    earlier_tokens: int = 0  # written by the step's finished tries
    attempt: int = 1

    @property
    def written(self) -> int:
        """Tokens the step has written so far, every try counted."""
        return self.earlier_tokens + self.tokens


@dataclass
class Tally:
    """Tokens and seconds measured so far for one rate."""

    tokens: float = 0.0
    seconds: float = 0.0

    def rate(self, minimum_tokens: float, minimum_seconds: float) -> float | None:
        """Tokens per second, or ``None`` with fewer than ``minimum_tokens`` or ``minimum_seconds`` measured."""
        if self.tokens < minimum_tokens or self.seconds < minimum_seconds:
            return None
        return self.tokens / self.seconds

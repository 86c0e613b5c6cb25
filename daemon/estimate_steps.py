"""The running step of a ``generate`` job's estimate, the tallies its rates are measured with, and its habits.

Used by :class:`daemon.estimate.GenerateEstimate` only (from the job's loop).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from daemon.speeds import Speeds

NEARLY_FULL = 0.9
"""Of a step's token budget: a try that wrote this much was cut at its budget rather than ended by the model."""

__all__ = ["NEARLY_FULL", "Step", "Tally", "ran_to_budget", "tokens_per_listed_section", "typical_length"]


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
    read: float = 0.0  # seconds its prompt took (from its start to its first token)

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


def tokens_per_listed_section(prior: Speeds) -> float:
    """The outline's tokens per section it lists (the prior's habits: tokens per step over sections per step)."""
    return max(prior.outline_tokens / max(prior.sections_per_chunk, 1.0), 8.0)


def typical_length(lengths: Mapping[tuple[str, int], list[int]], key: tuple[str, int], otherwise: float) -> float:
    """The mean length of a job's finished tries of ``key`` (phase, try) in ``lengths``, or ``otherwise`` before
    any."""
    found = lengths.get(key)
    return sum(found) / len(found) if found else otherwise


def ran_to_budget(lengths: Mapping[tuple[str, int], list[int]], phase: str, budget: int) -> bool:
    """Whether a finished try of ``phase`` in ``lengths`` wrote (nearly) ``budget`` tokens: cut at its budget, the
    text of a model that repeats itself."""
    return any(n >= NEARLY_FULL * budget for (kind, _try), found in lengths.items() if kind == phase for n in found)

"""The running step of a ``generate`` job's estimate, the tallies its rates are measured with, its habits, and how
much faster the job runs than its prior.

Used by :class:`core.app.guide_estimate.GenerateEstimate` only (from the job's loop).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from core.app.speeds import Speeds

NEARLY_FULL = 0.9
"""Of a step's token budget: a try that wrote this much was cut at its budget rather than ended by the model."""

LOOP_RISE = 1.75
"""A section's try still running at a share ``s`` of its token budget runs on into it (a model repeating itself)
with a chance of ``s ** LOOP_RISE``: one in sixty at a tenth of it, three in ten at half of it."""

__all__ = [
    "LOOP_RISE",
    "NEARLY_FULL",
    "Step",
    "Tally",
    "left_in_try",
    "pace",
    "ran_to_budget",
    "tokens_per_listed_section",
    "typical_length",
]


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
    read_first: tuple[int, float] | None = None  # the model's first report of its prompt read: (tokens, when)
    read_last: tuple[int, float] | None = None  # and its latest

    @property
    def written(self) -> int:
        """Tokens the step has written so far, every try counted."""
        return self.earlier_tokens + self.tokens

    def reading(self, tokens_read: int, now: float) -> None:
        """The model has read ``tokens_read`` tokens of the step's prompt (reported between batches)."""
        if self.read_first is None:
            self.read_first = (tokens_read, now)
        self.read_last = (tokens_read, now)

    def reading_rate(self, minimum_seconds: float) -> float | None:
        """The pace the model reads the running prompt at (prompt tokens per second): between its first and its
        latest report of a batch read, or with one report, from the step's start (a prefix reused from the cache
        counts as read then); ``None`` before a report, or over less than ``minimum_seconds``."""
        if self.read_first is None or self.read_last is None:
            return None
        first = self.read_first if self.read_last[1] > self.read_first[1] else (0, self.started)
        tokens, seconds = self.read_last[0] - first[0], self.read_last[1] - first[1]
        return tokens / seconds if tokens > 0 and seconds >= minimum_seconds else None

    def prompt_left(self, rate: float, now: float) -> float:
        """Seconds until the model has read the whole prompt at ``rate``: what it has not read yet, less the time
        since it said how much it had read (never less than a tenth of that)."""
        read, at = self.read_last if self.read_last is not None else (0, self.started)
        rest = max(self.prompt_tokens - read, 0) / rate
        return max(rest - (now - at), 0.1 * rest)


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


def left_in_try(
    step: Step, lengths: Mapping[tuple[str, int], list[int]], expected: float, per_listed_section: float
) -> float:
    """The tokens the running try of ``step`` is expected still to write, at most the room left in its budget.

    Where this job's finished tries of the same kind (``lengths``) went on past this point, it stops where they
    stopped, except that a section's try may be one that runs on into its budget (:data:`LOOP_RISE`): one or two
    earlier tries say little about the next (60 then 65 tokens, or 240 then the whole budget). Short of its
    ``expected`` length, it writes the rest of it. Past both, an outline lists one more section
    (``per_listed_section`` tokens each) and a section's try stops halfway to its budget, or at it once a try of
    this job ran into its own (a model that loops does it again)."""
    room = float(max(step.budget - step.tokens, 0))
    longer = [n for n in lengths.get((step.phase, step.attempt), ()) if n > step.tokens]
    if longer:
        stop = sum(longer) / len(longer) - step.tokens
        loop = (step.tokens / step.budget) ** LOOP_RISE if step.phase == "section" and step.budget else 0.0
        return min(loop * room + (1.0 - loop) * stop, room)
    if step.tokens < expected:
        return min(max(expected - step.tokens, min(0.1 * expected, room)), room)
    if step.phase == "outline":
        listed = math.ceil((step.tokens + 1) / per_listed_section)
        return min(listed * per_listed_section - step.tokens, room)
    return room if ran_to_budget(lengths, step.phase, step.budget) else room / 2


def pace(prior: Speeds, prompt_rate: float | None, decode: dict[str, float | None]) -> float:
    """How much faster this job runs than ``prior`` says (the machine may be busier or idler). A prompt read more
    slowly than the prior says slows the writing too (a busy machine); one read faster says little about the
    writing, whose pace is the memory's more than the processor's: it counts once the model writes."""
    ratios = [min(prompt_rate / prior.prompt_rate, 1.0)] if prompt_rate else []
    if decode["outline"]:
        ratios.append(decode["outline"] / prior.outline_decode_rate)
    if decode["section"]:
        ratios.append(decode["section"] / prior.section_decode_rate)
    if not ratios:
        return 1.0
    return min(max(math.exp(sum(math.log(r) for r in ratios) / len(ratios)), 0.05), 20.0)

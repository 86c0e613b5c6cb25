"""What the study-guide writer reports while it writes, and the budgets that shape a guide: read by the writer
(``daemon.guide_writer.writer``) and by the time estimate (:mod:`core.app.timing.guide_estimate`), which the window uses
too.

Plain frozen data and a protocol; safe to pass between threads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

__all__ = [
    "MAX_SECTIONS_PER_CHUNK",
    "OUTLINE_TOKENS",
    "PROMPT_OVERHEAD_TOKENS",
    "SECTION_TOKENS",
    "GuideBudgets",
    "GuideProgress",
    "GuideShape",
]

SECTION_TOKENS = 400
"""``max_tokens`` of each section's text (the writer's default)."""
OUTLINE_TOKENS = 400
"""``max_tokens`` of each chunk's outline (the writer's default)."""
MAX_SECTIONS_PER_CHUNK = 5
"""The most sections the outline asks of the model for one chunk (the writer's default)."""
PROMPT_OVERHEAD_TOKENS = 160
"""Tokens a prompt holds beyond its passages: instructions, chat template and passage labels, with a margin."""


@dataclass(frozen=True, slots=True)
class GuideProgress:
    """A progress report.

    Attributes:
        phase: ``"outline"`` (one step per chunk), ``"terms"`` (the key terms searched before the first section,
            one step per section searched; reported from the search's thread onto the loop) or ``"section"``
            (one step per section).
        step: 1-based index of the current step within the phase.
        steps: Number of steps in the phase (sections are known once the outline is done).
        tokens: Tokens generated so far in this step.
        token_budget: The step's ``max_tokens``: the answer is at most this long.
        title: The section being written (phase ``"section"``).
        prompt_tokens: The step's prompt in tokens: counted before it is sent (step start), exact once the model
            reports it.
        prompt_read: Of the step's prompt, the tokens the model has read so far, where it tells (a local model,
            between the batches it reads the prompt in, ``tokens`` 0); else 0.
    """

    phase: Literal["outline", "terms", "section"]
    step: int
    steps: int
    tokens: int
    token_budget: int
    title: str | None = None
    prompt_tokens: int = 0
    prompt_read: int = 0


class GuideShape(Protocol):
    """What decides a guide's steps: the model's context window and the writer's budgets (``GuideWriter`` has
    them; :class:`GuideBudgets` gives them for a model not loaded)."""

    @property
    def context_window(self) -> int: ...
    @property
    def section_tokens(self) -> int: ...
    @property
    def outline_tokens(self) -> int: ...
    @property
    def max_sections_per_chunk(self) -> int: ...
    @property
    def summaries(self) -> bool: ...


@dataclass(frozen=True)
class GuideBudgets:
    """A :class:`GuideShape` for a model at ``context_window`` tokens, with the writer's default budgets."""

    context_window: int
    summaries: bool = True
    section_tokens: int = SECTION_TOKENS
    outline_tokens: int = OUTLINE_TOKENS
    max_sections_per_chunk: int = MAX_SECTIONS_PER_CHUNK

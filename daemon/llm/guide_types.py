"""What the study-guide writer reports and returns: progress, the parts handed over as they are written, the
written sections and the guide. Plain frozen data; safe to pass between threads.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from daemon.llm.prompts import Language

__all__ = [
    "PROMPT_OVERHEAD_TOKENS",
    "GuideProgress",
    "GuideSection",
    "PartCallback",
    "ProgressCallback",
    "StudyGuide",
]

PROMPT_OVERHEAD_TOKENS = 160
"""Tokens a prompt holds beyond its passages: instructions, chat template and passage labels, with a margin."""


@dataclass(frozen=True, slots=True)
class GuideProgress:
    """A progress report.

    Attributes:
        phase: ``"outline"`` (one step per chunk) or ``"section"`` (one step per section).
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

    phase: Literal["outline", "section"]
    step: int
    steps: int
    tokens: int
    token_budget: int
    title: str | None = None
    prompt_tokens: int = 0
    prompt_read: int = 0


ProgressCallback = Callable[[GuideProgress], None]

PartCallback = Callable[[int, str, str, str], Awaitable[None]]
"""``on_part(position, title, markdown, origin)``: a part of the guide is written (position 0 is the head, then the
sections from 1, then the closing part; ``origin`` is ``"model"``, ``"quotes"`` for a section made of quotes
because the model's text failed its check, or ``"closing"`` for the glossary and coverage table); awaited before
the writer goes on, on the event loop's thread."""


@dataclass(frozen=True, slots=True)
class GuideSection:
    """A written section: its title, the 1-based passage numbers it covers, its Markdown body, and how it was
    made (``"model"``, or ``"quotes"`` when the model's text failed its check; ``"kept"`` for a body an earlier
    attempt wrote). ``model_text`` is the model's last answer for it, even when rejected ("" when kept)."""

    title: str
    passages: tuple[int, ...]
    body: str
    origin: str = "model"
    model_text: str = ""
    problems: tuple[str, ...] = ()
    """The failed checks of the model's last text when the section is made of quotes."""


@dataclass(frozen=True, slots=True)
class StudyGuide:
    """The result: ``markdown`` is the whole guide; the rest is for the caller's records."""

    title: str
    language: Language
    sections: tuple[GuideSection, ...]
    markdown: str

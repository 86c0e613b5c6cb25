"""What the study-guide writer reports and returns: progress, the parts handed over as they are written, the
written sections and the guide. Plain frozen data; safe to pass between threads.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from core.app.guides.progress import PROMPT_OVERHEAD_TOKENS, GuideProgress
from daemon.guide_writer.prompts import Language

__all__ = [
    "PROMPT_OVERHEAD_TOKENS",
    "GuideProgress",
    "GuideSection",
    "PartCallback",
    "ProgressCallback",
    "StudyGuide",
]

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

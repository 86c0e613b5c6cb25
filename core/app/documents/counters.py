"""The counts a job keeps in its ``detail`` (pages read, sections written …): the worker writes them with
:meth:`Counter.values`, screens word them with :func:`counter_text`; older keys are still read.

Pure functions over plain data; thread-safe.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.app.messages.sentences import message

__all__ = ["OUTLINE", "PAGES", "PARTS", "SECTIONS", "Counter", "counter_text", "counts", "plan_text"]


@dataclass(frozen=True)
class Counter:
    """One kind of count: its two ``detail`` keys, the catalog code of its words, and older keys still read."""

    done_key: str
    total_key: str
    code: str
    legacy: tuple[str, str] | None = None

    def values(self, done: int, total: int) -> dict[str, int]:
        """The ``detail`` entries for ``done`` of ``total``."""
        return {self.done_key: int(done), self.total_key: int(total)}

    def read(self, detail: Mapping[str, Any]) -> tuple[int, int] | None:
        """``(done, total)`` from ``detail`` (current keys first, then the legacy ones); ``None`` when absent."""
        for done_key, total_key in ((self.done_key, self.total_key), self.legacy or (self.done_key, self.total_key)):
            total = _whole(detail.get(total_key))
            if total:
                return min(max(_whole(detail.get(done_key)), 0), total), total
        return None


PAGES = Counter("pages_done", "pages_total", "count_pages")
"""Pages of a PDF read."""

PARTS = Counter("parts_done", "parts_total", "count_parts", legacy=("read_done", "read_total"))
"""Parts (chapters, blocks) of a document that has no pages read."""

OUTLINE = Counter("outline_done", "outline_total", "count_outline", legacy=("outline_part", "outline_parts"))
"""Parts of the text the model has planned (a long text is planned in parts)."""

SECTIONS = Counter("sections_done", "sections_total", "count_sections", legacy=("current_section", "total_sections"))
"""Sections of the study guide being written (``done`` is the one being written)."""


def _whole(value: Any) -> int:
    """``value`` as a whole number (``0`` for anything that is not a number)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    return int(value)


def counts(detail: Mapping[str, Any] | None) -> list[tuple[Counter, int, int]]:
    """The counts worth showing, in reading order: pages or parts, then sections (or the plan while no section
    is being written)."""
    found = {counter: counter.read(detail or {}) for counter in (PAGES, PARTS, OUTLINE, SECTIONS)}
    if found[PAGES] is not None:
        found[PARTS] = None
    if found[SECTIONS] is not None:
        found[OUTLINE] = None
    return [(counter, *value) for counter, value in found.items() if value is not None]


def counter_text(detail: Mapping[str, Any] | None, language: str) -> str:
    """The counts of ``detail`` in words, joined by ``" · "`` (*page 12 of 40 · section 2 of 5*), then the
    guide's plan when there is one (:func:`plan_text`); ``""`` if none."""
    texts = [message(c.code, language, done=done, total=total) for c, done, total in counts(detail)]
    plan = plan_text(detail, language)
    return " · ".join([*texts, plan] if plan else texts)


def plan_text(detail: Mapping[str, Any] | None, language: str) -> str:
    """The study guide's plan in words (*plan: 12 sections from the document's chapters, 34,000 tokens, about
    25 min*) from the ``plan_*`` entries a ``generate`` job writes; ``""`` without a plan."""
    found = detail or {}
    sections, tokens = _whole(found.get("plan_sections")), _whole(found.get("plan_tokens"))
    if not sections:
        return ""
    code = "count_plan_chapters" if found.get("plan_from_chapters") else "count_plan"
    code += "_one" if sections == 1 else ""
    text = message(code, language, sections=sections, tokens=f"{tokens:,}".replace(",", "\u2009"))
    seconds = _whole(found.get("plan_seconds"))
    if seconds:
        text += ", " + message("count_plan_time", language, minutes=max(1, round(seconds / 60)))
    return text

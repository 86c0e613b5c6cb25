"""Where a document's text came from: the pages of each paragraph and the document's own chapters, stored as JSON in
``documents.structure``; a structure that does not fit its text is ignored (:meth:`DocumentStructure.fits`;
docs/design/documents.md).

Pure data and functions, standard library only; thread-safe.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

__all__ = ["Chapter", "DocumentStructure", "page_ranges", "paragraphs"]

_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_KEYS = frozenset({"pages", "page_count", "chapters", "recognised"})


def paragraphs(text: str) -> list[str]:
    """The text's paragraphs (blocks separated by a blank line), in order; the unit the structure counts."""
    return _PARAGRAPH_BREAK.split(text) if text else []


@dataclass(frozen=True, slots=True)
class Chapter:
    """A chapter or heading the document declares: its ``title``, the 0-based ``paragraph`` where it starts, and
    its ``level`` (1: top level)."""

    title: str
    paragraph: int
    level: int = 1


@dataclass(frozen=True, slots=True)
class DocumentStructure:
    """The provenance of a document's paragraphs.

    Attributes:
        paragraph_pages: For each paragraph, its first and last 1-based page (empty for formats without pages).
        page_count: The document's pages (``None`` without pages).
        chapters: The document's own chapters, in text order.
        recognised: The 1-based pages whose text was recognised from a picture (scans, screenshots), in order.
    """

    paragraph_pages: tuple[tuple[int, int], ...] = ()
    page_count: int | None = None
    chapters: tuple[Chapter, ...] = field(default_factory=tuple)
    recognised: tuple[int, ...] = ()

    def to_json(self) -> str:
        """The structure as compact JSON text (what :meth:`from_json` reads)."""
        data: dict[str, object] = {
            "pages": [list(p) for p in self.paragraph_pages],
            "page_count": self.page_count,
            "chapters": [[c.title, c.paragraph, c.level] for c in self.chapters],
        }
        if self.recognised:
            data["recognised"] = list(self.recognised)
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | None) -> DocumentStructure:
        """The structure stored as ``text``; an empty structure for ``None`` or unreadable text."""
        if not text:
            return cls()
        try:
            data = json.loads(text)
            pages = tuple((int(a), int(b)) for a, b in data.get("pages", []))
            chapters = tuple(Chapter(str(t), int(p), int(level)) for t, p, level in data.get("chapters", []))
            count = data.get("page_count")
            recognised = tuple(int(page) for page in data.get("recognised", []))
            return cls(pages, int(count) if count is not None else None, chapters, recognised)
        except (ValueError, TypeError, AttributeError):
            return cls()

    @classmethod
    def rewritten(cls, text: str | None) -> str:
        """``from_json(text).to_json()``: the structure ``text`` holds, written again by our own writer (what
        does not parse is dropped). Text already in :meth:`to_json`'s shape is checked by type and written again
        without building the dataclasses (a 2,415-page manual's 40,000 paragraphs: a few ms, not tens)."""
        try:
            data: Any = json.loads(text) if text else None
        except ValueError:
            data = None
        if data is not None and _in_shape(data):
            ordered = {key: data[key] for key in ("pages", "page_count", "chapters", "recognised") if key in data}
            return json.dumps(ordered, ensure_ascii=False, separators=(",", ":"))
        return cls.from_json(text).to_json()

    def fits(self, paragraph_count: int) -> bool:
        """Whether this structure describes a text of ``paragraph_count`` paragraphs."""
        if self.paragraph_pages and len(self.paragraph_pages) != paragraph_count:
            return False
        return all(0 <= c.paragraph < paragraph_count for c in self.chapters)

    def pages(self, first: int, last: int) -> set[int]:
        """The pages of paragraphs ``first`` to ``last`` (0-based, inclusive); empty without page data."""
        found: set[int] = set()
        for low, high in self.paragraph_pages[first : last + 1]:
            found.update(range(low, high + 1))
        return found


def _in_shape(data: Any) -> bool:
    """Whether ``data`` is what :meth:`DocumentStructure.to_json` writes: the three keys (and the recognised
    pages, ints, when there are some), pages as pairs of ints, the page count an int or ``None``, chapters as
    ``[title, paragraph, level]`` (bools are not ints)."""
    if type(data) is not dict or not {"pages", "page_count", "chapters"} <= data.keys() <= _KEYS:
        return False
    recognised = data.get("recognised", [])
    if type(recognised) is not list or not set(map(type, recognised)) <= {int}:
        return False
    pages, count, chapters = data["pages"], data["page_count"], data["chapters"]
    if type(pages) is not list or type(chapters) is not list or (count is not None and type(count) is not int):
        return False
    if not set(map(type, pages)) <= {list} or not set(map(len, pages)) <= {2}:
        return False
    if not set(map(type, chain.from_iterable(pages))) <= {int}:
        return False
    chapter_types = (str, int, int)
    return all(type(chapter) is list and tuple(map(type, chapter)) == chapter_types for chapter in chapters)


def page_ranges(pages: set[int] | list[int]) -> str:
    """Pages as ranges: ``{3, 4, 5, 9}`` → ``"3–5, 9"``."""
    ordered = sorted(set(pages))
    ranges: list[str] = []
    start = previous = ordered[0] if ordered else 0
    for page in ordered[1:]:
        if page != previous + 1:
            ranges.append(f"{start}–{previous}" if previous > start else str(start))
            start = page
        previous = page
    if ordered:
        ranges.append(f"{start}–{previous}" if previous > start else str(start))
    return ", ".join(ranges)

"""Headings of plain text and Markdown, found without a model: numbered headings and Markdown's own.

Pure functions; thread-safe. The rules: docs/design/readers.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.app.documents.structure import Chapter
from daemon.readers.cleanup import title_candidate

__all__ = ["MAX_HEADING_CHARS", "markdown_headings", "numbered_headings"]

MAX_HEADING_CHARS = 200
"""Longest paragraph taken as a heading (an FAQ's questions are headings too)."""

_CHAPTER_WORDS = (
    "capítulo|capitulo|chapter|chapitre|kapitel|parte|part|partie|teil|apêndice|apendice|appendix|anexo|annexe|"
    "seção|secção|secao|section|sección|lição|licao|lesson|unidade|unit|unidad|módulo|modulo|module"
)
_NUMBERED = re.compile(
    rf"^(?:(?P<word>{_CHAPTER_WORDS})\s+)?(?P<number>\d{{1,2}}(?:\.\d{{1,2}}){{0,3}})\.?(?:\s*[-–—:)]\s*|\s+)"
    r"(?P<title>[(\"“'«]?[^\W\d_].*)$",
    re.IGNORECASE | re.DOTALL,
)
_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$")
_SETEXT = re.compile(r"^ {0,3}(\S.*?)[ \t]*\n {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)", re.MULTILINE)
_MIN_HEADINGS = 2
_TOC_TEXT = 1
"""Paragraphs of text between entries below which a run of numbered headings is a table of contents."""


def _title(text: str) -> str | None:
    return title_candidate(" ".join(text.split()), max_length=MAX_HEADING_CHARS)


def _numbered(paragraph: str) -> tuple[tuple[int, ...], str] | None:
    """The number parts and title of a numbered heading paragraph, else ``None``."""
    stripped = paragraph.strip()
    if not stripped or len(stripped) > MAX_HEADING_CHARS or stripped.count("\n") > 2:
        return None
    found = _NUMBERED.match(stripped)
    if found is None:
        return None
    title = found.group("title")
    first = title.lstrip("(\"“'«")[:1]
    if not first.isupper():
        return None
    number = tuple(int(part) for part in found.group("number").split("."))
    if found.group("word"):
        number = number[:1]
    return number, title


def numbered_headings(paragraphs: Sequence[str]) -> list[Chapter]:
    """The numbered headings among ``paragraphs`` (see docs/design/readers.md), each at its 0-based paragraph;
    empty when fewer than two."""
    found: list[tuple[Chapter, tuple[int, ...]]] = []
    top = 0
    for index, paragraph in enumerate(paragraphs):
        parsed = _numbered(paragraph)
        if parsed is None:
            continue
        number, title = parsed
        name = _title(title)
        if name is None:
            continue
        if number[0] < top or (number[0] == top and len(number) == 1):
            if not _table_of_contents(found, index) or number[0] != 1:
                continue
            found, top = [], 0  # the entries so far were a table of contents: the body starts again at 1
        if len(number) > 1 and number[0] != top:
            continue  # "3.2" outside chapter 3
        top = number[0]
        found.append((Chapter(name, index, len(number)), number))
    chapters = [chapter for chapter, _number in found]
    return chapters if len(chapters) >= _MIN_HEADINGS else []


def _table_of_contents(found: Sequence[tuple[Chapter, tuple[int, ...]]], index: int) -> bool:
    """Whether the headings found so far sit so close together (and to paragraph ``index``) that they are a table
    of contents's entries rather than the body's headings."""
    if len(found) < _MIN_HEADINGS:
        return len(found) == 1 and index - found[0][0].paragraph <= _TOC_TEXT
    span = index - found[0][0].paragraph
    return span <= len(found) * _TOC_TEXT


def markdown_headings(paragraphs: Sequence[str]) -> list[Chapter]:
    """Markdown's ATX and underlined headings among ``paragraphs``, else its numbered headings; empty when fewer
    than two. Paragraphs inside a fenced code block are skipped."""
    chapters: list[Chapter] = []
    fenced = False
    for index, paragraph in enumerate(paragraphs):
        if fenced or _FENCE.match(paragraph):
            fenced ^= len(_FENCE.findall(paragraph)) % 2 == 1
            continue
        heading = _markdown_heading(paragraph)
        if heading is not None:
            chapters.append(Chapter(heading[1], index, heading[0]))
    if len(chapters) >= _MIN_HEADINGS:
        return chapters
    return numbered_headings(paragraphs)


def _markdown_heading(paragraph: str) -> tuple[int, str] | None:
    """``(level, title)`` of a paragraph that is one ATX or underlined heading, else ``None``."""
    text = paragraph.strip("\n")
    atx = _ATX.match(text.split("\n", 1)[0])  # text may follow its heading with no blank line
    if atx is not None:
        name = _title(atx.group(2))
        return (len(atx.group(1)), name) if name else None
    setext = _SETEXT.match(text)
    if setext is not None:
        name = _title(setext.group(1))
        return (1 if setext.group(2)[0] == "=" else 2, name) if name else None
    return None

"""Headings of a PDF without bookmarks, from the size and weight of its fonts.

:func:`font_lines` calls PDFium under its lock, page by page; :func:`font_headings` and :func:`place_headings` are
pure. Run only for a PDF without bookmarks. The rules: docs/design/readers.md.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]

from core.app.document_structure import Chapter
from daemon.readers.base import Progress
from daemon.readers.cleanup import title_candidate
from daemon.readers.pdf_text import page_lines

__all__ = ["MAX_HEADING_CHARS", "FontLine", "font_headings", "font_lines", "place_headings"]

MAX_HEADING_CHARS = 120
FontLine = tuple[str, float, bool]
"""A line's text, its usual font size (points, rounded to 0.1) and whether it is bold."""

_BOLD = 600
_LARGER_BOLD = 1.15
_LARGER = 1.3
_MAX_LEVELS = 3
_RUNNING_PAGES = 3
_NOT_ALNUM = re.compile(r"[\W_]+")
_DIGITS = re.compile(r"\d+")


def font_lines(
    document: Any, page_count: int, progress: Progress, lock: Callable[[Progress], AbstractContextManager[None]]
) -> list[list[FontLine]]:
    """Each page's lines with their font size and weight; ``lock(progress)`` is held for each page, and a stop
    request is honoured between pages (:class:`~daemon.readers.errors.ExtractionStopped`)."""
    pages: list[list[FontLine]] = []
    for index in range(page_count):
        progress.check()
        with lock(progress):
            pages.append(_page_font_lines(document, index))
    return pages


def _page_font_lines(document: Any, index: int) -> list[FontLine]:
    page = pdfium_c.FPDF_LoadPage(document.raw, index)
    if not page:
        return []
    try:
        textpage = pdfium_c.FPDFText_LoadPage(page)
        if not textpage:
            return []
        try:
            return _lines_of(textpage)
        finally:
            pdfium_c.FPDFText_ClosePage(textpage)
    finally:
        pdfium_c.FPDF_ClosePage(page)


def _lines_of(textpage: Any) -> list[FontLine]:
    lines: list[FontLine] = []
    chars: list[str] = []
    sizes: Counter[float] = Counter()
    bold = 0
    for char in range(max(pdfium_c.FPDFText_CountChars(textpage), 0)):
        code = pdfium_c.FPDFText_GetUnicode(textpage, char)
        if code in (10, 13):
            if sizes:
                lines.append(("".join(chars), sizes.most_common(1)[0][0], bold * 2 > sizes.total()))
            chars, sizes, bold = [], Counter(), 0
            continue
        chars.append(chr(code) if 0 < code < 0x110000 else "")
        if chr(code).isspace() or code < 32:
            continue
        sizes[round(pdfium_c.FPDFText_GetFontSize(textpage, char), 1)] += 1
        bold += pdfium_c.FPDFText_GetFontWeight(textpage, char) >= _BOLD
    if sizes:
        lines.append(("".join(chars), sizes.most_common(1)[0][0], bold * 2 > sizes.total()))
    return lines


def _key(text: str) -> str:
    return _NOT_ALNUM.sub("", text.casefold())


def font_headings(pages: Sequence[Sequence[FontLine]]) -> list[tuple[str, int, int]]:
    """The headings as ``(title, 1-based page, level)``, in page order (see docs/design/readers.md)."""
    body: Counter[float] = Counter()
    running: Counter[str] = Counter()
    for lines in pages:
        for text, size, _bold in lines:
            body[size] += len(text.strip())
        running.update({_DIGITS.sub("", _key(text)) for text, _size, _bold in lines})
    if not body:
        return []
    base = body.most_common(1)[0][0]
    found: list[tuple[str, int, float]] = []
    for number, lines in enumerate(pages, start=1):
        previous: tuple[int, float] | None = None
        for text, size, bold in lines:
            if not _is_heading(text, size, bold, base) or running[_DIGITS.sub("", _key(text))] >= _RUNNING_PAGES:
                previous = None
                continue
            if previous == (number, size) and found:
                title, page, _size = found[-1]
                found[-1] = (f"{title} {text.strip()}", page, size)
            else:
                found.append((text.strip(), number, size))
            previous = (number, size)
    return _leveled(found)


def _leveled(found: Sequence[tuple[str, int, float]]) -> list[tuple[str, int, int]]:
    """Headings with their levels: a size used by one heading only counts when it is on the first page (the
    document's title); the other sizes, largest first, are levels 1 to :data:`_MAX_LEVELS`."""
    titled: list[tuple[str, int, float]] = []
    for text, page, size in found:
        title = title_candidate(" ".join(page_lines(text)), max_length=MAX_HEADING_CHARS * 2)
        if title is not None and (title[0].isalnum() or title[0] in "(\"“«'"):
            titled.append((title, page, size))
    uses = Counter(size for _t, _p, size in titled)
    kept = [(t, p, s) for t, p, s in titled if uses[s] > 1 or p == 1]
    sizes = sorted({s for _t, _p, s in kept}, reverse=True)[:_MAX_LEVELS]
    levels = {size: level for level, size in enumerate(sizes, start=1)}
    return [(title, page, levels[size]) for title, page, size in kept if size in levels]


def _is_heading(text: str, size: float, bold: bool, base: float) -> bool:
    stripped = text.strip()
    if not stripped or len(stripped) > MAX_HEADING_CHARS or not any(char.isalpha() for char in stripped):
        return False
    if stripped.endswith((",", ";")):
        return False
    return size >= base * _LARGER or (bold and size >= base * _LARGER_BOLD)


def place_headings(
    headings: Sequence[tuple[str, int, int]], paragraphs: list[str], spans: list[tuple[int, int]]
) -> list[Chapter]:
    """Each heading at the first paragraph on its page that starts with its text, in order; a heading the
    paragraphs glued to the end of the one before is cut off it into a paragraph of its own (``paragraphs`` and
    ``spans`` are changed in place). Empty when fewer than two are placed."""
    chapters: list[Chapter] = []
    start = 0
    for title, page, level in headings:
        wanted = _key(title)
        for index in range(start, len(paragraphs)):
            first, last = spans[index]
            if first > page:
                break
            if last < page or not wanted:
                continue
            key = _key(paragraphs[index])
            if key.startswith(wanted[:40]):
                at = index
            elif key.endswith(wanted):
                at = _cut_heading(paragraphs, spans, index, len(wanted))
            else:
                continue
            chapters.append(Chapter(title, at, level))
            start = at + 1
            break
    return chapters if len(chapters) >= 2 else []


def _cut_heading(paragraphs: list[str], spans: list[tuple[int, int]], index: int, length: int) -> int:
    """Cut the last ``length`` letters and digits (with what lies between them) off paragraph ``index`` into a
    paragraph of their own after it; returns the heading's paragraph."""
    text = paragraphs[index]
    counted = 0
    cut = len(text)
    while cut > 0 and counted < length:
        cut -= 1
        counted += len(_key(text[cut]))
    body, heading = text[:cut].rstrip(), text[cut:].strip()
    if not body:
        return index
    paragraphs[index : index + 1] = [body, heading]
    spans[index : index + 1] = [spans[index], (spans[index][1], spans[index][1])]
    return index + 1

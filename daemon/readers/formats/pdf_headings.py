"""Headings of a PDF without bookmarks, from the size and weight of its fonts.

:func:`page_font_lines` and :func:`font_lines` call PDFium under its lock; :func:`font_headings` and
:func:`place_headings` are pure. Run only for a PDF without bookmarks. The rules: docs/design/readers.md.
"""

from __future__ import annotations

import codecs
import ctypes
import re
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]

from core.app.documents.structure import Chapter
from daemon.readers.base import Progress
from daemon.readers.cleanup import title_candidate
from daemon.readers.formats.pdf_text import page_lines

__all__ = ["MAX_HEADING_CHARS", "FontLine", "font_headings", "font_lines", "page_font_lines", "place_headings"]

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
_LINE_BREAKS = re.compile(r"[\r\n]")
_SAMPLES = 12


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
            return page_font_lines(textpage)
        finally:
            pdfium_c.FPDFText_ClosePage(textpage)
    finally:
        pdfium_c.FPDF_ClosePage(page)


def page_font_lines(textpage: Any) -> list[FontLine]:
    """The lines of a PDFium text page (the lock held by the caller) with their font size and weight, each from
    at most :data:`_SAMPLES` of its characters spread over the line: four PDFium calls for each character made
    the fonts cost five times the page's text (camlidl's manual: 17 ms a page against 3 ms)."""
    count = max(pdfium_c.FPDFText_CountChars(textpage), 0)
    text = _all_chars(textpage, count)
    lines: list[FontLine] = []
    start = 0
    for match in _LINE_BREAKS.finditer(text + "\n"):
        end = match.start()
        marks = [at for at in range(start, end) if not text[at].isspace() and text[at] >= " "]
        if marks:
            lines.append((text[start:end], *_line_font(textpage, marks)))
        start = match.end()
    return lines


def _all_chars(textpage: Any, count: int) -> str:
    """The page's characters, one per PDFium character index (a code PDFium has no character for is empty)."""
    buffer = (ctypes.c_ushort * (count + 1))()
    written = pdfium_c.FPDFText_GetText(textpage, 0, count, buffer) if count else 0
    text = codecs.decode(memoryview(buffer)[: max(written - 1, 0)], "utf-16-le", "replace")
    if len(text) == count:
        return text
    codes = (pdfium_c.FPDFText_GetUnicode(textpage, char) for char in range(count))  # a character past U+FFFF
    return "".join(chr(code) if 0 < code < 0xD800 or 0xDFFF < code < 0x110000 else "\ufffd" for code in codes)


def _line_font(textpage: Any, marks: list[int]) -> tuple[float, bool]:
    """A line's usual font size and whether most of it is bold, from up to :data:`_SAMPLES` of its printed
    characters (``marks``, PDFium character indices) spread evenly over it."""
    if len(marks) > _SAMPLES:
        step = len(marks) / _SAMPLES
        marks = [marks[int(n * step)] for n in range(_SAMPLES)]
    sizes = Counter(round(pdfium_c.FPDFText_GetFontSize(textpage, char), 1) for char in marks)
    bold = sum(pdfium_c.FPDFText_GetFontWeight(textpage, char) >= _BOLD for char in marks)
    return sizes.most_common(1)[0][0], bold * 2 > len(marks)


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
    paragraphs glued to the end of the one before is cut off it into a paragraph of its own, and one glued between
    two paragraphs (found as written, between spaces) splits them apart (``paragraphs`` and ``spans`` are changed
    in place). Empty when fewer than two are placed."""
    chapters: list[Chapter] = []
    start = 0
    for title, page, level in headings:
        at = _place(title, page, paragraphs, spans, start)
        if at is not None:
            chapters.append(Chapter(title, at, level))
            start = at + 1
    return chapters if len(chapters) >= 2 else []


def _place(title: str, page: int, paragraphs: list[str], spans: list[tuple[int, int]], start: int) -> int | None:
    """The paragraph of heading ``title`` on ``page``, from paragraph ``start`` on: one that starts with it, else
    one that ends with it (cut off), else one that holds it inside (split into three); ``None`` when none does."""
    wanted = _key(title)
    if not wanted:
        return None
    on_page = _page_paragraphs(spans, page, start)
    for index in on_page:
        key = _key(paragraphs[index])
        if key.startswith(wanted[:40]):
            return index
        if key.endswith(wanted):
            return _cut_heading(paragraphs, spans, index, len(wanted))
    for index in on_page:
        inside = _inside(paragraphs[index], title)
        if inside is not None:
            return _split_around(paragraphs, spans, index, inside, len(title), page)
    return None


def _page_paragraphs(spans: list[tuple[int, int]], page: int, start: int) -> list[int]:
    """The paragraphs from ``start`` on that lie on ``page`` (wholly or in part)."""
    found: list[int] = []
    for index in range(start, len(spans)):
        first, last = spans[index]
        if first > page:
            break
        if last >= page:
            found.append(index)
    return found


def _inside(text: str, title: str) -> int | None:
    """Where ``title`` stands inside ``text`` as written, with a space before and after it (so not within a word,
    a command's braces or the paragraph's start or end)."""
    at = text.find(f" {title} ")
    return None if at < 0 else at + 1


def _split_around(
    paragraphs: list[str], spans: list[tuple[int, int]], index: int, at: int, length: int, page: int
) -> int:
    """Split paragraph ``index`` into the text before ``at``, the heading (``length`` characters from ``at``) and
    the text after it, the heading and what follows on ``page``; returns the heading's paragraph."""
    text = paragraphs[index]
    first, last = spans[index]
    before, heading, after = text[:at].rstrip(), text[at : at + length], text[at + length :].lstrip()
    paragraphs[index : index + 1] = [before, heading, after]
    spans[index : index + 1] = [(first, page), (page, page), (page, last)]
    return index + 1


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

"""From PDFium's page text to paragraphs: pure text work, no PDFium calls (so it runs outside the PDFium lock).

Pure functions, thread-safe. What is joined, dropped and rebuilt: docs/design/readers.md.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence

from daemon.readers.cleanup import collapse_spaces, compose_spacing_accents, remove_invisibles, to_nfc

__all__ = ["enough_words", "page_lines", "pages_to_paragraphs", "pages_to_text"]

_SOFT_BREAK = re.compile("[\x02\ufffe\u00ad](?:\r?\n)?")
_ROMAN = r"(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})"
_PAGE_NUMBER = re.compile(
    rf"(?:(?:page|página|pág\.|p\.)\s*)?(?:\d{{1,6}}|{_ROMAN})(?:\s*(?:/|of|de)\s*\d{{1,6}})?|[-–—]\s*\d{{1,6}}\s*[-–—]",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d+")
_BULLET_CHARS = frozenset("•▪◦●○■□‣⁃∙·*–—-")
_BULLET = re.compile(r"(?:[•▪◦●○■□‣⁃∙·*–—-]\s|\(?(?:\d{1,3}|[a-zA-Z])[.)]\s)")
_LEADER = re.compile(r"(?:\s?\.){4,}\s*")
_TOC_ENTRY = re.compile(r" … \w{1,6}$")
_ENDS_SENTENCE = (".", "!", "?", ":", ";", "…", '"', "”", "’", ")", "]")
_SHORT = 0.75
_MIN_REPEATS = 3
_WORD = re.compile(r"[^\W\d_]{2,}")


def page_lines(raw: str) -> list[str]:
    """One page's text from PDFium as clean, stripped, non-empty lines."""
    if "\ufffe" in raw or "\x02" in raw or "\xad" in raw:
        raw = _SOFT_BREAK.sub("", raw)
    text = remove_invisibles(raw.replace("\r\n", "\n").replace("\r", " "))
    if ". . . ." in text or "....." in text:
        text = _LEADER.sub(" … ", text)  # table-of-contents dot leaders
    text = to_nfc(compose_spacing_accents(collapse_spaces(text)))
    return [stripped for line in text.split("\n") if (stripped := line.strip())]


def _key(line: str) -> str:
    return _DIGITS.sub("#", line.lower())


def _running_lines(pages: Sequence[list[str]]) -> set[str]:
    """Keys of the lines near the top or bottom of a page (two at each end) that repeat on enough pages to be
    running headers or footers."""
    if len(pages) < _MIN_REPEATS + 1:
        return set()
    counts: Counter[str] = Counter()
    for lines in pages:
        counts.update({_key(line) for line in (*lines[:2], *lines[-2:])})
    return {key for key, count in counts.items() if count >= _MIN_REPEATS}


def _trim(lines: list[str], running: set[str]) -> list[str]:
    """``lines`` without its running header/footer and page-number lines."""
    start, end = 0, len(lines)
    while start < end and (_PAGE_NUMBER.fullmatch(lines[start]) or _key(lines[start]) in running):
        start += 1
        if start >= 2:
            break
    while end > start and (_PAGE_NUMBER.fullmatch(lines[end - 1]) or _key(lines[end - 1]) in running):
        end -= 1
        if len(lines) - end >= 2:
            break
    return lines[start:end]


def _join(left: str, right: str) -> str:
    """Join two lines of one paragraph, undoing a hyphenated line break between lower-case letters."""
    if _hyphenated(left, right):
        return left[:-1] + right
    return f"{left} {right}"


def _hyphenated(left: str, right: str) -> bool:
    return len(left) > 1 and left[-1] == "-" and left[-2].islower() and right[:1].islower()


def _starts_item(line: str) -> bool:
    """Whether a line starts a bulleted or numbered item (cheap checks before the regular expression)."""
    first = line[0]
    if first in _BULLET_CHARS:
        return line[1:2] in (" ", "\t")
    if first.isdigit() or first == "(" or (first.isalpha() and line[1:2] in (".", ")")):
        return _BULLET.match(line) is not None
    return False


def _paragraphs(lines: list[str]) -> tuple[list[str], bool]:
    """Paragraphs of one page, and whether the last one is left open (may continue on the next page)."""
    if not lines:
        return [], False
    if len(lines) >= 3:
        lengths = sorted(map(len, lines))
        short = lengths[(len(lengths) * 4) // 5] * _SHORT
    else:
        short = max(map(len, lines)) * _SHORT
    paragraphs: list[str] = []
    parts = [lines[0]]
    previous = lines[0]
    for line in itertools.islice(lines, 1, None):
        first = line[0]
        if (
            (len(previous) < short and not (first.islower() and not previous.endswith(_ENDS_SENTENCE)))
            or _starts_item(line)
            or ("…" in previous and _TOC_ENTRY.search(previous))
        ):
            paragraphs.append(" ".join(parts))
            parts = [line]
        elif previous[-1] == "-" and _hyphenated(previous, line):
            parts[-1] = parts[-1][:-1] + line
        else:
            parts.append(line)
        previous = line
    paragraphs.append(" ".join(parts))
    open_end = len(previous) >= short and not previous.endswith(_ENDS_SENTENCE)
    return paragraphs, open_end


def pages_to_text(pages: Sequence[list[str]]) -> str:
    """The document's clean text from each page's lines (see :func:`page_lines`), paragraphs separated by a
    blank line."""
    return "\n\n".join(pages_to_paragraphs(pages)[0])  # lines are clean (NFC, single spaces) and stripped already


def pages_to_paragraphs(pages: Sequence[list[str]]) -> tuple[list[str], list[tuple[int, int]]]:
    """The document's paragraphs (see :func:`pages_to_text`) and, for each, its first and last 1-based page."""
    running = _running_lines(pages)
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    open_end = False
    for number, lines in enumerate(pages, start=1):
        paragraphs, page_open = _paragraphs(_trim(lines, running))
        if not paragraphs:
            continue
        if open_end and out and paragraphs[0][:1].islower():
            out[-1] = _join(out[-1], paragraphs[0])
            spans[-1] = (spans[-1][0], number)
            paragraphs = paragraphs[1:]
        out.extend(paragraphs)
        spans.extend((number, number) for _ in paragraphs)
        open_end = page_open
    return out, spans


def enough_words(text: str, minimum: int) -> bool:
    """Whether ``text`` has at least ``minimum`` words of two or more letters (stops counting there)."""
    if minimum <= 0:
        return True
    return next(itertools.islice(_WORD.finditer(text), minimum - 1, None), None) is not None

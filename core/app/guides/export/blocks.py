"""A study guide's Markdown as blocks with inline styles (:func:`parse_blocks`, :func:`parse_inline`), for the
exporters that cannot take Markdown as it is; text it does not understand stays plain, never dropped
(the subset read: docs/design/documents.md).

Pure functions, standard library only, safe on any thread.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Block", "Span", "parse_blocks", "parse_inline", "plain_text"]

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
_BULLET = re.compile(r"^([ \t]*)[-*+][ \t]+(.*)$")
_NUMBERED = re.compile(r"^([ \t]*)(\d{1,9})[.)][ \t]+(.*)$")
_RULE = re.compile(r"^ {0,3}([-*_])([ \t]*\1){2,}[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_TABLE_SEPARATOR = re.compile(r"^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$")
_INLINE = re.compile(
    r"(?P<code>`[^`]+`)"
    r"|(?P<link>\[(?P<link_text>[^\]]+)\]\([^)\s]*\))"
    r"|(?P<bold>\*\*(?=\S)(?P<bold_text>.+?)(?<=\S)\*\*|__(?=\S)(?P<bold_text2>.+?)(?<=\S)__)"
    r"|(?P<italic>\*(?=[^\s*])(?P<italic_text>.+?)(?<=[^\s*])\*|(?<!\w)_(?=\S)(?P<italic_text2>.+?)(?<=\S)_(?!\w))"
)


@dataclass(frozen=True, slots=True)
class Span:
    """A run of text with one style."""

    text: str
    bold: bool = False
    italic: bool = False
    code: bool = False


@dataclass(frozen=True, slots=True)
class Block:
    """One block of the guide.

    Attributes:
        kind: ``heading``, ``paragraph``, ``bullet``, ``numbered``, ``quote``, ``table``, ``code`` or ``rule``.
        text: The block's Markdown text (inline marks kept; a list item's text without its marker). The lines of
            a paragraph, a list item, a quote or code are joined by newlines (in a paragraph they read as spaces).
        level: A heading's level (1–6); a list item's depth (0 at the margin); else 0.
        number: A numbered item's number (0 for other blocks).
        rows: A table's cells, header row first (empty for other blocks).
    """

    kind: str
    text: str = ""
    level: int = 0
    number: int = 0
    rows: tuple[tuple[str, ...], ...] = field(default_factory=tuple)


def parse_inline(text: str) -> list[Span]:
    """``text`` as styled runs; nested marks (bold inside italic) are read one level deep."""
    spans: list[Span] = []
    position = 0
    for match in _INLINE.finditer(text):
        if match.start() > position:
            spans.append(Span(text[position : match.start()]))
        if match.group("code"):
            spans.append(Span(match.group("code")[1:-1], code=True))
        elif match.group("link"):
            spans.extend(parse_inline(match.group("link_text")))
        elif match.group("bold"):
            inner = match.group("bold_text") or match.group("bold_text2") or ""
            spans.extend(Span(s.text, bold=True, italic=s.italic, code=s.code) for s in parse_inline(inner))
        else:
            inner = match.group("italic_text") or match.group("italic_text2") or ""
            spans.extend(Span(s.text, bold=s.bold, italic=True, code=s.code) for s in parse_inline(inner))
        position = match.end()
    if position < len(text):
        spans.append(Span(text[position:]))
    return [s for s in spans if s.text]


def plain_text(text: str) -> str:
    """``text`` without its inline marks."""
    return "".join(span.text for span in parse_inline(text)).strip()


def _depth(indent: str) -> int:
    return len(indent.replace("\t", "    ")) // 2


def _table_cells(line: str) -> tuple[str, ...]:
    stripped = line.strip()
    stripped = stripped.removeprefix("|").removesuffix("|")
    return tuple(cell.strip() for cell in stripped.split("|"))


def _is_table_start(lines: list[str], index: int) -> bool:
    return (
        "|" in lines[index]
        and index + 1 < len(lines)
        and bool(_TABLE_SEPARATOR.match(lines[index + 1]))
        and "|" in lines[index + 1]
    )


def _starts_block(lines: list[str], index: int) -> bool:
    line = lines[index]
    return bool(
        not line.strip()
        or _HEADING.match(line)
        or _BULLET.match(line)
        or _NUMBERED.match(line)
        or _RULE.match(line)
        or _FENCE.match(line)
        or line.lstrip().startswith(">")
        or _is_table_start(lines, index)
    )


def _continuation(lines: list[str], index: int) -> tuple[list[str], int]:
    """The lines after ``index`` that continue a paragraph or list item, and the index after them."""
    taken: list[str] = []
    index += 1
    while index < len(lines) and not _starts_block(lines, index):
        taken.append(lines[index].strip())
        index += 1
    return taken, index


def _joined(first: str, more: list[str]) -> str:
    return "\n".join(part for part in [first.strip(), *more] if part)


def parse_blocks(markdown: str) -> list[Block]:
    """The blocks of ``markdown`` in order (blank lines only separate them)."""
    lines = markdown.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line.strip():
            index += 1
        elif fence := _FENCE.match(line):
            end = index + 1
            while end < len(lines) and not lines[end].lstrip().startswith(fence.group(1)):
                end += 1
            blocks.append(Block("code", "\n".join(lines[index + 1 : end])))
            index = end + 1
        elif heading := _HEADING.match(line):
            blocks.append(Block("heading", heading.group(2), level=len(heading.group(1))))
            index += 1
        elif _RULE.match(line):
            blocks.append(Block("rule"))
            index += 1
        elif _is_table_start(lines, index):
            rows = [_table_cells(line)]
            index += 2
            while index < len(lines) and lines[index].strip() and "|" in lines[index]:
                rows.append(_table_cells(lines[index]))
                index += 1
            blocks.append(Block("table", rows=tuple(rows)))
        elif line.lstrip().startswith(">"):
            quoted: list[str] = []
            while index < len(lines) and lines[index].lstrip().startswith(">"):
                quoted.append(lines[index].lstrip()[1:].strip())
                index += 1
            blocks.append(Block("quote", "\n".join(q for q in quoted if q)))
        elif bullet := _BULLET.match(line):
            more, index = _continuation(lines, index)
            blocks.append(Block("bullet", _joined(bullet.group(2), more), level=_depth(bullet.group(1))))
        elif numbered := _NUMBERED.match(line):
            more, index = _continuation(lines, index)
            text = _joined(numbered.group(3), more)
            blocks.append(Block("numbered", text, level=_depth(numbered.group(1)), number=int(numbered.group(2))))
        else:
            more, index = _continuation(lines, index)
            blocks.append(Block("paragraph", _joined(line, more)))
    return blocks

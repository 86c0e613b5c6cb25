"""Plain text and Markdown: encoding detection, then the text as it is (cleaned), paragraph by paragraph.

Synchronous, thread-safe (no shared state). Encodings and headings: docs/design/readers.md.
"""

from __future__ import annotations

import codecs
import re

from core.app.documents.structure import Chapter, DocumentStructure
from core.app.documents.structure import paragraphs as split_paragraphs
from daemon.readers.base import Progress, ReaderOutput
from daemon.readers.cleanup import clean_text, has_words, join_paragraphs, normalize_newlines, title_candidate
from daemon.readers.errors import ExtractionError
from daemon.readers.formats.text_headings import markdown_headings, numbered_headings
from daemon.readers.sniff import text_encoding_bom, utf16_without_bom

__all__ = ["decode_text", "markdown_title", "read_markdown", "read_text", "text_title"]

_NON_LATIN = re.compile("[\u0370-\U0010ffff]")
_ALONE = re.compile("(?<=[A-Za-z])([\u0370-\U0010ffff])(?=[A-Za-z])")
_C1_CONTROLS = re.compile("[\x80-\x9f]")
_WINDOWS_1252_LABELS = frozenset({
    "ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100", "iso8859-1",
    "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1", "latin-1", "us-ascii", "windows-1252", "x-cp1252",
})  # fmt: skip
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")
_ATX = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
_SETEXT = re.compile(r"^ {0,3}(\S.*?)[ \t]*\n {0,3}(?:=+|-+)[ \t]*$", re.MULTILINE)


def decode_text(data: bytes, declared: str | None = None) -> tuple[str, str]:
    """``(text, codec)`` for bytes of text in an unknown encoding.

    Args:
        data: The file's bytes.
        declared: An encoding the document declares (an HTML ``<meta charset>``, an XML declaration); used when
            there is no BOM and the bytes are not valid UTF-8, if Python knows it and it fits the bytes. Labels
            are read as browsers read them (``iso-8859-1`` and ``ascii`` mean Windows-1252; a UTF-16 or UTF-32
            label on bytes without NULs is wrong and ignored), and a declared codec whose text would hold C1
            control characters, or letters of another script scattered one by one inside Latin words (a
            Portuguese page read as Shift JIS or Windows-1251), gives way to Windows-1252.
    """
    bom = text_encoding_bom(data)
    if bom is not None:
        codec, length = bom
        return data[length:].decode(codec.removesuffix("-sig"), errors="replace"), codec
    wide = utf16_without_bom(data)
    if wide is not None:
        return data.decode(wide, errors="replace"), wide
    # Valid UTF-8 with non-ASCII bytes is practically never a legacy encoding, so it wins over a declaration
    # (pages saved as UTF-8 that still say ISO-8859-1 are common).
    label = _browser_label(declared)
    candidates = [label] if label and _known_codec(label) else []
    for codec in ["utf-8", *candidates, "cp1252"]:
        try:
            text = data.decode(codec)
        except (UnicodeDecodeError, LookupError):
            continue
        if codec not in ("utf-8", "cp1252") and (_C1_CONTROLS.search(text) or _letters_out_of_place(text)):
            continue  # the declaration does not fit the bytes
        return text, codec
    return data.decode("latin-1"), "latin-1"


def _letters_out_of_place(text: str) -> bool:
    """Whether most letters beyond the Latin script stand alone between Latin letters (``Evapora藻o``): the
    sign of 8-bit Latin text decoded with another script's code page. Real text in those scripts keeps its
    letters together."""
    foreign = sum(1 for char in _NON_LATIN.findall(text) if char.isalpha())
    if not foreign:
        return False
    alone = sum(1 for char in _ALONE.findall(text) if char.isalpha())
    return alone * 2 > foreign


def _browser_label(declared: str | None) -> str | None:
    """The codec a browser uses for a declared label (WHATWG Encoding): Windows-1252 for the Latin-1 and ASCII
    labels, none for UTF-16/UTF-32 (which an ASCII-compatible declaration cannot truly be)."""
    if not declared:
        return None
    label = declared.strip().lower()
    if label in _WINDOWS_1252_LABELS:
        return "cp1252"
    if label.replace("-", "").replace("_", "").startswith(("utf16", "utf32", "ucs2", "ucs4", "unicode")):
        return None
    return label


def _known_codec(name: str) -> bool:
    try:
        codecs.lookup(name)
    except LookupError:
        return False
    return True


def _read(data: bytes, progress: Progress, fmt: str) -> tuple[list[str], str]:
    raw, _ = decode_text(data)
    raw = normalize_newlines(raw)
    chunks = _PARAGRAPH_BREAK.split(raw)
    progress.start(len(chunks))
    paragraphs: list[str] = []
    for chunk in chunks:
        paragraphs.append(clean_text(chunk))
        progress.advance()
    text = join_paragraphs(paragraphs)
    if not has_words(text):
        raise ExtractionError("no_text", format=fmt, detail="no words in the decoded text")
    return paragraphs, text


def text_title(text: str) -> str | None:
    """A plain text's title: its first line when short and followed by a blank line, else ``None``."""
    first, sep, _ = text.partition("\n\n")
    if not sep or "\n" in first or len(first) > 100 or first.rstrip().endswith((".", ",", ";", ":")):
        return None
    return title_candidate(first)


def markdown_title(text: str) -> str | None:
    """A Markdown document's first heading (``# Title`` or an underlined one), else ``None``."""
    found = [m for m in (_ATX.search(text), _SETEXT.search(text)) if m is not None]
    if not found:
        return None
    first = min(found, key=lambda m: m.start())
    return title_candidate(first.group(1))


def read_text(data: bytes, progress: Progress) -> ReaderOutput:
    """Read a plain text file. Raises :class:`ExtractionError` ``no_text`` when it holds no words."""
    _, text = _read(data, progress, "text")
    chapters = numbered_headings(split_paragraphs(text))
    return ReaderOutput(text=text, format="text", title=text_title(text), structure=_structure(chapters))


def read_markdown(data: bytes, progress: Progress) -> ReaderOutput:
    """Read a Markdown file (kept as Markdown). Raises :class:`ExtractionError` ``no_text`` when it holds no words."""
    _, text = _read(data, progress, "markdown")
    chapters = markdown_headings(split_paragraphs(text))
    return ReaderOutput(text=text, format="markdown", title=markdown_title(text), structure=_structure(chapters))


def _structure(chapters: list[Chapter]) -> str | None:
    """The headings as the document's chapters (JSON), or ``None`` without any."""
    return DocumentStructure(chapters=tuple(chapters)).to_json() if chapters else None

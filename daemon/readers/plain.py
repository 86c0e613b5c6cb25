"""Plain text and Markdown: encoding detection, then the text as it is (cleaned), paragraph by paragraph.

Encodings, in order: a BOM (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE); UTF-16 without a BOM (every other byte NUL);
UTF-8; Windows-1252; Latin-1 (which decodes anything). Markdown is kept as Markdown (its ``#`` headings help the
outline); its first heading is the title. The progress counter is paragraphs. Synchronous, thread-safe (no shared
state).
"""

from __future__ import annotations

import codecs
import re

from daemon.readers.base import Progress, ReaderOutput
from daemon.readers.cleanup import clean_text, has_words, join_paragraphs, normalize_newlines, title_candidate
from daemon.readers.errors import ExtractionError
from daemon.readers.sniff import text_encoding_bom, utf16_without_bom

__all__ = ["decode_text", "markdown_title", "read_markdown", "read_text", "text_title"]

_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")
_ATX = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
_SETEXT = re.compile(r"^ {0,3}(\S.*?)[ \t]*\n {0,3}(?:=+|-+)[ \t]*$", re.MULTILINE)


def decode_text(data: bytes, declared: str | None = None) -> tuple[str, str]:
    """``(text, codec)`` for bytes of text in an unknown encoding.

    Args:
        data: The file's bytes.
        declared: An encoding the document declares (an HTML ``<meta charset>``); used when there is no BOM and
            the bytes are not valid UTF-8, if Python knows it.
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
    candidates = [declared] if declared and _known_codec(declared) else []
    for codec in ["utf-8", *candidates, "cp1252"]:
        try:
            return data.decode(codec), codec
        except (UnicodeDecodeError, LookupError):
            continue
    return data.decode("latin-1"), "latin-1"


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
    return ReaderOutput(text=text, format="text", title=text_title(text))


def read_markdown(data: bytes, progress: Progress) -> ReaderOutput:
    """Read a Markdown file (kept as Markdown). Raises :class:`ExtractionError` ``no_text`` when it holds no words."""
    _, text = _read(data, progress, "markdown")
    return ReaderOutput(text=text, format="markdown", title=markdown_title(text))

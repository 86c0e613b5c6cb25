"""Text normalisation shared by every reader: one shape of clean text whatever the format.

Pure functions, thread-safe. The shape of clean text: docs/design/readers.md.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

__all__ = [
    "clean_text",
    "collapse_spaces",
    "compose_spacing_accents",
    "has_words",
    "join_paragraphs",
    "normalize_newlines",
    "remove_invisibles",
    "title_candidate",
    "to_nfc",
]

_LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
}
_SPACE_CHARACTERS = frozenset(
    "\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
)
# C0/C1 controls but \t and \n, the BOM, zero-width characters, the soft hyphen, the non-characters PDF text
# layers use as markers (U+FFFE, U+FFFF) and the object replacement character, all dropped; the Unicode spaces,
# which become plain spaces; and the ligatures, spelled out. One character class, so the text is scanned once.
_ODD_CHARACTERS = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u200b-\u200d\u2060\ufeff\ufffe\uffff\ufffc"
    "\u00a0\u2000-\u200a\u202f\u205f\u3000\ufb00-\ufb06]"
)
_MULTISPACE = re.compile(" {2,}")
# The spacing accents of TeX's OT1 fonts, as PDFium gives them, and the combining mark each one stands for. The
# acute also serves as a typed apostrophe ("it´s"), so it only composes with a vowel.
_SPACING_ACCENTS = {
    "\u00b4": "\u0301",  # ´ acute
    "\u02dc": "\u0303",  # ˜ tilde
    "\u00b8": "\u0327",  # ¸ cedilla
    "\u02c6": "\u0302",  # ˆ circumflex
    "\u00a8": "\u0308",  # ¨ diaeresis
    "\u02c7": "\u030c",  # ˇ caron
    "\u02d8": "\u0306",  # ˘ breve
    "\u02cb": "\u0300",  # ˋ grave
}
_ACCENT_BEFORE_LETTER = re.compile("([\u00b4\u02dc\u00b8\u02c6\u00a8\u02c7\u02d8\u02cb])([A-Za-z\u0131])")
_GRAVE_BACKTICK = re.compile(r"(?:(?<=\s)|^)`([aA])", re.MULTILINE)
_VOWELS = frozenset("aeiouyAEIOUY\u0131")
# Texts are checked for NFC in pieces of about this many characters, cut after a line break.
_NFC_PIECE = 4096
_TRAILING = re.compile(r"[ \t]+\n")
_BLANK_RUNS = re.compile(r"\n[ \t]*(?:\n[ \t]*)+")
_WORD = re.compile(r"[^\W\d_]{2,}")


def normalize_newlines(text: str) -> str:
    """``\\r\\n`` and lone ``\\r`` (and the Unicode line/paragraph separators) become ``\\n``."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\u2028" in text or "\u2029" in text or "\x85" in text:
        text = text.replace("\u2028", "\n").replace("\u2029", "\n\n").replace("\x85", "\n")
    return text


def _replacement(match: re.Match[str]) -> str:
    character = match.group()
    if character in _SPACE_CHARACTERS:
        return " "
    return _LIGATURES.get(character, "")


def remove_invisibles(text: str) -> str:
    """Drop control, zero-width and soft-hyphen characters (keeps ``\\n`` and ``\\t``), turn Unicode spaces
    (no-break, thin …) into plain spaces, spell out ligatures."""
    return _ODD_CHARACTERS.sub(_replacement, text)


def _composed(match: re.Match[str]) -> str:
    accent, letter = match.groups()
    if accent == "\u00b4" and letter not in _VOWELS:
        return match.group()
    base = "i" if letter == "\u0131" else letter  # TeX sets í on a dotless i
    composed = unicodedata.normalize("NFC", base + _SPACING_ACCENTS[accent])
    return composed if len(composed) == 1 else match.group()


def compose_spacing_accents(text: str) -> str:
    """``text`` with each spacing accent that stands right before a Latin letter (``´e``, ``˜a``, ``¸c``, ``ˆe``,
    ``¨u``, ``´ı``: how PDFium reads accents that TeX's OT1 fonts draw as glyphs of their own) composed with it
    into one character (``é``, ``ã``, ``ç``, ``ê``, ``ü``, ``í``), when Unicode has one. A text with such accents
    also has its grave as a backtick before an ``a`` that starts a word (```a`` → ``à``, the Portuguese crase).
    Anything else is left as it is; the same object is returned when nothing changes."""
    if not any(accent in text for accent in _SPACING_ACCENTS):
        return text
    composed = _ACCENT_BEFORE_LETTER.sub(_composed, text)
    if composed == text:
        return text
    if "`" in composed:
        composed = _GRAVE_BACKTICK.sub(lambda m: unicodedata.normalize("NFC", m.group(1) + "\u0300"), composed)
    return composed


def to_nfc(text: str) -> str:
    """``text`` in Unicode NFC (composed accents), cheaply when it is already (the same object is returned).

    The text is checked in pieces of a few thousand characters cut after line breaks, with the Unicode quick check
    (:func:`unicodedata.is_normalized`, about 2 ns a character), and only the pieces that fail are normalized: a
    line break is a starter that composes with nothing, so normalization never reaches across one. Checking a whole
    book at once would not do: one combining mark anywhere makes the quick check answer "maybe", and
    :func:`unicodedata.is_normalized` then normalizes the whole text to compare.
    """
    if text.isascii():
        return text
    parts: list[str] = []
    changed = False
    start = 0
    while start < len(text):
        end = text.find("\n", start + _NFC_PIECE) + 1 or len(text)
        piece = text[start:end]
        if not (piece.isascii() or unicodedata.is_normalized("NFC", piece)):
            piece = unicodedata.normalize("NFC", piece)
            changed = True
        parts.append(piece)
        start = end
    return "".join(parts) if changed else text


def collapse_spaces(text: str) -> str:
    """Tabs become spaces and runs of spaces one space (for layout-born whitespace; run :func:`remove_invisibles`
    first for the other Unicode spaces)."""
    if "\t" in text:
        text = text.replace("\t", " ")
    return _MULTISPACE.sub(" ", text) if "  " in text else text


def clean_text(text: str, *, collapse: bool = False) -> str:
    """The normal shape of a document's text (see docs/design/readers.md).

    Args:
        text: Raw text in any of the usual newline conventions.
        collapse: Also collapse runs of spaces (PDF and HTML, where spaces are layout); keep ``False`` for plain
            text and Markdown, where indentation may mean something.
    """
    text = to_nfc(remove_invisibles(normalize_newlines(text)))
    if collapse:
        text = collapse_spaces(text)
    text = _TRAILING.sub("\n", text)
    text = _BLANK_RUNS.sub("\n\n", text)
    return text.strip()


def join_paragraphs(paragraphs: Iterable[str]) -> str:
    """Paragraphs (already clean) joined by one blank line, empty ones left out."""
    return "\n\n".join(p for p in (p.strip() for p in paragraphs) if p)


def has_words(text: str) -> bool:
    """Whether ``text`` holds at least one word of two or more letters (any script)."""
    return _WORD.search(text) is not None


def title_candidate(text: str | None, *, max_length: int = 200) -> str | None:
    """``text`` as a title: one line, spaces collapsed, at most ``max_length`` characters, with a letter in it.

    Returns ``None`` for empty text, text without letters, and placeholders such as *Untitled* or *Microsoft Word
    - file.docx* (the program's name prefix is removed; a bare file name is refused).
    """
    if text is None:
        return None
    title = collapse_spaces(remove_invisibles(normalize_newlines(text)).replace("\n", " ")).strip()
    title = unicodedata.normalize("NFC", title)
    title = re.sub(r"^Microsoft (?:Word|PowerPoint) - ", "", title)
    if not title or not has_words(title) or len(title) > max_length:
        return None
    if title.lower() in {"untitled", "sem título", "sem titulo", "title", "document", "documento"}:
        return None
    if re.fullmatch(r"[\w\-. ]+\.(?:docx?|pdf|odt|rtf|txt|tex|dvi|epub|html?|indd|qxd)", title, re.IGNORECASE):
        return None
    return title

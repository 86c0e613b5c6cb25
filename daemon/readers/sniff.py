"""What a file really is, from its bytes (magic numbers), whatever its name says.

:func:`sniff` classifies the first bytes of a file; :func:`zip_kind` looks inside a zip archive (EPUB, DOCX,
another Office format); :func:`ole_is_encrypted` recognises a password-protected Office file (an OLE compound
file holding an ``EncryptedPackage`` stream); :func:`pdf_ends_early` tells a cut-off PDF. Pure functions over
bytes, thread-safe.
"""

from __future__ import annotations

import zipfile
from typing import Literal

__all__ = [
    "ContentKind",
    "ZipKind",
    "looks_like_html",
    "ole_is_encrypted",
    "pdf_ends_early",
    "sniff",
    "text_encoding_bom",
    "utf16_without_bom",
    "zip_kind",
]

ContentKind = Literal["pdf", "zip", "ole", "text", "binary"]
ZipKind = Literal["epub", "docx", "office", "zip"]

_PDF_MAGIC = b"%PDF-"
_ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xef\xbb\xbf", "utf-8-sig"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
_SNIFF_BYTES = 8192
# Bytes that plain text does not contain (C0 controls but tab, newline, form feed, carriage return, escape).
_BINARY_BYTES = bytes(range(0, 8)) + bytes(range(14, 27)) + bytes(range(28, 32)) + b"\x0b"


def text_encoding_bom(data: bytes) -> tuple[str, int] | None:
    """``(codec, bom_length)`` when ``data`` starts with a Unicode byte-order mark, else ``None``."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return codec, len(bom)
    return None


def utf16_without_bom(data: bytes) -> str | None:
    """``"utf-16-le"`` or ``"utf-16-be"`` for UTF-16 text without a BOM (every other byte NUL, as ASCII-range
    text has), else ``None``."""
    head = data[:4096]
    even, odd = head[0::2], head[1::2]
    if len(odd) >= 8 and odd.count(0) > 0.8 * len(odd) and even.count(0) < 0.1 * len(even):
        return "utf-16-le"
    if len(even) >= 8 and even.count(0) > 0.8 * len(even) and odd.count(0) < 0.1 * len(odd):
        return "utf-16-be"
    return None


def sniff(data: bytes, *, named_text: bool = False) -> ContentKind:
    """The kind of content: ``"pdf"``, ``"zip"``, ``"ole"`` (old Office / encrypted Office), ``"text"``, or
    ``"binary"`` (anything else: images, random bytes, executables …).

    A PDF header may follow up to 1 KiB of junk (as PDF readers accept), except in a file named as text
    (``named_text``), which is a PDF only if it starts with the header (a text may quote ``%PDF-``). Text is
    anything with a Unicode BOM, UTF-16 without one, or bytes with almost no control characters.
    """
    head = data[:_SNIFF_BYTES]
    if head.startswith(_PDF_MAGIC) or (not named_text and _PDF_MAGIC in head[:1024]):
        return "pdf"
    if head.startswith(_ZIP_MAGICS):
        return "zip"
    if head.startswith(_OLE_MAGIC):
        return "ole"
    if text_encoding_bom(head) is not None or utf16_without_bom(head) is not None:
        return "text"
    if not head:
        return "binary"
    controls = sum(head.count(b) for b in _BINARY_BYTES)
    if b"\x00" in head or controls > len(head) // 100:
        return "binary"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        # A multi-byte character cut at the end of the sample is fine; other invalid UTF-8 may be cp1252 text.
        if exc.start < len(head) - 4 and _looks_random(head):
            return "binary"
    return "text"


def _looks_random(head: bytes) -> bool:
    """Random or compressed bytes spread evenly over all 256 values; legacy 8-bit text is mostly ASCII."""
    high = sum(1 for b in head if b >= 0x80)
    return high > len(head) * 0.3


def zip_kind(archive: zipfile.ZipFile) -> ZipKind:
    """What a zip archive holds: an ``"epub"``, a Word ``"docx"``, another OOXML/ODF ``"office"`` document
    (spreadsheet, presentation, OpenDocument), or a plain ``"zip"``.

    As e-book readers do, an EPUB is recognised with its ``META-INF/container.xml`` or ``mimetype`` at the top or
    inside a folder of the archive, or, without either, by a package document (``.opf``) and no Word body.
    """
    names = archive.namelist()
    lowered = [name.lower() for name in names]
    if any(name == "meta-inf/container.xml" or name.endswith("/meta-inf/container.xml") for name in lowered):
        return "epub"
    mimetypes = [name for name in names if name == "mimetype" or name.endswith("/mimetype")]
    if any(_mimetype(archive, name) == "application/epub+zip" for name in mimetypes[:4]):
        return "epub"
    if "word/document.xml" in names:
        return "docx"
    if "[Content_Types].xml" in names or "mimetype" in names:
        return "office"
    if any(name.endswith(".opf") for name in lowered):
        return "epub"
    return "zip"


def _mimetype(archive: zipfile.ZipFile, name: str) -> str | None:
    """The first 100 bytes of entry ``name`` as text (only those are unpacked)."""
    try:
        with archive.open(name) as entry:
            return entry.read(100).decode("ascii", "replace").strip()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, RuntimeError):
        return None


def pdf_ends_early(data: bytes) -> bool:
    """Whether a PDF lacks the ``%%EOF`` marker that ends every complete PDF (within its last KiB, where
    readers look for it): the evidence that the file was cut off."""
    return b"%%EOF" not in data[-1024:]


def ole_is_encrypted(data: bytes) -> bool:
    """Whether an OLE compound file is a password-protected Office document.

    Word, Excel and PowerPoint save an encrypted OOXML file as an OLE container with the streams
    ``EncryptionInfo`` and ``EncryptedPackage``; directory entries store names in UTF-16-LE.
    """
    return "EncryptedPackage".encode("utf-16-le") in data


def looks_like_html(data: bytes) -> bool:
    """Whether text content starts like an HTML document (doctype, ``<html>``, ``<head>`` or ``<body>``)."""
    head = data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return (
        head.startswith((b"<!doctype html", b"<html", b"<head", b"<body", b"<?xml")) and b"<html" in data[:4096].lower()
    )

"""Hostile PDFs, built at test time byte by byte (never committed): objects nested 100,000 deep with
indirect-reference chains, and 50,000 blank pages.

:func:`build_hostile_pdfs` writes them into a folder and says which code each must raise. Both are valid enough
for PDFium to open, so they reach the page loop: what they test is that reading them stays bounded in time,
memory and log output, and ends with the ``blank_pages`` sentence (neither has a word to read nor anything drawn).
"""

from __future__ import annotations

import zlib
from pathlib import Path

from tests.daemon.readers.support import BadInput

__all__ = ["blank_pages_pdf", "build_hostile_pdfs", "deeply_nested_pdf", "write_raw_pdf"]

NESTING_DEPTH = 100_000
CHAIN_LENGTH = 100_000
BLANK_PAGES = 50_000


def write_raw_pdf(path: Path, objects: list[bytes], info: int | None = None) -> Path:
    """Write a PDF whose objects 1..n are ``objects`` (object 1 is the catalog), with a classic cross-reference
    table and, when given, ``info`` as the number of the document information dictionary."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets: list[int] = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%b\nendobj\n" % (number, body)
    table = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    info_entry = b" /Info %d 0 R" % info if info else b""
    out += b"trailer\n<< /Size %d /Root 1 0 R%b >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, info_entry, table)
    path.write_bytes(bytes(out))
    return path


def deeply_nested_pdf(
    path: Path, depth: int = NESTING_DEPTH, chain: int = CHAIN_LENGTH, text: str | None = None
) -> Path:
    """A one-page PDF whose every part a reader walks is nested ``depth`` deep or chained ``chain`` long.

    An array ``[[[…]]]`` and a dictionary ``<< /A << /A … >> >>`` ``depth`` deep are the page's annotations, its
    resources, the catalog's name tree and the author in the document information; the compressed content stream
    sets a dash pattern from the nested array; the outline is ``chain`` entries, each naming the next as its
    sibling and its first child, the last one pointing back at the first (a loop); and the page's second content
    stream and its images are an indirect-reference chain: ``chain`` objects that are each only a reference to
    the next, the last to the first. With ``text`` (ASCII), the page also shows that line in Helvetica (its font
    sits beside the nested dictionary in the resources).
    """
    array = b"[" * depth + b"]" * depth
    dictionary = b"<< /A " * depth + b"null" + b" >>" * depth
    shown = b"BT /F1 12 Tf 72 720 Td (%b) Tj ET\n" % text.encode("ascii") if text else b""
    content = zlib.compress(b"q " + array + b" 0 d Q\n" + shown)
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    first, references = 9, 9 + chain
    resources = b"<< /Font << /F1 %b >> /Properties 6 0 R /XObject %d 0 R >>" % (font, references) if text else b"6 0 R"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R /Outlines 8 0 R /Names 6 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources %b /Contents [4 0 R %d 0 R]"
        b" /Annots 5 0 R >>" % (resources, references),
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n%b\nendstream" % (len(content), content),
        array,
        dictionary,
        b"<< /Title (Deep) /Author " + array + b" >>",
        b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>" % (first, first, chain),
    ]
    for index in range(chain):
        following = first + (index + 1) % chain
        objects.append(b"<< /Title (x) /Parent 8 0 R /Next %d 0 R /First %d 0 R >>" % (following, following))
    objects += [b"%d 0 R" % (references + (index + 1) % chain) for index in range(chain)]
    return write_raw_pdf(path, objects, info=7)


def blank_pages_pdf(path: Path, pages: int = BLANK_PAGES) -> Path:
    """A PDF of ``pages`` blank A4 pages in about 6 bytes a page: the page tree lists one page object (an empty
    content stream) ``pages`` times."""
    kids = b" ".join([b"3 0 R"] * pages)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%b] /Count %d >>" % (kids, pages),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << >> /Contents 4 0 R >>",
        b"<< /Length 0 >>\nstream\n\nendstream",
    ]
    return write_raw_pdf(path, objects)


def build_hostile_pdfs(folder: Path) -> list[BadInput]:
    """Write the hostile PDFs into ``folder``; every entry names the code it must raise."""
    folder.mkdir(parents=True, exist_ok=True)
    deep = deeply_nested_pdf(folder / "deeply-nested.pdf")
    blank = blank_pages_pdf(folder / "blank-50000-pages.pdf")
    return [BadInput(deep.name, deep, "blank_pages"), BadInput(blank.name, blank, "blank_pages")]

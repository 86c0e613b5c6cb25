"""Word documents (.docx) with python-docx (MIT).

The archive and its XML parts are checked (:mod:`daemon.readers.formats.archive`) before python-docx sees the file.
Synchronous, thread-safe (no shared state). What is read: docs/design/readers.md.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections.abc import Iterator
from typing import Any

import docx
from docx.opc.exceptions import PackageNotFoundError
from docx.oxml.ns import qn
from docx.table import Table
from docx.text.paragraph import Paragraph

from core.app.documents.structure import Chapter, DocumentStructure
from core.app.documents.structure import paragraphs as split_paragraphs
from daemon.readers.base import Progress, ReaderOutput
from daemon.readers.cleanup import clean_text, has_words, join_paragraphs, title_candidate
from daemon.readers.errors import ExtractionError
from daemon.readers.formats.archive import SafeArchive, open_archive, parse_xml

__all__ = ["read_docx"]

_P, _TBL, _SDT, _SDT_CONTENT = qn("w:p"), qn("w:tbl"), qn("w:sdt"), qn("w:sdtContent")
_CONTENT_TYPES = "[Content_Types].xml"
_XML_SUFFIXES = (".xml", ".rels")
_HEADING_STYLE = re.compile(r"(?:heading|t[íi]tulo)\s*([1-3])")
_TITLE_STYLES = ("title", "heading 1", "título", "título 1", "titulo", "titulo 1")
# What python-docx and the libraries under it raise for a damaged package: a broken zip or deflate stream, a
# missing part, bad XML (lxml's XMLSyntaxError is a SyntaxError), a truncated member.
_DAMAGED = (PackageNotFoundError, zipfile.BadZipFile, zlib.error, KeyError, SyntaxError, EOFError, OSError)


def _xml_parts(archive: SafeArchive) -> list[str]:
    """The entries python-docx may parse as XML: ``.xml`` and ``.rels`` names, and parts given an XML type."""
    parts = [name for name in archive.names if name.lower().endswith(_XML_SUFFIXES)]
    if _CONTENT_TYPES not in archive.names:
        return parts
    archive.scan_xml(_CONTENT_TYPES)
    try:
        types = parse_xml(archive.read(_CONTENT_TYPES), "docx", _CONTENT_TYPES)
    except SyntaxError:
        return parts  # python-docx will call the package damaged
    for default in types.iterfind("{*}Default"):
        extension = "." + (default.get("Extension") or "").lower()
        if _is_xml_type(default.get("ContentType") or ""):
            parts += [name for name in archive.names if name.lower().endswith(extension)]
    for override in types.iterfind("{*}Override"):
        name = (override.get("PartName") or "").lstrip("/")
        if name in archive.names and _is_xml_type(override.get("ContentType") or ""):
            parts.append(name)
    return parts


def _is_xml_type(content_type: str) -> bool:
    """Whether python-docx may parse a part of this content type as XML (images are kept as bytes)."""
    return content_type.strip().lower().endswith("xml") and not content_type.strip().lower().startswith("image/")


def _check_package(data: bytes) -> None:
    """Refuse an archive past the limits or an XML part with declarations (see docs/design/readers.md)."""
    with open_archive(data, "docx") as archive:
        for name in dict.fromkeys(_xml_parts(archive)):
            archive.scan_xml(name)


def _blocks(container: Any, parent: Any) -> Iterator[Paragraph | Table]:
    """Paragraphs and tables of a body element in order, descending into content controls (``w:sdt``)."""
    for child in container.iterchildren():
        if child.tag == _P:
            yield Paragraph(child, parent)
        elif child.tag == _TBL:
            yield Table(child, parent)
        elif child.tag == _SDT:
            content = child.find(_SDT_CONTENT)
            if content is not None:
                yield from _blocks(content, parent)


def _table_text(table: Table) -> str:
    rows: list[str] = []
    for row in table.rows:
        cells: list[str] = []
        previous: object = None
        for cell in row.cells:
            if cell._tc is previous:  # a merged cell is returned once per grid column it spans
                continue
            previous = cell._tc
            cells.append(" ".join(cell.text.split()))
        if any(cells):
            rows.append(" | ".join(cells))
    return "\n".join(rows)


def _style_name(paragraph: Paragraph) -> str:
    try:
        style = paragraph.style
    except (KeyError, ValueError):
        return ""
    return (style.name or "").lower() if style is not None else ""


def _heading(paragraph: Paragraph, text: str, index: int) -> Chapter | None:
    """A chapter for a paragraph styled as a heading ("Heading 1" … "Heading 3", "Título 1" …) with words."""
    match = _HEADING_STYLE.fullmatch(_style_name(paragraph))
    name = title_candidate(text, max_length=120)
    if match is None or name is None:
        return None
    return Chapter(name, index, int(match.group(1)))


def read_docx(data: bytes, progress: Progress) -> ReaderOutput:
    """Read a .docx file's body text.

    Raises:
        ExtractionError: ``archive_too_large``, ``archive_entries``, ``unsafe_names``, ``unsafe_xml``,
            ``truncated`` (see :mod:`daemon.readers.formats.archive`), ``corrupt_file`` (a damaged package),
            ``unsupported_format`` (a zip that python-docx
            does not take for a Word document, e.g. a macro-enabled .docm), ``no_text`` (no words in the body).
        ExtractionStopped: The stop event was set.
    """
    _check_package(data)
    try:
        document = docx.Document(io.BytesIO(data))
        body = document.element.body
        blocks = list(_blocks(body, document))
        properties = document.core_properties
        meta_title, meta_language = properties.title, properties.language
    except ValueError as exc:
        raise ExtractionError("unsupported_format", format="docx", detail=str(exc)) from None
    except _DAMAGED as exc:
        raise ExtractionError("corrupt_file", format="docx", detail=f"{type(exc).__name__}: {exc}") from None
    progress.start(len(blocks))
    paragraphs: list[str] = []
    heading: str | None = None
    chapters: list[Chapter] = []
    count = 0  # paragraphs of the joined text so far
    try:
        for block in blocks:
            if isinstance(block, Paragraph):
                text = block.text
                if heading is None and text.strip() and _style_name(block) in _TITLE_STYLES:
                    heading = text
                chapter = _heading(block, text, count)
                if chapter is not None:
                    chapters.append(chapter)
            else:
                text = _table_text(block)
            paragraphs.append(clean_text(text))
            if paragraphs[-1].strip():
                count += len(split_paragraphs(paragraphs[-1].strip()))
            progress.advance()
    except _DAMAGED as exc:
        raise ExtractionError("corrupt_file", format="docx", detail=f"{type(exc).__name__}: {exc}") from None
    text = join_paragraphs(paragraphs)
    if not has_words(text):
        raise ExtractionError("no_text", format="docx", detail=f"{len(blocks)} blocks without words")
    return ReaderOutput(
        text=text,
        format="docx",
        title=title_candidate(meta_title) or title_candidate(heading),
        structure=DocumentStructure(chapters=tuple(chapters)).to_json() if chapters else None,
        language_hint=meta_language or None,
    )

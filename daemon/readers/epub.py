"""EPUB 2 and 3 with the standard library: zipfile and xml.etree for the package, html.parser for the chapters.

``META-INF/container.xml`` names the package document (OPF); its spine gives the reading order of the XHTML
chapters; each chapter becomes text with :class:`~daemon.readers.markup.HtmlText`. The title and language hint
come from the OPF's Dublin Core metadata. The progress counter is chapters (spine items).

Protected books are refused with ``encrypted``: ``META-INF/rights.xml`` (Adobe ADEPT), a Readium LCP licence,
or ``META-INF/encryption.xml`` listing anything but the font obfuscation of the IDPF or Adobe (which only
scrambles embedded fonts and leaves the text readable). Synchronous, thread-safe (no shared state).
"""

from __future__ import annotations

import posixpath
import re
import zipfile
import zlib
from urllib.parse import unquote, urldefrag
from xml.etree import ElementTree

from daemon.readers.base import Progress, ReaderOutput
from daemon.readers.cleanup import clean_text, has_words, join_paragraphs, title_candidate
from daemon.readers.errors import ExtractionError
from daemon.readers.markup import html_paragraphs
from daemon.readers.plain import decode_text
from daemon.readers.sniff import open_zip

__all__ = ["read_epub"]

_CONTAINER = "META-INF/container.xml"
_NS = {
    "c": "urn:oasis:names:tc:opendocument:xmlns:container",
    "opf": "http://www.idpf.org/2007/opf",
    "dc": "http://purl.org/dc/elements/1.1/",
    "enc": "http://www.w3.org/2001/04/xmlenc#",
}
_FONT_OBFUSCATION = frozenset({"http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"})
_DRM_FILES = ("META-INF/rights.xml", "META-INF/license.lcpl")
_CHAPTER_TYPES = frozenset({"application/xhtml+xml", "text/html", "application/x-dtbook+xml"})
_XML_ENCODING = re.compile(rb"""^<\?xml[^>]*encoding=["']([A-Za-z0-9_\-.]+)["']""")
_DAMAGED = (zipfile.BadZipFile, zlib.error, KeyError, ElementTree.ParseError, EOFError, OSError, NotImplementedError)


def _damaged(detail: str) -> ExtractionError:
    return ExtractionError("corrupt_file", format="epub", detail=detail)


def _xml(archive: zipfile.ZipFile, name: str) -> ElementTree.Element:
    return ElementTree.fromstring(archive.read(name))


def _check_drm(archive: zipfile.ZipFile, names: set[str]) -> None:
    """Raise ``encrypted`` when the book's text is encrypted (font obfuscation alone is fine)."""
    for name in _DRM_FILES:
        if name in names:
            raise ExtractionError("encrypted", format="epub", detail=f"{name} present")
    if "META-INF/encryption.xml" not in names:
        return
    root = _xml(archive, "META-INF/encryption.xml")
    for method in root.iter(f"{{{_NS['enc']}}}EncryptionMethod"):
        algorithm = method.get("Algorithm", "")
        if algorithm not in _FONT_OBFUSCATION:
            raise ExtractionError("encrypted", format="epub", detail=f"encryption.xml uses {algorithm}")


def _package_path(archive: zipfile.ZipFile) -> str:
    root = _xml(archive, _CONTAINER)
    rootfile = root.find(".//c:rootfile", _NS)
    path = rootfile.get("full-path") if rootfile is not None else None
    if not path:
        raise _damaged("container.xml names no package document")
    return unquote(path)


def _spine(package: ElementTree.Element, base: str) -> list[str]:
    """Chapter paths in reading order (zip member names)."""
    manifest: dict[str, tuple[str, str, str]] = {}
    for item in package.iterfind("opf:manifest/opf:item", _NS):
        href = item.get("href")
        if item.get("id") and href:
            path = posixpath.normpath(posixpath.join(base, unquote(urldefrag(href).url))).lstrip("/")
            manifest[item.get("id", "")] = (path, item.get("media-type", ""), item.get("properties", ""))
    chapters: list[str] = []
    for ref in package.iterfind("opf:spine/opf:itemref", _NS):
        entry = manifest.get(ref.get("idref", ""))
        if entry is None:
            continue
        path, media_type, properties = entry
        if media_type in _CHAPTER_TYPES and "nav" not in properties.split() and path not in chapters:
            chapters.append(path)
    return chapters


def _metadata(package: ElementTree.Element, tag: str) -> str | None:
    element = package.find(f"opf:metadata/dc:{tag}", _NS)
    if element is None:
        element = package.find(f".//dc:{tag}", _NS)
    if element is None:
        return None
    return "".join(element.itertext()).strip() or None


def _chapter_text(raw: bytes) -> str:
    declared = _XML_ENCODING.match(raw[:200])
    markup, _ = decode_text(raw, declared.group(1).decode("ascii") if declared else "utf-8")
    parser = html_paragraphs(markup)
    return clean_text("\n\n".join(parser.paragraphs), collapse=True)


def read_epub(data: bytes, progress: Progress) -> ReaderOutput:
    """Read an EPUB's chapters in spine order.

    Raises:
        ExtractionError: ``corrupt_file`` (a broken zip, missing container or package document, missing chapter,
            bad XML, no chapters), ``encrypted`` (DRM), ``no_text`` (no words in any chapter).
        ExtractionStopped: The stop event was set.
    """
    try:
        archive = open_zip(data)
    except (zipfile.BadZipFile, EOFError, OSError) as exc:
        raise _damaged(f"{type(exc).__name__}: {exc}") from None
    with archive:
        try:
            names = set(archive.namelist())
            _check_drm(archive, names)
            if _CONTAINER not in names:
                raise _damaged("no META-INF/container.xml")
            package_path = _package_path(archive)
            package = _xml(archive, package_path)
            chapters = _spine(package, posixpath.dirname(package_path))
            if not chapters:
                raise _damaged("the spine lists no chapters")
            title, language = _metadata(package, "title"), _metadata(package, "language")
            progress.start(len(chapters))
            texts: list[str] = []
            for path in chapters:
                texts.append(_chapter_text(archive.read(path)))
                progress.advance()
        except _DAMAGED as exc:
            raise _damaged(f"{type(exc).__name__}: {exc}") from None
    text = join_paragraphs(texts)
    if not has_words(text):
        raise ExtractionError("no_text", format="epub", detail=f"{len(chapters)} chapters without words")
    first_heading = next((t.split("\n", 1)[0] for t in texts if t), None)
    return ReaderOutput(
        text=text,
        format="epub",
        title=title_candidate(title) or title_candidate(first_heading, max_length=150),
        language_hint=language,
    )

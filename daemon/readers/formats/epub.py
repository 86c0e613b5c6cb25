"""EPUB 2 and 3 with the standard library and :mod:`defusedxml`: the package, then the chapters with html.parser.

Protected books are refused with ``encrypted``, a missing chapter with ``corrupt_file``. Synchronous, thread-safe
(no shared state). How the package, the reading order and the titles are found: docs/design/readers.md.
"""

from __future__ import annotations

import html
import html.entities
import posixpath
import re
from urllib.parse import unquote, urldefrag
from xml.etree.ElementTree import Element, ParseError

from core.app.documents.structure import Chapter, DocumentStructure
from core.app.documents.structure import paragraphs as split_paragraphs
from daemon.readers.base import Progress, ReaderOutput
from daemon.readers.cleanup import clean_text, has_words, join_paragraphs, title_candidate
from daemon.readers.errors import ExtractionError
from daemon.readers.formats.archive import SafeArchive, open_archive, parse_xml
from daemon.readers.formats.epub_toc import TocEntry, nav_entries, ncx_entries, toc_chapters, without_repeated_blocks
from daemon.readers.formats.markup import html_paragraphs
from daemon.readers.formats.plain import decode_text

__all__ = ["read_epub"]

_CONTAINER = "meta-inf/container.xml"
_DC = "http://purl.org/dc/elements/1.1/"
_ENC = "http://www.w3.org/2001/04/xmlenc#"
_FONT_OBFUSCATION = frozenset({"http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"})
_DRM_FILES = ("meta-inf/rights.xml", "meta-inf/license.lcpl")
_CHAPTER_TYPES = frozenset({"application/xhtml+xml", "text/html", "application/x-dtbook+xml"})
_LOOSE_TYPES = frozenset({"", "text/xml", "application/xml", "application/xhtml", "text/xhtml", "text/plain"})
_HTML_SUFFIXES = (".xhtml", ".html", ".htm", ".xht")
_XML_ENCODING = re.compile(rb"""^<\?xml[^>]*encoding=["']([A-Za-z0-9_\-.]+)["']""")
_DAMAGED = (KeyError, ParseError)
_BARE_AMPERSAND = re.compile(r"&(?!#[0-9]+;|#[xX][0-9a-fA-F]+;|[A-Za-z][A-Za-z0-9]*;)")
_NAMED_ENTITY = re.compile(r"&([A-Za-z][A-Za-z0-9]*);")
_XML_ENTITIES = frozenset({"amp", "lt", "gt", "quot", "apos"})
_XML_DECLARATION = re.compile(r"^\ufeff?\s*<\?xml[^>]*\?>")


def _damaged(detail: str) -> ExtractionError:
    return ExtractionError("corrupt_file", format="epub", detail=detail)


def _depth(name: str) -> tuple[int, str]:
    return name.count("/"), name


class _Book:
    """The archive's entries, found exactly or without regard to case."""

    def __init__(self, archive: SafeArchive) -> None:
        self.archive = archive
        self.names = set(archive.names)
        self._by_lower: dict[str, str] = {}
        for name in archive.names:
            self._by_lower.setdefault(name.lower(), name)

    def find(self, path: str) -> str | None:
        """The entry named ``path`` (``None`` for a path that climbs out of the archive or is not there)."""
        if path.startswith(("../", "/")) or path == "..":
            return None
        return path if path in self.names else self._by_lower.get(path.lower())

    def with_suffix(self, suffix: str) -> list[str]:
        """Entries whose lower-cased name is ``suffix`` or ends with ``/`` + ``suffix``, shallowest first."""
        found = [name for name in self.names if name.lower() == suffix or name.lower().endswith("/" + suffix)]
        return sorted(found, key=_depth)

    def xml(self, name: str, *, repair: bool = False) -> Element:
        """Entry ``name`` parsed as XML; with ``repair``, XML that is not well-formed gets a second try with its
        HTML entities and bare ampersands mended (:func:`_mended`), as e-book readers forgive them."""
        data = self.archive.read(name)
        try:
            return parse_xml(data, "epub", name)
        except ParseError:
            if not repair:
                raise
        return parse_xml(_mended(data), "epub", name)


def _mended(data: bytes) -> bytes:
    """XML text with HTML named entities (``&nbsp;``, ``&eacute;``) turned into their characters and bare ``&``
    escaped; a declared entity is never expanded here (declarations are refused by :func:`parse_xml`)."""
    text, _ = decode_text(data, "utf-8")
    text = _BARE_AMPERSAND.sub("&amp;", text)
    text = _NAMED_ENTITY.sub(_entity_text, text)
    text = _XML_DECLARATION.sub("", text, count=1)  # the text is now Unicode: its old encoding label must go
    return text.encode("utf-8")


def _entity_text(found: re.Match[str]) -> str:
    name = found.group(1)
    if name in _XML_ENTITIES:
        return found.group(0)
    character = html.entities.html5.get(name + ";")
    return "&amp;" + name + ";" if character is None else html.escape(character, quote=False)


def _check_drm(book: _Book) -> None:
    """Raise ``encrypted`` when the book's text is encrypted (font obfuscation alone is fine)."""
    for suffix in _DRM_FILES:
        found = book.with_suffix(suffix)
        if found:
            raise ExtractionError("encrypted", format="epub", detail=f"{found[0]} present")
    for name in book.with_suffix("meta-inf/encryption.xml")[:1]:
        for method in book.xml(name).iter(f"{{{_ENC}}}EncryptionMethod"):
            algorithm = method.get("Algorithm", "")
            if algorithm not in _FONT_OBFUSCATION:
                raise ExtractionError("encrypted", format="epub", detail=f"encryption.xml uses {algorithm}")


def _package_path(book: _Book) -> str:
    """The package document: named by a container (top first, then inside folders), else the shallowest OPF."""
    for container in book.with_suffix(_CONTAINER):
        folder = container[: -len(_CONTAINER)]
        try:
            root = book.xml(container)
        except ParseError:
            continue  # a broken container: look further, as e-book readers do
        for rootfile in root.iterfind(".//{*}rootfile"):
            path = unquote(rootfile.get("full-path") or "")
            for candidate in (posixpath.normpath(folder + path), posixpath.normpath(path)):
                found = book.find(candidate)
                if found is not None:
                    return found
    packages = sorted((name for name in book.names if name.lower().endswith(".opf")), key=_depth)
    if packages:
        return packages[0]
    raise _damaged("no container names an existing package document, and there is no .opf file")


def _manifest(package: Element, base: str) -> tuple[dict[str, tuple[str, str, str]], list[str]]:
    """The manifest's items by id as ``(path, media type, properties)``, and its ids in order."""
    items: dict[str, tuple[str, str, str]] = {}
    order: list[str] = []
    for item in package.iterfind("{*}manifest/{*}item"):
        href, item_id = item.get("href"), item.get("id")
        if item_id and href:
            path = posixpath.normpath(posixpath.join(base, unquote(urldefrag(href).url)))
            items[item_id] = (path, item.get("media-type", ""), item.get("properties", ""))
            order.append(item_id)
    return items, order


def _is_chapter(path: str, media_type: str) -> bool:
    """Whether a manifest item is a chapter: an XHTML/HTML media type, or — for the wrong or missing types some
    tools write (``text/xml``, ``application/xml``, none) — an HTML file name."""
    media_type = media_type.strip().lower()
    if media_type in _CHAPTER_TYPES:
        return True
    return media_type in _LOOSE_TYPES and path.lower().endswith(_HTML_SUFFIXES)


def _chapters(book: _Book, package: Element, base: str) -> list[str]:
    """Chapter entries in reading order: the spine's, else the manifest's.

    Raises:
        ExtractionError: ``corrupt_file`` for a chapter of the reading order that is not in the archive.
    """
    items, order = _manifest(package, base)
    spine = [(ref.get("idref", ""), ref.get("linear", "yes")) for ref in package.iterfind("{*}spine/{*}itemref")]
    if not any(_is_chapter(*items.get(idref, ("", "", ""))[:2]) for idref, _ in spine):
        spine = [(item_id, "yes") for item_id in order]
    chapters: list[str] = []
    for idref, linear in spine:
        entry = items.get(idref)
        if entry is None:
            continue
        path, media_type, properties = entry
        if not _is_chapter(path, media_type) or "nav" in properties.split():
            continue
        found = book.find(path)
        if found is None:
            if linear.strip().lower() == "no":
                continue  # a side file (notes, a table of contents) that the book can do without
            raise _damaged(f"the chapter {path!r} is not in the archive")
        if found not in chapters:
            chapters.append(found)
    return chapters


def _metadata(package: Element, tag: str) -> str | None:
    element = package.find(f"{{*}}metadata/{{{_DC}}}{tag}")
    if element is None:
        element = package.find(f".//{{{_DC}}}{tag}")
    if element is None:
        return None
    return "".join(element.itertext()).strip() or None


def _chapter_text(raw: bytes) -> str:
    declared = _XML_ENCODING.match(raw[:200])
    markup, _ = decode_text(raw, declared.group(1).decode("ascii") if declared else "utf-8")
    parser = html_paragraphs(markup, drop_template=True)
    return clean_text("\n\n".join(parser.paragraphs), collapse=True)


def read_epub(data: bytes, progress: Progress) -> ReaderOutput:
    """Read an EPUB's chapters in reading order.

    Raises:
        ExtractionError: ``corrupt_file`` (a broken archive, no package document, a missing chapter, bad XML, no
            chapters), ``truncated``, ``archive_too_large``, ``archive_entries``, ``unsafe_names``, ``unsafe_xml``
            (see :mod:`daemon.readers.formats.archive`), ``encrypted`` (DRM), ``no_text`` (no words in any chapter).
        ExtractionStopped: The stop event was set.
    """
    with open_archive(data, "epub") as archive:
        book = _Book(archive)
        try:
            _check_drm(book)
            package_path = _package_path(book)
            package = book.xml(package_path, repair=True)
            chapters = _chapters(book, package, posixpath.dirname(package_path))
            if not chapters:
                raise _damaged("the book lists no chapters")
            title, language = _metadata(package, "title"), _metadata(package, "language")
            progress.start(len(chapters))
            texts: list[str] = []
            for path in chapters:
                texts.append(_chapter_text(archive.read(path)))
                progress.advance()
        except _DAMAGED as exc:
            raise _damaged(f"{type(exc).__name__}: {exc}") from None
        toc = _toc(book, package, posixpath.dirname(package_path))
        texts = ["\n\n".join(kept) for kept in without_repeated_blocks([_split(t) for t in texts])]
        counts = [len(_split(t)) for t in texts]
        from_toc = toc_chapters(toc, chapters, counts, book.find)
    text = join_paragraphs(texts)
    if not has_words(text):
        raise ExtractionError("no_text", format="epub", detail=f"{len(chapters)} chapters without words")
    first_heading = next((t.split("\n", 1)[0] for t in texts if t), None)
    return ReaderOutput(
        text=text,
        format="epub",
        title=title_candidate(title) or title_candidate(first_heading, max_length=150),
        language_hint=language,
        structure=DocumentStructure(chapters=tuple(from_toc)).to_json() if from_toc else _structure(texts),
    )


def _split(text: str) -> list[str]:
    return split_paragraphs(text.strip()) if text.strip() else []


def _toc(book: _Book, package: Element, base: str) -> list[TocEntry]:
    """The book's table of contents: the EPUB 3 nav document's, else the NCX's (the spine's ``toc``, else any NCX
    of the manifest); empty when there is none or it cannot be read."""
    items, order = _manifest(package, base)
    spine = package.find("{*}spine")
    ncx_id = spine.get("toc") if spine is not None else None
    navs = [items[i][0] for i in order if "nav" in items[i][2].split()]
    ncxs = [items[i][0] for i in order if i == ncx_id or items[i][1].strip().lower() == "application/x-dtbncx+xml"]
    for path, reader in [*((p, nav_entries) for p in navs), *((p, ncx_entries) for p in ncxs)]:
        found = book.find(path)
        if found is None:
            continue
        try:
            entries = reader(book.xml(found, repair=True), posixpath.dirname(found))
        except (*_DAMAGED, ExtractionError):
            continue  # a broken table of contents: the chapters' first paragraphs serve instead
        if entries:
            return entries
    return []


def _structure(texts: list[str]) -> str | None:
    """The chapters as JSON: each chapter whose first paragraph is short enough to be its title, at the
    paragraph where it starts in the joined text."""
    chapters: list[Chapter] = []
    count = 0
    for chapter_text in texts:
        found = split_paragraphs(chapter_text.strip()) if chapter_text.strip() else []
        name = title_candidate(found[0], max_length=120) if found and len(found[0]) <= 120 else None
        if name is not None:
            chapters.append(Chapter(name, count))
        count += len(found)
    return DocumentStructure(chapters=tuple(chapters)).to_json() if len(chapters) >= 2 else None

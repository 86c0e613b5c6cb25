"""An EPUB's own table of contents (the EPUB 3 nav document or the EPUB 2 NCX) as chapters, and the page
template's repeated blocks found across chapters.

Pure functions over parsed XML and text; thread-safe.
"""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Callable, Sequence
from urllib.parse import unquote, urldefrag
from xml.etree.ElementTree import Element

from core.app.documents.structure import Chapter
from daemon.readers.cleanup import title_candidate
from daemon.readers.formats.bookmark_levels import without_wrappers

__all__ = ["TocEntry", "nav_entries", "ncx_entries", "toc_chapters", "without_repeated_blocks"]

TocEntry = tuple[str, str, int]
"""``(archive path, title, level)``."""

_OPS = "http://www.idpf.org/2007/ops"
_MAX_ENTRIES = 5000
_MAX_DEPTH = 6
_EDGE = 3
"""Paragraphs at each end of a chapter that may be a template's repeated block."""
_REPEATED_CHARS = 200


def _local(tag: object) -> str:
    return str(tag).rsplit("}", 1)[-1].lower()


def _title(text: str) -> str | None:
    return title_candidate(" ".join(text.split()), max_length=150)


def _path(base: str, href: str) -> str:
    return posixpath.normpath(posixpath.join(base, unquote(urldefrag(href).url)))


def nav_entries(root: Element, base: str) -> list[TocEntry]:
    """The entries of the nav document's table of contents (``<nav epub:type="toc">``, else its first ``<nav>``);
    ``base`` is the nav document's folder in the archive."""
    navs = [element for element in root.iter() if _local(element.tag) == "nav"]
    typed = [nav for nav in navs if "toc" in (nav.get(f"{{{_OPS}}}type") or nav.get("type") or "").split()]
    chosen = (typed or navs)[:1]
    entries: list[TocEntry] = []
    for nav in chosen:
        for child in nav:
            if _local(child.tag) == "ol":
                _nav_list(child, base, 1, entries)
    return entries


def _nav_list(ordered: Element, base: str, level: int, entries: list[TocEntry]) -> None:
    if level > _MAX_DEPTH:
        return
    for item in ordered:
        if _local(item.tag) != "li" or len(entries) >= _MAX_ENTRIES:
            continue
        link = next((e for e in item if _local(e.tag) in ("a", "span")), None)
        href = link.get("href") if link is not None else None
        title = _title("".join(link.itertext())) if link is not None else None
        if href and title:
            entries.append((_path(base, href), title, level))
        for child in item:
            if _local(child.tag) == "ol":
                _nav_list(child, base, level + 1, entries)


def ncx_entries(root: Element, base: str) -> list[TocEntry]:
    """The entries of an NCX's ``navMap``; ``base`` is the NCX's folder in the archive."""
    entries: list[TocEntry] = []
    for nav_map in (e for e in root.iter() if _local(e.tag) == "navmap"):
        _ncx_points(nav_map, base, 1, entries)
        break
    return entries


def _ncx_points(parent: Element, base: str, level: int, entries: list[TocEntry]) -> None:
    if level > _MAX_DEPTH:
        return
    for point in parent:
        if _local(point.tag) != "navpoint" or len(entries) >= _MAX_ENTRIES:
            continue
        label = next((e for e in point if _local(e.tag) == "navlabel"), None)
        content = next((e for e in point if _local(e.tag) == "content"), None)
        title = _title("".join(label.itertext())) if label is not None else None
        src = content.get("src") if content is not None else None
        if src and title:
            entries.append((_path(base, src), title, level))
        _ncx_points(point, base, level + 1, entries)


def toc_chapters(
    entries: Sequence[TocEntry], files: Sequence[str], counts: Sequence[int], find: Callable[[str], str | None]
) -> list[Chapter]:
    """Chapters from the table of contents: for each chapter file (``files``, in reading order, holding
    ``counts[i]`` paragraphs), the first entry that points at it. ``find`` maps an entry's path to the archive's
    name for it. Empty when fewer than two files have an entry."""
    first: dict[str, tuple[str, int]] = {}
    for path, title, level in entries:
        name = find(path)
        if name is not None and name not in first:
            first[name] = (title, level)
    found: list[tuple[str, int, int]] = []
    start = 0
    for name, count in zip(files, counts, strict=True):
        entry = first.get(name)
        if entry is not None and count > 0:
            found.append((entry[0], start, entry[1]))
        start += count
    opened = without_wrappers(found)
    chapters = [Chapter(title, paragraph, level) for title, paragraph, level in opened]
    return chapters if len(chapters) >= 2 else []


def without_repeated_blocks(chapters: Sequence[list[str]]) -> list[list[str]]:
    """Each chapter's paragraphs without the short ones that open or close most chapters alike (at least three,
    and more than half of them): a page template's repeated header, footer or navigation line."""
    if len(chapters) < 3:
        return [list(c) for c in chapters]
    seen: Counter[str] = Counter()
    for paragraphs in chapters:
        edges = {p for p in (*paragraphs[:_EDGE], *paragraphs[-_EDGE:]) if len(p) <= _REPEATED_CHARS}
        seen.update(edges)
    repeated = {p for p, n in seen.items() if n >= 3 and n * 2 > len(chapters)}
    if not repeated:
        return [list(c) for c in chapters]
    return [[p for i, p in enumerate(c) if p not in repeated or _EDGE <= i < len(c) - _EDGE] for c in chapters]

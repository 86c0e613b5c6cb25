"""HTML and XHTML to text with the standard library's :mod:`html.parser` (used for HTML files and EPUB chapters).

Each :class:`HtmlText` is used by one thread. What becomes what: docs/design/readers.md.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from daemon.readers.base import Progress, ReaderOutput
from daemon.readers.cleanup import clean_text, has_words, title_candidate
from daemon.readers.errors import ExtractionError
from daemon.readers.formats.plain import decode_text

__all__ = ["HtmlText", "declared_charset", "html_paragraphs", "read_html"]

_BLOCKS = frozenset((
    "address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details", "dialog", "div", "dl",
    "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup",
    "hr", "html", "legend", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "th",
    "thead", "tfoot", "tr", "ul",
))  # fmt: skip
_SKIPPED = frozenset((
    "script", "style", "template", "svg", "math", "noscript", "head", "iframe", "object", "select", "button",
))  # fmt: skip
_OPTIONAL_END = frozenset((
    "p", "li", "dt", "dd", "tr", "td", "th", "thead", "tbody", "tfoot", "colgroup", "caption", "option", "optgroup",
    "rt", "rp",
))  # fmt: skip
_TEMPLATE_ROLES = frozenset(("navigation", "search", "banner", "contentinfo", "doc-pagelist"))
_TEMPLATE_NAMES = frozenset((
    "related", "sphinxsidebar", "sphinxsidebarwrapper", "searchbox", "search", "navigation", "nav", "navbar",
    "breadcrumbs", "breadcrumb", "wy-nav-top", "wy-nav-side", "rst-footer-buttons", "rst-versions", "prev-next",
    "prevnext", "pager", "topnav", "bottomnav", "footer", "sidebar", "headerlink",
))  # fmt: skip
_CELLS = frozenset(("td", "th"))
_TABLE_PARTS = frozenset(("tr", "td", "th", "thead", "tbody", "tfoot", "caption"))
_VOID = frozenset((
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
))  # fmt: skip
_CHUNK = 64 * 1024
_XML_ENCODING = re.compile(rb"""^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9_\-.]+)["']""")
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_\-:.]+)""", re.IGNORECASE)


class HtmlText(HTMLParser):
    """Collects the text of an HTML document as paragraphs. Feed it, :meth:`close` it, read :attr:`paragraphs`.

    Attributes:
        paragraphs: The document's paragraphs, whitespace not yet collapsed.
        title: The ``<title>`` text, or ``None``.
        first_heading: The first ``<h1>`` text, or ``None``.
        lang: The ``lang`` (or ``xml:lang``) of ``<html>``, or ``None``.
    """

    def __init__(self, *, drop_template: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self._drop_template = drop_template
        self.paragraphs: list[str] = []
        self.title: str | None = None
        self.first_heading: str | None = None
        self.lang: str | None = None
        self._parts: list[str] = []
        self._skip_depth = 0
        self._skip_stack: list[str] = []
        self._in_title = False
        self._title_parts: list[str] = []
        self._h1_parts: list[str] | None = None
        self._pre = 0
        self._table = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "html":
            found = dict(attrs)
            self.lang = found.get("lang") or found.get("xml:lang") or self.lang
        if self._skip_stack == ["head"] and (tag == "body" or tag in _BLOCKS):
            self._skip_stack.clear()  # </head> is optional: the body has begun
        if tag == "title" and self._skip_stack in ([], ["head"]):
            self._in_title = True
            return
        hidden = tag not in _OPTIONAL_END and any(name == "hidden" for name, _ in attrs)
        hidden = hidden or (self._drop_template and tag not in _VOID and _is_template(tag, attrs))
        if self._skip_stack or tag in _SKIPPED or hidden:
            if tag not in _VOID:
                self._skip_stack.append(tag)
            return
        if tag == "br":
            self._parts.append("\n")
        elif tag in _CELLS or (tag == "tr" and self._table):
            if self._parts and not self._parts[-1].endswith("\n"):
                self._parts.append(" | " if tag in _CELLS else "\n")
        elif tag in _BLOCKS and not (self._table and tag in _TABLE_PARTS):
            self._flush()
        if tag == "table":
            self._table += 1
        if tag == "pre":
            self._pre += 1
        if tag == "h1" and self.first_heading is None:
            self._h1_parts = []

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br" and not self._skip_stack:
            self._parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title" and self._in_title:
            self._in_title = False
            self.title = self.title or "".join(self._title_parts)
            return
        if self._skip_stack:
            if tag in self._skip_stack:
                while self._skip_stack and self._skip_stack.pop() != tag:
                    pass
            return
        if tag == "pre" and self._pre:
            self._pre -= 1
        if tag == "table" and self._table:
            self._table -= 1
        if tag == "h1" and self._h1_parts is not None:
            self.first_heading = "".join(self._h1_parts)
            self._h1_parts = None
        if self._table and tag in _TABLE_PARTS:
            if tag == "tr":
                self._parts.append("\n")
        elif tag in _BLOCKS:
            self._flush()

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self._title_parts.append(data)
            return
        if self._skip_stack:
            return
        if not self._pre:
            data = " ".join(data.split("\n"))
        self._parts.append(data)
        if self._h1_parts is not None:
            self._h1_parts.append(data)

    def close(self) -> None:
        """Finish parsing and keep the last paragraph."""
        super().close()
        self._flush()

    def _flush(self) -> None:
        if self._parts:
            text = "".join(self._parts).strip()
            if text:
                self.paragraphs.append(text)
            self._parts = []


def _is_template(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """Whether an element is a block of the page template (navigation, search, page header or footer)."""
    if tag == "nav":
        return True
    found = dict(attrs)
    if (found.get("role") or "").strip().lower() in _TEMPLATE_ROLES:
        return True
    names = {*(found.get("class") or "").lower().split(), (found.get("id") or "").strip().lower()}
    return not names.isdisjoint(_TEMPLATE_NAMES)


def declared_charset(data: bytes) -> str | None:
    """The charset an HTML document declares in a ``<meta>`` near its start, else in its XML declaration (an
    XHTML file), or ``None``."""
    found = _CHARSET.search(data[:4096]) or _XML_ENCODING.match(data[:200])
    return found.group(1).decode("ascii", "replace") if found else None


def html_paragraphs(html: str, *, drop_template: bool = False) -> HtmlText:
    """Parse ``html`` completely and return the converter (its paragraphs, title, first heading and language);
    ``drop_template`` drops the page template's blocks (see the module docstring)."""
    parser = HtmlText(drop_template=drop_template)
    parser.feed(html)
    parser.close()
    return parser


def read_html(data: bytes, progress: Progress) -> ReaderOutput:
    """Read an HTML file; the progress counter is 64 KiB blocks of the decoded document.

    Raises:
        ExtractionError: ``no_text`` when the page has no words outside scripts and styles.
    """
    html, _ = decode_text(data, declared_charset(data))
    blocks = max(1, -(-len(html) // _CHUNK))
    progress.start(blocks)
    parser = HtmlText()
    for index in range(blocks):
        parser.feed(html[index * _CHUNK : (index + 1) * _CHUNK])
        progress.advance()
    parser.close()
    text = clean_text("\n\n".join(parser.paragraphs), collapse=True)
    if not has_words(text):
        raise ExtractionError("no_text", format="html", detail="no words outside markup")
    title = title_candidate(parser.title) or title_candidate(parser.first_heading)
    return ReaderOutput(text=text, format="html", title=title, language_hint=parser.lang)

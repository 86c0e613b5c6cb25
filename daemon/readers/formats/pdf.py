"""PDF text with pypdfium2 (PDFium, Apache-2.0/BSD).

Threading rule: every PDFium call in this process goes through :data:`PDFIUM_LOCK`, which :func:`read_pdf` holds per
page, never across pages; other code that calls pypdfium2 must hold it too. Every PDFium object is closed under the
lock; the bit-rot check's helper thread is joined before :func:`read_pdf` returns or raises.
"""

from __future__ import annotations

import bisect
import codecs
import ctypes
import functools
import itertools
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]

from core.app.documents.structure import Chapter, DocumentStructure
from daemon.readers.base import Progress, ReaderOutput
from daemon.readers.cleanup import title_candidate
from daemon.readers.errors import ExtractionCode, ExtractionError
from daemon.readers.formats.bookmark_levels import without_wrappers
from daemon.readers.formats.ocr import OCR_DPI
from daemon.readers.formats.pdf_headings import FontLine, font_headings, font_lines, page_font_lines, place_headings
from daemon.readers.formats.pdf_integrity import BackgroundStreamCheck, StreamDamage
from daemon.readers.formats.pdf_scanned import recognise_pages, wants_recognition
from daemon.readers.formats.pdf_text import enough_words, page_lines, pages_to_paragraphs

__all__ = ["PDFIUM_LOCK", "pdfium_lock", "read_pdf", "render_for_recognition"]

PDFIUM_LOCK = threading.Lock()
"""Held around every PDFium call in the process (see the module docstring)."""

_LOCK_POLL = 0.05
_ENCRYPTED_CODES = frozenset({pdfium_c.FPDF_ERR_PASSWORD, pdfium_c.FPDF_ERR_SECURITY})


@contextmanager
def pdfium_lock(progress: Progress | None = None) -> Iterator[None]:
    """Hold :data:`PDFIUM_LOCK`; while waiting for it, raise :class:`ExtractionStopped` if ``progress``'s stop
    event is set (checked every 50 ms)."""
    while not PDFIUM_LOCK.acquire(timeout=_LOCK_POLL):
        if progress is not None:
            progress.check()
    try:
        yield
    finally:
        PDFIUM_LOCK.release()


def _open(data: bytes) -> Any:
    """Open ``data`` with PDFium (lock held by the caller); translate PDFium's refusal into our codes."""
    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) in _ENCRYPTED_CODES:
            raise ExtractionError("encrypted", format="pdf", detail=str(exc)) from None
        raise ExtractionError("corrupt_file", format="pdf", detail=str(exc)) from None


def _page_text(document: Any, index: int, fonts: list[list[FontLine]] | None) -> tuple[str, bool, bool]:
    """The raw text of page ``index`` as pypdfium2's ``get_text_range()`` gives it, whether the page draws
    anything (text, a picture, a shape), and whether it is a picture to recognise (a page with a picture and
    almost no text: :func:`~daemon.readers.formats.pdf_scanned.wants_recognition`); the page's lines with their fonts
    are appended to ``fonts`` unless it is ``None`` (from the same text page: loading each page again for them cost
    as much as the text). The lock is held by the caller, and the page and its text page are closed. PDFium's own
    calls, without pypdfium2's page objects: their finalizer bookkeeping cost about 5 % of a read."""
    page = pdfium_c.FPDF_LoadPage(document.raw, index)
    if not page:
        raise ExtractionError("corrupt_file", format="pdf", detail=f"page {index + 1}: Failed to load page.")
    try:
        drawn = pdfium_c.FPDFPage_CountObjects(page) > 0
        textpage = pdfium_c.FPDFText_LoadPage(page)
        if not textpage:
            raise ExtractionError("corrupt_file", format="pdf", detail=f"page {index + 1}: Failed to load text page.")
        try:
            text = _text_of(textpage, index)
            if fonts is not None:
                fonts.append(page_font_lines(textpage))
            return text, drawn, drawn and wants_recognition(page, text)
        finally:
            pdfium_c.FPDFText_ClosePage(textpage)
    finally:
        pdfium_c.FPDF_ClosePage(page)


def _text_of(textpage: Any, index: int) -> str:
    """All the text of a text page, as ``PdfTextPage.get_text_range()`` reads it: leading and trailing characters
    without a text index are left out of the range asked for (crbug.com/pdfium/2079), undecodable units dropped."""
    count = pdfium_c.FPDFText_CountChars(textpage)
    if count == -1:
        raise ExtractionError("corrupt_file", format="pdf", detail=f"page {index + 1}: no character count")
    first, last = 0, count - 1
    while first <= last and pdfium_c.FPDFText_GetTextIndexFromCharIndex(textpage, first) == -1:
        first += 1
    if first > last:
        return ""
    while pdfium_c.FPDFText_GetTextIndexFromCharIndex(textpage, last) == -1:
        last -= 1
    start = pdfium_c.FPDFText_GetTextIndexFromCharIndex(textpage, first)
    end = pdfium_c.FPDFText_GetTextIndexFromCharIndex(textpage, last)
    buffer = (ctypes.c_ushort * (end + 2 - start))()
    written = pdfium_c.FPDFText_GetText(textpage, first, last - first + 1, buffer)
    return codecs.decode(memoryview(buffer)[: written - 1], "utf-16-le", "ignore")


def render_for_recognition(document: Any, progress: Progress | None, index: int) -> Any:
    """Page ``index`` as a grey PIL image at :data:`~daemon.readers.formats.ocr.OCR_DPI`, drawn under the lock; the page
    and its bitmap are closed before the lock is let go, the image holds a copy of the pixels."""
    with pdfium_lock(progress):
        page = document[index]
        try:
            bitmap = page.render(scale=OCR_DPI / 72, grayscale=True)
            try:
                return bitmap.to_pil().copy()
            finally:
                bitmap.close()
        finally:
            page.close()


def _metadata_title(document: Any) -> str | None:
    try:
        metadata: dict[str, str] = document.get_metadata_dict(skip_empty=True)
    except (pdfium.PdfiumError, UnicodeDecodeError, ValueError):
        return None
    return metadata.get("Title")


def _raise_if_damaged(damage: StreamDamage | None) -> None:
    if damage is not None:
        detail = f"{damage.count} damaged streams, the first at byte {damage.first_offset}: {damage.first_error}"
        raise ExtractionError("corrupt_file", format="pdf", detail=detail)


def read_pdf(data: bytes, progress: Progress, *, language: str | None = None) -> ReaderOutput:
    """Read a PDF's text page by page; the progress counter is pages. Pages that are pictures with no text layer
    (scans, screenshots) are then recognised (:mod:`daemon.readers.formats.pdf_scanned`): the counter grows by
    :data:`~daemon.readers.formats.pdf_scanned.RECOGNITION_UNITS` per such page, and ``progress`` says which page of how
    many is being recognised.

    Args:
        data: The file's bytes (they start with ``%PDF-`` within the first KiB).
        progress: Reports ``(pages done, pages)`` and raises :class:`ExtractionStopped` between pages.
        language: The language the user chose for the document (ISO 639-1), to recognise its pictures with.

    Raises:
        ExtractionError: ``encrypted`` (a user password, any security handler), ``corrupt_file`` (PDFium cannot
            parse the file or one of its pages, it has no pages, or a compressed stream that may hold text is
            damaged: see :mod:`daemon.readers.formats.pdf_integrity`), ``no_text`` (no words, but something drawn on the
            pages: scanned pages, text turned into shapes), ``blank_pages`` (no words and nothing drawn).
        ExtractionStopped: The stop event was set.
    """
    with pdfium_lock(progress):
        document = _open(data)
        try:
            page_count = len(document)
            title = _metadata_title(document)
            encrypted = pdfium_c.FPDF_GetSecurityHandlerRevision(document) != -1
            outline = bool(pdfium_c.FPDFBookmark_GetFirstChild(document, None))
        except BaseException:
            document.close()
            raise
    # Encrypted streams are ciphertext: nothing to inflate. The others are checked while the pages are read.
    check = None if encrypted or page_count <= 0 else BackgroundStreamCheck(data)
    try:
        if page_count <= 0:
            raise ExtractionError("corrupt_file", format="pdf", detail="the document has no pages")
        progress.start(page_count)
        fonts: list[list[FontLine]] | None = None if outline else []  # read with the pages: no bookmarks to win
        pages, drawn, scanned = _read_pages(document, page_count, check, progress, fonts)
        if check is not None:
            _raise_if_damaged(check.result(wait=True))
        render = functools.partial(render_for_recognition, document, progress)
        recognised = recognise_pages(render, pages, scanned, language, progress)
        bookmarks, fonts = _bookmarks_and_fonts(document, page_count, progress, fonts)
    finally:
        if check is not None:
            check.close()
        with pdfium_lock():
            document.close()
    paragraphs, spans = pages_to_paragraphs(pages)
    chapters = _chapters(bookmarks, fonts, paragraphs, spans)  # may cut a glued heading off its paragraph
    text = "\n\n".join(paragraphs)
    _check_words(text, page_count, drawn, recognition_possible=not scanned or recognised is not None)
    first_line = next((lines[0] for lines in pages if lines), None)
    return ReaderOutput(
        text=text,
        format="pdf",
        page_count=page_count,
        title=title_candidate(title) or title_candidate(first_line, max_length=150),
        structure=DocumentStructure(
            tuple(spans), page_count, tuple(chapters), recognised=tuple(recognised or ())
        ).to_json(),
    )


def _check_words(text: str, page_count: int, drawn: bool, *, recognition_possible: bool) -> None:
    """Raise when ``text`` has too few words for ``page_count`` pages: ``no_text`` when something is ``drawn`` on
    them (text turned into shapes, pictures without words), ``no_text`` with ``scanned`` when they are pictures
    that could not be recognised here (no engine), ``blank_pages`` when nothing is drawn."""
    if not enough_words(text, max(3, min(page_count, 20))):
        code: ExtractionCode = "no_text" if drawn else "blank_pages"
        values = {"format": "pdf"} if recognition_possible or not drawn else {"format": "pdf_scanned"}
        raise ExtractionError(code, detail=f"{len(text)} characters in {page_count} pages", **values)


def _read_pages(
    document: Any,
    page_count: int,
    check: BackgroundStreamCheck | None,
    progress: Progress,
    fonts: list[list[FontLine]] | None,
) -> tuple[list[list[str]], bool, list[int]]:
    """Each page's lines, whether any page draws anything, and the 0-based pages that are pictures to recognise
    (each page's lines with their fonts appended to ``fonts`` unless it is ``None``); the lock is taken per page,
    the stream check's damage raised as soon as it is known, and progress advanced page by page.

    The lines are made on this thread, outside the lock: a helper thread for them would take the GIL from this
    one whenever PDFium hands it back, which costs more than the overlap gains."""
    pages: list[list[str]] = []
    scanned: list[int] = []
    drawn = False
    for index in range(page_count):
        with pdfium_lock(progress):
            raw, page_drawn, picture = _page_text(document, index, fonts)
        drawn = drawn or page_drawn
        pages.append(page_lines(raw))
        if picture:
            scanned.append(index)
        if check is not None:
            _raise_if_damaged(check.result(wait=False))
        progress.advance(index + 1)
    return pages, drawn, scanned


_MAX_BOOKMARKS = 2000
_MAX_OUTLINE_ENTRIES = 10_000


class _OutlineWarnings(logging.Filter):
    """Drops pypdfium2's warnings about an outline deeper than we ask for or looping back on itself: a hostile
    outline gives one per entry (100,000 log lines for a 100,000-entry chain), and :func:`_bookmarks` bounds the
    walk itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = str(record.msg)
        return not (text.startswith("Maximum recursion depth") or text.startswith("A circular bookmark reference"))


logging.getLogger("pypdfium2._helpers.document").addFilter(_OutlineWarnings())


def _bookmarks_and_fonts(
    document: Any, page_count: int, progress: Progress, fonts: list[list[FontLine]] | None
) -> tuple[list[tuple[str, int, int]], list[list[FontLine]]]:
    """The usable bookmarks and, when there are none, the lines with their fonts to find headings in: ``fonts``,
    read with the pages of a PDF without an outline, or read again now for an outline none of whose entries
    points into the document. Called after the pages: PDFium then knows each page's object (see _bookmarks)."""
    with pdfium_lock(progress):
        bookmarks = _bookmarks(document, page_count)
    if bookmarks:
        return bookmarks, []
    return bookmarks, fonts if fonts is not None else font_lines(document, page_count, progress, pdfium_lock)


def _bookmarks(document: Any, page_count: int) -> list[tuple[str, int, int]]:
    """The table of contents as ``(title, 1-based page, level)`` (lock held by the caller); entries without a
    page in the document are left out, and a damaged outline gives what was read before the damage. At most
    :data:`_MAX_OUTLINE_ENTRIES` entries are visited and :data:`_MAX_BOOKMARKS` kept, so a hostile outline (a
    long chain, a loop) costs bounded time. Called once every page was loaded: a destination's page index is then
    a look-up in PDFium's page list, where before it walks the page tree (refman's 1,420 bookmarks: 27 ms against
    360 ms)."""
    found: list[tuple[str, int, int]] = []
    try:
        for bookmark in itertools.islice(document.get_toc(max_depth=4), _MAX_OUTLINE_ENTRIES):
            destination = bookmark.get_dest()
            index = destination.get_index() if destination is not None else None
            name = title_candidate(bookmark.get_title() or "", max_length=120)
            if name and isinstance(index, int) and 0 <= index < page_count:
                found.append((name, index + 1, int(bookmark.level) + 1))
            if len(found) >= _MAX_BOOKMARKS:
                break
    except (pdfium.PdfiumError, ValueError, UnicodeDecodeError):
        pass
    return found


def _chapters(
    bookmarks: list[tuple[str, int, int]],
    fonts: list[list[FontLine]],
    paragraphs: list[str],
    spans: list[tuple[int, int]],
) -> list[Chapter]:
    """The document's chapters: its bookmarks when it has any, else the headings its fonts set apart (a heading
    glued to the end of a paragraph is cut off it: ``paragraphs`` and ``spans`` may change)."""
    if bookmarks:
        return _bookmark_chapters(spans, without_wrappers(bookmarks))
    return place_headings(font_headings(fonts), paragraphs, spans)


def _bookmark_chapters(spans: list[tuple[int, int]], bookmarks: list[tuple[str, int, int]]) -> list[Chapter]:
    """Each bookmark at the first paragraph that starts on or after its page (bookmarks past the last paragraph
    are left out); the bookmarks come without their generic wrappers (:mod:`daemon.readers.formats.bookmark_levels`)."""
    firsts = [first for first, _last in spans]  # non-decreasing: paragraphs come in page order
    chapters: list[Chapter] = []
    for name, page, level in bookmarks:
        paragraph = bisect.bisect_left(firsts, page)
        if paragraph < len(firsts):
            chapters.append(Chapter(name, paragraph, level))
    return chapters

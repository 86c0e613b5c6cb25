"""Reading documents: the text of a PDF, Word, EPUB, text, Markdown or HTML file, for the model phases.

:func:`read_document` is the one entry point: synchronous and blocking (the daemon runs it on a worker thread); any
number of threads may call it at once. ``on_progress`` is called on the calling thread; ``stop_event`` may be set
from any thread. Any other PDFium user in the process must hold :data:`daemon.readers.formats.pdf.PDFIUM_LOCK`.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from pathlib import Path

from core.app.documents.formats import MAX_DOCUMENT_BYTES, document_format
from daemon.readers.base import ExtractedDocument, Progress, ProgressCallback, ReaderOutput
from daemon.readers.errors import (
    EXTRACTION_CODES,
    TRANSIENT_CODES,
    ExtractionCode,
    ExtractionError,
    ExtractionStopped,
)
from daemon.readers.files import read_file_bytes
from daemon.readers.formats.archive import open_archive
from daemon.readers.formats.epub import read_epub
from daemon.readers.formats.markup import read_html
from daemon.readers.formats.pdf import PDFIUM_LOCK, read_pdf
from daemon.readers.formats.plain import read_markdown, read_text
from daemon.readers.formats.word import read_docx
from daemon.readers.language import detect_language, normalize_language_tag
from daemon.readers.sniff import looks_like_html, ole_is_encrypted, pdf_ends_early, sniff, zip_kind

__all__ = [
    "EXTRACTION_CODES",
    "PDFIUM_LOCK",
    "TRANSIENT_CODES",
    "ExtractedDocument",
    "ExtractionCode",
    "ExtractionError",
    "ExtractionStopped",
    "ProgressCallback",
    "read_document",
]

Reader = Callable[[bytes, Progress], ReaderOutput]
_TEXT_READERS: dict[str, Reader] = {"text": read_text, "markdown": read_markdown, "html": read_html}


def _hint(named: str | None) -> dict[str, str]:
    return {"format": named} if named else {}


def _zip_reader(data: bytes, named: str | None) -> Reader:
    try:
        with open_archive(data, named or "zip") as archive:
            kind = zip_kind(archive.zip)
    except ExtractionError as error:
        if error.code == "corrupt_file":  # a broken archive: say it in the words of the file's name
            raise _not_readable(named, "corrupt_file", error.detail) from None
        raise
    if kind == "epub":
        return read_epub
    if kind == "docx":
        return read_docx
    if kind == "zip" and named in ("docx", "epub"):
        raise ExtractionError("corrupt_file", detail="a zip without the parts of its format", **_hint(named))
    raise _not_readable(named, "unsupported_format", f"zip archive holding {kind}")


def _not_readable(named: str | None, code: ExtractionCode, detail: str) -> ExtractionError:
    """The error for content that is not what the name says: ``not_a_pdf`` for a ``.pdf``; ``code`` for a
    Word/EPUB name (damaged, or text: ``wrong_format``); ``unsupported_format`` for other names."""
    if named == "pdf":
        return ExtractionError("not_a_pdf", detail=detail)
    if named in ("docx", "epub"):
        return ExtractionError(code, detail=detail, **_hint(named))
    return ExtractionError("unsupported_format", detail=detail, **_hint(named))


def _choose_reader(path: Path, data: bytes) -> Reader:
    """The reader for ``data``: by content first, the file name only to read text and to word the error."""
    named = document_format(path)
    kind = sniff(data, named_text=named in _TEXT_READERS)
    if kind == "pdf":
        return read_pdf
    if kind == "zip":
        return _zip_reader(data, named)
    if kind == "ole":
        if ole_is_encrypted(data):
            raise ExtractionError("encrypted", format="docx", detail="OLE container with an EncryptedPackage")
        raise _not_readable(named, "unsupported_format", "OLE compound file (old Office format)")
    if kind == "text":
        if named in _TEXT_READERS:
            return _TEXT_READERS[named]
        if named is None and looks_like_html(data):
            return read_html
        raise _not_readable(named, "wrong_format", "text content")
    if data.count(0) == len(data):
        raise ExtractionError("zero_filled", size=len(data), detail="every byte is zero")
    raise _not_readable(named, "corrupt_file", "binary content of no format we read")


def read_document(
    path: Path,
    *,
    on_progress: Callable[[int, int], None] | None = None,
    stop_event: threading.Event | None = None,
    max_bytes: int = MAX_DOCUMENT_BYTES,
    on_recognising: Callable[[int, int], None] | None = None,
    language: str | None = None,
) -> ExtractedDocument:
    """Read a document's text.

    Args:
        path: The file. Its suffix is a hint; the content decides the format (a Word file named ``.pdf`` is
            read as Word; a text file named ``.pdf`` is refused with ``not_a_pdf``).
        on_progress: Called as ``on_progress(done, total)`` on this thread as the work advances: pages for a
            PDF, chapters for an EPUB, body blocks for Word, paragraphs for text and Markdown, 64 KiB blocks for
            HTML. Starts with ``(0, total)``, ends with ``(total, total)``; throttled to about 200 calls.
        stop_event: When set (from any thread), reading stops at the next page or part.
        max_bytes: Larger files are refused with ``too_large``.
        on_recognising: Called as ``on_recognising(done, total)`` on this thread when a PDF's pages that are
            pictures are recognised (:mod:`daemon.readers.formats.pdf_scanned`): ``(0, total)`` when it begins, then
            once a page.
        language: The language the user chose for the document (ISO 639-1): the trained data for recognition.

    Returns:
        The document's clean text and what was learnt about it.

    Raises:
        ExtractionError: The document cannot be read (``code`` says why; ``transient`` for a file that is busy,
            locked or still syncing: see :mod:`daemon.readers.files`). A damaged PDF is ``truncated`` only when
            its end marker is missing, a zip archive when its directory is (the evidence of a cut-off file).
        ExtractionStopped: ``stop_event`` was set.
    """
    progress = Progress(on_progress, stop_event, on_recognising)
    progress.check()
    path = Path(path)
    data = read_file_bytes(path, max_bytes)
    digest = hashlib.sha256(data).hexdigest()
    reader = _choose_reader(path, data)
    progress.check()
    try:
        output = read_pdf(data, progress, language=language) if reader is read_pdf else reader(data, progress)
    except ExtractionError as error:
        if error.code == "corrupt_file" and reader is read_pdf and pdf_ends_early(data):
            raise ExtractionError("truncated", format="pdf", size=len(data), detail=error.detail) from None
        raise
    language = detect_language(output.text) or normalize_language_tag(output.language_hint)
    return ExtractedDocument(
        text=output.text,
        format=output.format,
        page_count=output.page_count,
        char_count=len(output.text),
        language=language,
        title=output.title,
        sha256=digest,
        size_bytes=len(data),
        structure=output.structure,
    )

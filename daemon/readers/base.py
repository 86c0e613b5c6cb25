"""What every reader returns, and the progress/stop helper the readers share.

A reader is ``read(data: bytes, progress: Progress) -> ReaderOutput``, run synchronously on the caller's thread;
:meth:`Progress.advance` raises :class:`~daemon.readers.errors.ExtractionStopped` once the stop event is set.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from daemon.readers.errors import ExtractionStopped

__all__ = ["ExtractedDocument", "Progress", "ProgressCallback", "ReaderOutput"]

ProgressCallback = Callable[[int, int], None]
"""``on_progress(done, total)``: called on the reading thread; must be quick and must not raise. Also the shape
of ``on_recognising(page, pages)``: the count of pages recognised (:mod:`daemon.readers.formats.pdf_scanned`)."""


@dataclass(frozen=True, slots=True)
class ExtractedDocument:
    """The text of a document and what we learnt about it.

    Attributes:
        text: Clean UTF-8 text (NFC), paragraphs separated by one blank line, no leading/trailing blank lines.
        format: The format actually read (``"pdf"``, ``"docx"``, ``"epub"``, ``"text"``, ``"markdown"``,
            ``"html"``; the names of :data:`core.app.documents.formats.SUPPORTED_SUFFIXES`), from the content, not the
            name.
        page_count: Pages of a PDF; ``None`` for formats without pages.
        char_count: ``len(text)``.
        language: ISO 639-1 code of the text (``"pt"``, ``"en"``, ``"es"`` …) or ``None`` when unsure.
        title: From the document's metadata, else its first heading; ``None`` when it has neither.
        sha256: Hex SHA-256 of the file's bytes.
        size_bytes: Size of the file in bytes.
        structure: The pages and chapters of the text's paragraphs, as JSON
            (:class:`core.app.documents.structure.DocumentStructure`); ``None`` when the format has neither.
    """

    text: str
    format: str
    page_count: int | None
    char_count: int
    language: str | None
    title: str | None
    sha256: str
    size_bytes: int
    structure: str | None = None


@dataclass(frozen=True, slots=True)
class ReaderOutput:
    """What a reader found; the factory adds the hash, size, character count and language.

    Attributes:
        text: Clean text (see :attr:`ExtractedDocument.text`).
        format: The format read.
        page_count: Pages, for paged formats.
        title: Metadata title or first heading.
        language_hint: The language the document's metadata claims (any spelling), used only when detection
            from the text is unsure.
        structure: See :attr:`ExtractedDocument.structure`.
    """

    text: str
    format: str
    page_count: int | None = None
    title: str | None = None
    language_hint: str | None = None
    structure: str | None = None


class Progress:
    """Reports a real counter to ``on_progress`` and turns a set stop event into :class:`ExtractionStopped`.

    Calls are throttled to about :attr:`MAX_REPORTS` per document (every unit when there are fewer), but the
    first ``(0, total)`` and the last ``(total, total)`` are always reported. Not thread-safe: one reader
    thread owns it.
    """

    MAX_REPORTS = 200

    def __init__(
        self,
        on_progress: ProgressCallback | None,
        stop_event: threading.Event | None,
        on_recognising: ProgressCallback | None = None,
    ) -> None:
        self._on_progress = on_progress
        self._on_recognising = on_recognising
        self._stop_event = stop_event
        self._total = 0
        self._step = 1
        self._reported = -1
        self.done = 0

    @property
    def total(self) -> int:
        """Units in the document (0 until :meth:`start`)."""
        return self._total

    @property
    def stop_requested(self) -> bool:
        """Whether the stop event is set."""
        return self._stop_event is not None and self._stop_event.is_set()

    def check(self) -> None:
        """Raise :class:`ExtractionStopped` if the stop event is set."""
        if self.stop_requested:
            raise ExtractionStopped(self.done, self._total)

    def start(self, total: int) -> None:
        """Announce ``total`` units; reports ``(0, total)``. Raises :class:`ExtractionStopped` if asked to stop."""
        self.check()
        self._total = max(total, 0)
        self._step = max(1, -(-self._total // self.MAX_REPORTS))
        self.done = 0
        self._report()

    def retotal(self, total: int) -> None:
        """Grow the count of units to ``total`` once more work is found (pages to recognise), keeping those done."""
        self._total = max(total, self.done)
        self._step = max(1, -(-self._total // self.MAX_REPORTS))

    def recognising(self, done: int, total: int) -> None:
        """Say that ``done`` of the ``total`` pages to recognise are recognised (every call is passed on)."""
        if self._on_recognising is not None:
            self._on_recognising(done, total)

    def advance(self, done: int | None = None) -> None:
        """Record that ``done`` units (default: one more) are finished, report it, then check the stop event."""
        self.done = self.done + 1 if done is None else done
        if self.done >= self._total or self.done - self._reported >= self._step:
            self._report()
        self.check()

    def _report(self) -> None:
        if self._on_progress is not None and self.done != self._reported:
            self._reported = self.done
            self._on_progress(self.done, self._total)

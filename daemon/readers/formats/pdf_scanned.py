"""A PDF's pages that are pictures (scans, screenshots) read by text recognition (:mod:`daemon.readers.formats.ocr`).

Runs on the reader's thread: pages render one at a time under the PDFium lock, recognition runs on the
recogniser's threads. Progress units and timing: docs/design/readers.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]

from daemon.readers.base import Progress
from daemon.readers.formats import ocr
from daemon.readers.formats.pdf_text import enough_words, page_lines
from daemon.readers.language import detect_language

__all__ = ["RECOGNITION_SECONDS_PER_PAGE", "RECOGNITION_UNITS", "recognise_pages", "wants_recognition"]

RECOGNITION_UNITS = 500
"""A recognised page's weight on the reading counter, in text-layer pages (1.5 s against about 3 ms)."""
RECOGNITION_SECONDS_PER_PAGE = 1.5
"""Wall seconds a page expected of recognition before the first is done: ``bench/ocr_bench.py`` measured 1.7–2.3
CPU seconds a page, two pages at once on two cores (docs/performance.md)."""
_MAX_OBJECTS = 5000
_LANGUAGE_WORDS = 50


def wants_recognition(page: Any, text: str) -> bool:
    """Whether a page (raw PDFium handle; the lock held) is a picture to recognise: fewer than three words in its
    text layer and at least one image object among its first :data:`_MAX_OBJECTS` objects."""
    if enough_words(text, 3):
        return False
    count = min(pdfium_c.FPDFPage_CountObjects(page), _MAX_OBJECTS)
    return any(
        pdfium_c.FPDFPageObj_GetType(pdfium_c.FPDFPage_GetObject(page, n)) == pdfium_c.FPDF_PAGEOBJ_IMAGE
        for n in range(count)
    )


def recognise_pages(
    render: Callable[[int], Any], pages: list[list[str]], scanned: list[int], language: str | None, progress: Progress
) -> tuple[int, ...] | None:
    """Recognise the pages ``scanned`` (0-based), each as ``render(index)`` draws it (a grey PIL image at
    :data:`~daemon.readers.formats.ocr.OCR_DPI`, taking the PDFium lock itself), replacing their entries in ``pages`` by
    the recognised lines; the 1-based pages that gave words, or ``None`` when recognition cannot run here (no
    engine or trained data: the caller then says the pages are pictures it could not read).

    ``language`` (the user's choice) picks the trained data, else the language of the text layer when it has
    enough words, else the first recognised page's (see :class:`~daemon.readers.formats.ocr.PageRecogniser`)."""
    if not scanned:
        return ()
    if not ocr.available():
        return None
    if language is None:
        layer = "\n".join(line for lines in pages for line in lines)
        language = detect_language(layer) if enough_words(layer, _LANGUAGE_WORDS) else None
    base = len(pages)
    progress.retotal(base + RECOGNITION_UNITS * len(scanned))
    progress.recognising(0, len(scanned))
    found: list[int] = []
    done = 0

    def take(index: int, text: str) -> None:
        nonlocal done
        done += 1
        pages[index] = page_lines(text)
        if enough_words(text, 1):
            found.append(index + 1)
        progress.recognising(done, len(scanned))
        progress.advance(base + RECOGNITION_UNITS * done)

    with ocr.PageRecogniser(language, lambda: progress.stop_requested) as recogniser:
        for index in scanned:
            recogniser.give(index, render(index))
            for finished in recogniser.ready():
                take(*finished)
            progress.check()
        for finished in recogniser.pages():
            take(*finished)
        progress.check()
    return tuple(sorted(found))

"""Scanned PDFs made from real PDF pages, with the pages' own text layer kept as the reference.

:func:`scanned_pdf` renders pages of a real PDF at 200 dpi with pypdfium2 (grey), turns each a degree, adds
speckles and a slight blur (what a flatbed scanner or a phone gives a handout), and writes them as an image-only
PDF with Pillow (JPEG inside, as scanners write). :func:`clean_pdf` does the same without the damage.
:func:`reference_text` is what the pages say in their text layer, through our own reader's page cleanup, for the
character error rate (:func:`error_rate`) and the accented words (:func:`accented_words_right`).
"""

from __future__ import annotations

import io
import random
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pypdfium2 as pdfium  # type: ignore[import-untyped]
from PIL import Image, ImageFilter

from daemon.readers.formats.pdf import PDFIUM_LOCK
from daemon.readers.formats.pdf_text import page_lines, pages_to_text

__all__ = ["accented_words_right", "clean_pdf", "error_rate", "reference_text", "scanned_pdf"]

SCAN_DPI = 200
_WORD = re.compile(r"\w+")
_LETTERS = re.compile(r"\b[^\W\d_]+\b")
_ACCENTED = re.compile("[áàâãäçéèêëíìîïóòôõöúùûüñÁÀÂÃÄÇÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÑ]")
_LATIN = re.compile("[A-Za-zÀ-ÖØ-öø-ÿ]+")


def _render(path: Path, pages: Sequence[int]) -> list[Image.Image]:
    with PDFIUM_LOCK:
        document = pdfium.PdfDocument(str(path))
        try:
            images = []
            for index in pages:
                page = document[index]
                bitmap = page.render(scale=SCAN_DPI / 72, grayscale=True)
                images.append(bitmap.to_pil().copy())
                bitmap.close()
                page.close()
            return images
        finally:
            document.close()


def _damaged(image: Image.Image, seed: int) -> Image.Image:
    """``image`` turned 1°, speckled (0.2 % of the pixels dark, 0.2 % light) and blurred (radius 0.6 px)."""
    turned = image.rotate(1.0, resample=Image.Resampling.BICUBIC, expand=False, fillcolor=255)
    pixels = turned.load()
    width, height = turned.size
    chance = random.Random(seed)
    for _ in range(width * height // 250):
        x, y = chance.randrange(width), chance.randrange(height)
        pixels[x, y] = chance.choice((0, 40, 215, 255))  # type: ignore[index]
    return turned.filter(ImageFilter.GaussianBlur(0.6))


def _write(images: list[Image.Image], target: Path) -> Path:
    buffer = io.BytesIO()
    first, *rest = images
    first.save(buffer, format="PDF", resolution=float(SCAN_DPI), save_all=True, append_images=rest, quality=85)
    target.write_bytes(buffer.getvalue())
    return target


def scanned_pdf(source: Path, pages: Sequence[int], target: Path, seed: int = 1) -> Path:
    """An image-only PDF of ``source``'s 0-based ``pages``, scanned (turned, speckled, blurred), at ``target``."""
    images = [_damaged(image, seed + n) for n, image in enumerate(_render(source, pages))]
    return _write(images, target)


def clean_pdf(source: Path, pages: Sequence[int], target: Path) -> Path:
    """An image-only PDF of ``source``'s 0-based ``pages`` as rendered, without damage."""
    return _write(_render(source, pages), target)


def reference_text(source: Path, pages: Sequence[int]) -> str:
    """The text layer of ``source``'s 0-based ``pages``, cleaned as our PDF reader cleans it."""
    with PDFIUM_LOCK:
        document = pdfium.PdfDocument(str(source))
        try:
            lines = []
            for index in pages:
                page = document[index]
                textpage = page.get_textpage()
                lines.append(page_lines(textpage.get_text_range()))
                textpage.close()
                page.close()
        finally:
            document.close()
    return pages_to_text(lines)


def _normalised(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def _distance(left: str, right: str) -> int:
    """Levenshtein distance (two rows; pages of a few thousand characters)."""
    if len(left) < len(right):
        left, right = right, left
    previous = list(range(len(right) + 1))
    for i, a in enumerate(left, 1):
        current = [i]
        for j, b in enumerate(right, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a != b)))
        previous = current
    return previous[-1]


def error_rate(recognised: str, reference: str) -> float:
    """Character error rate of ``recognised`` against ``reference``, whitespace normalised (0.0 to 1.0 and more)."""
    truth = _normalised(reference)
    return _distance(_normalised(recognised), truth) / max(len(truth), 1)


def accented_words_right(recognised: str, reference: str) -> tuple[int, int]:
    """Of the reference's words with an accented Latin letter (``á``, ``ç``, ``õ`` …; words of letters only, so
    Greek symbols and a footnote number glued to a word are not counted), how many occur as often in
    ``recognised``: ``(right, total)``."""
    found = Counter(_WORD.findall(_normalised(recognised)))
    words = _LETTERS.findall(_normalised(reference))
    wanted = Counter(word for word in words if _ACCENTED.search(word) and _LATIN.fullmatch(word))
    right = sum(min(count, found[word]) for word, count in wanted.items())
    return right, sum(wanted.values())

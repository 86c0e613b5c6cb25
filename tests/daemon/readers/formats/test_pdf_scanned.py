"""Scanned pages: real corpus pages rendered at 200 dpi, turned, speckled and blurred into image-only PDFs, read
by text recognition (daemon.readers.formats.ocr) and compared with the pages' own text layer."""

from __future__ import annotations

import io
from pathlib import Path

import pypdf
import pytest

from core.app.documents.structure import DocumentStructure
from daemon.readers import ExtractionError, read_document
from daemon.readers.formats.ocr import TESSDATA_ENV
from daemon.readers.sandbox.isolated import ReaderPool
from daemon.readers.sandbox.limits import RECOGNITION_MEMORY_BYTES
from tests.daemon.corpus import Corpus
from tests.daemon.readers.scans import (
    accented_words_right,
    clean_pdf,
    error_rate,
    reference_text,
    scanned_pdf,
)

PORTUGUESE = "lshort-portuguese/pt-lshort.pdf"
PORTUGUESE_PAGE = 30  # 0-based: a page of prose with 49 accented words
ENGLISH_PAGE = 8  # of R-intro: a page of prose
BULLETS_PAGE = 18  # 0-based, of pt-lshort: prose with two lists of bullets


@pytest.fixture(scope="module")
def scanned_portuguese(corpus: Corpus, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    source = corpus.portuguese_pdf(PORTUGUESE)
    target = tmp_path_factory.mktemp("scans") / "digitalizado.pdf"
    return scanned_pdf(source, [PORTUGUESE_PAGE], target), reference_text(source, [PORTUGUESE_PAGE])


@pytest.mark.slow
def test_a_scanned_portuguese_page_is_recognised_within_the_error_goal(scanned_portuguese: tuple[Path, str]) -> None:
    path, reference = scanned_portuguese
    recognising: list[tuple[int, int]] = []
    document = read_document(path, on_recognising=lambda done, pages: recognising.append((done, pages)))
    assert error_rate(document.text, reference) <= 0.03
    right, accented = accented_words_right(document.text, reference)
    assert accented >= 20
    assert right / accented >= 0.97
    assert document.language == "pt"
    assert DocumentStructure.from_json(document.structure).recognised == (1,)
    assert recognising == [(0, 1), (1, 1)]


@pytest.mark.slow
def test_list_bullets_the_models_read_as_letters_come_out_as_bullets(corpus: Corpus, tmp_path: Path) -> None:
    """Tesseract's models have no "•" and read it as "e"; a lone mark set apart at a line's start is a bullet. The
    page of pt-lshort has two lists of bullets ("Exemplos: • O tamanho …") and lines that start with words."""
    source = corpus.portuguese_pdf(PORTUGUESE)
    document = read_document(clean_pdf(source, [BULLETS_PAGE], tmp_path / "lista.pdf"))
    reference = reference_text(source, [BULLETS_PAGE])
    assert document.text.count("• ") == reference.count("• ") >= 4
    assert "Exemplos: • O tamanho" in " ".join(document.text.split())
    assert error_rate(document.text, reference) <= 0.01


@pytest.mark.slow
def test_an_image_only_page_inside_a_text_pdf_is_recognised_and_marked(corpus: Corpus, tmp_path: Path) -> None:
    source = corpus.r_manual("R-intro")
    scanned = scanned_pdf(source, [ENGLISH_PAGE + 1], tmp_path / "scan.pdf")
    writer = pypdf.PdfWriter()
    text_pages = pypdf.PdfReader(source)
    writer.add_page(text_pages.pages[ENGLISH_PAGE])
    writer.add_page(pypdf.PdfReader(scanned).pages[0])
    writer.add_page(text_pages.pages[ENGLISH_PAGE + 2])
    buffer = io.BytesIO()
    writer.write(buffer)
    mixed = tmp_path / "mixed.pdf"
    mixed.write_bytes(buffer.getvalue())

    document = read_document(mixed)

    structure = DocumentStructure.from_json(document.structure)
    assert structure.recognised == (2,)
    assert structure.page_count == 3
    page_two = "\n\n".join(
        paragraph
        for paragraph, (first, last) in zip(document.text.split("\n\n"), structure.paragraph_pages, strict=True)
        if first <= 2 <= last
    )
    assert error_rate(page_two, reference_text(source, [ENGLISH_PAGE + 1])) <= 0.05  # its edges join pages 1 and 3


@pytest.mark.slow
def test_a_scanned_pdf_is_recognised_in_a_reader_process_within_its_memory_limit(
    scanned_portuguese: tuple[Path, str],
) -> None:
    path, reference = scanned_portuguese
    pool = ReaderPool(spare=0)
    try:
        recognising: list[tuple[int, int]] = []
        document = pool.read(path, on_recognising=lambda done, pages: recognising.append((done, pages)))
        report = pool.last_report
    finally:
        pool.close()
    assert error_rate(document.text, reference) <= 0.03
    assert recognising[0] == (0, 1) and recognising[-1] == (1, 1)
    assert report is not None
    assert 0 < report.child_peak_rss_kib * 1024 < RECOGNITION_MEMORY_BYTES


def test_scanned_pages_are_refused_as_pictures_only_where_recognition_cannot_run(
    scanned_portuguese: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TESSDATA_ENV, str(tmp_path))  # a copy of the app without the trained data
    with pytest.raises(ExtractionError) as refused:
        read_document(scanned_portuguese[0])
    assert refused.value.code == "no_text"
    assert refused.value.values["format"] == "pdf_scanned"
    assert "OCR" in refused.value.user_message("en")

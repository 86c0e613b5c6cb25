"""PDFs: the real corpus and a PDF whose every line we know; progress, stopping, and one thread at a time."""

from __future__ import annotations

import re
import threading
import time
import unicodedata
from pathlib import Path

import pypdf
import pytest

from daemon.readers import ExtractedDocument, ExtractionStopped, read_document
from daemon.readers.formats.pdf import PDFIUM_LOCK
from tests.daemon.corpus import Corpus
from tests.daemon.readers.samples import ENGLISH, PORTUGUESE, hyphenate, wrap, write_text_pdf
from tests.daemon.readers.support import ProgressLog
from tests.waiting import wait_until

LANGUAGES = {"auto-multiple-choice.fr.pdf": "fr", "auto-multiple-choice.ja.pdf": "ja"}


def assert_clean(text: str) -> None:
    assert text == text.strip() and "\n\n\n" not in text and "\r" not in text
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f\ufffe\ufeff\u00ad]", text)
    assert not re.search(r"[ \t]\n", text), "trailing spaces"
    assert unicodedata.is_normalized("NFC", text)


def words(text: str) -> set[str]:
    return {word.lower() for word in re.findall(r"[^\W\d_]{4,}", text)}


def test_every_corpus_pdf_is_read_with_its_pages_language_and_clean_text(corpus: Corpus) -> None:
    pdfs = corpus.pdfs()
    assert len(pdfs) >= 15
    for path in pdfs:
        document = read_document(path)
        assert document.format == "pdf"
        if path.name != "refman.pdf":  # 2,415 pages: pypdf needs seconds to count them; checked below
            assert document.page_count == len(pypdf.PdfReader(path).pages), path.name
        assert document.language == LANGUAGES.get(path.name, "en"), path.name
        assert document.char_count == len(document.text) > 10_000
        assert document.size_bytes == path.stat().st_size
        assert document.title, path.name
        assert_clean(document.text)


def test_the_text_agrees_with_an_independent_extractor(corpus: Corpus) -> None:
    for path in (corpus.camlidl_pdf, corpus.r_manual("R-FAQ")):
        ours = words(read_document(path).text)
        theirs = words(" ".join(page.extract_text() for page in pypdf.PdfReader(path).pages))
        assert len(ours & theirs) >= 0.9 * len(theirs), path.name
        assert len(ours & theirs) >= 0.9 * len(ours), path.name


def test_lines_are_joined_into_paragraphs_and_hyphenated_words_rejoined(corpus: Corpus) -> None:
    intro = read_document(corpus.r_manual("R-intro"))
    assert intro.title == "An Introduction to R"
    assert (
        "\n\nR is an integrated suite of software facilities for data manipulation, calculation and graphical "
        "display. Among other things it has\n\n• an effective data handling and storage facility,\n\n"
    ) in intro.text
    assert "\n\n1.1 The R environment\n\n" in intro.text
    assert "\n\n1.8 R commands, case sensitivity, etc … 5\n\n" in intro.text  # a contents line, dot leaders gone
    faq = read_document(corpus.r_manual("R-FAQ")).text
    assert "“R for Windows FAQ”" in faq  # "Win-" / "dows" across a line break in the PDF
    assert "Cham-bers" not in faq and "Chambers" in faq


def test_a_pdf_set_in_old_tex_fonts_reads_with_its_accents_composed(corpus: Corpus) -> None:
    beamer = read_document(corpus.portuguese_pdf("beamer-tut-pt/tutorialbeamer.pdf"))
    assert beamer.text.startswith("Tutorial de Beamer: apresentações em LATEX\n\n")
    assert "1 Introdução\n\nBeamer é uma classe LATEX para produzir apresentações." in beamer.text
    assert "disponível" in beamer.text and "seqüência" in beamer.text and "suporte à língua" in beamer.text
    assert not re.search("[\u00b4\u02dc\u00b8\u02c6\u00a8][A-Za-z\u0131]", beamer.text)
    assert beamer.language == "pt"


def portuguese_pdf(folder: Path) -> tuple[Path, str]:
    """A 4-page Portuguese PDF with a running header, page-number footers, a hyphenated word and a paragraph
    running over a page break; and the text it must give."""
    paragraphs = [wrap(p) for p in PORTUGUESE]
    paragraphs[1] = hyphenate(paragraphs[1])
    split = paragraphs[4]
    pages = [[paragraphs[0], paragraphs[1]], [paragraphs[2], paragraphs[3]], [split[:1]], [split[1:], paragraphs[5]]]
    path = write_text_pdf(
        folder / "ciclo.pdf",
        pages,
        title="O ciclo da água",
        header="Guia de estudo — Ciências",
        footer="Página {page} de {pages}",
    )
    return path, "\n\n".join(PORTUGUESE)


def test_a_portuguese_pdf_gives_back_exactly_its_paragraphs(tmp_path: Path, progress: ProgressLog) -> None:
    path, expected = portuguese_pdf(tmp_path)
    document = read_document(path, on_progress=progress)
    assert document.text == expected
    assert (document.page_count, document.language, document.title) == (4, "pt", "O ciclo da água")
    progress.assert_complete(4)
    assert progress.calls == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]


def test_an_english_pdf_without_a_title_is_titled_by_its_first_line(tmp_path: Path) -> None:
    pages = [[["Photosynthesis"]] + [wrap(p) for p in ENGLISH]]
    document = read_document(write_text_pdf(tmp_path / "photo.pdf", pages))
    assert document.title == "Photosynthesis"
    assert document.language == "en"
    assert document.text == "\n\n".join(["Photosynthesis", *ENGLISH])


def test_progress_counts_pages_up_to_the_total_on_the_reading_thread(corpus: Corpus, progress: ProgressLog) -> None:
    document = read_document(corpus.r_manual("R-exts"), on_progress=progress)
    assert document.page_count is not None
    progress.assert_complete(document.page_count)
    assert len(progress.calls) <= 205  # throttled for long documents
    assert progress.threads == {threading.get_ident()}


def test_a_stop_request_stops_a_long_pdf_between_pages(corpus: Corpus, progress: ProgressLog) -> None:
    stop = threading.Event()

    def report(done: int, total: int) -> None:
        progress(done, total)
        if done >= 30:
            stop.set()

    with pytest.raises(ExtractionStopped) as stopped:
        read_document(corpus.r_manual("refman"), on_progress=report, stop_event=stop)
    assert (stopped.value.done, stopped.value.total) == (progress.done, 2415)
    assert 30 <= progress.done <= 2 * 2415 // 200 + 30  # the next report after the stop, not the whole book


def test_a_stop_from_another_thread_ends_reading_promptly(
    corpus: Corpus, progress: ProgressLog, joined_threads: list[threading.Thread]
) -> None:
    stop = threading.Event()
    outcome: list[BaseException | ExtractedDocument] = []

    def work() -> None:
        try:
            outcome.append(read_document(corpus.r_manual("refman"), on_progress=progress, stop_event=stop))
        except BaseException as exc:
            outcome.append(exc)

    thread = threading.Thread(target=work)
    joined_threads.append(thread)
    thread.start()
    wait_until(lambda: progress.done >= 24, what="the first pages", timeout=30.0, interval=0.005)
    stop.set()
    asked = time.monotonic()
    thread.join(timeout=30)
    assert time.monotonic() - asked < 1.0
    assert isinstance(outcome[0], ExtractionStopped)
    assert outcome[0].done < 2415


def test_two_threads_reading_at_once_both_succeed(corpus: Corpus, joined_threads: list[threading.Thread]) -> None:
    paths = [corpus.r_manual("R-exts"), corpus.r_manual("R-intro"), corpus.amc_manual("fr")]
    alone = [read_document(path) for path in paths]
    results: dict[int, ExtractedDocument | BaseException] = {}
    logs = [ProgressLog() for _ in paths]
    start = threading.Barrier(len(paths))

    def work(index: int) -> None:
        start.wait()
        try:
            results[index] = read_document(paths[index], on_progress=logs[index])
        except BaseException as exc:
            results[index] = exc

    for index in range(len(paths)):
        joined_threads.append(threading.Thread(target=work, args=(index,)))
        joined_threads[-1].start()
    for thread in joined_threads:
        thread.join(timeout=60)
    assert [results[index] for index in range(len(paths))] == alone
    for log, document in zip(logs, alone, strict=True):
        assert document.page_count is not None
        log.assert_complete(document.page_count)


class CountingEvent(threading.Event):
    """A stop event that counts how often the reader looks at it."""

    def __init__(self) -> None:
        super().__init__()
        self.looks = 0

    def is_set(self) -> bool:
        self.looks += 1
        return super().is_set()


def test_a_reader_waits_for_the_pdfium_lock_between_pages_and_can_be_stopped_while_waiting(
    corpus: Corpus, progress: ProgressLog, joined_threads: list[threading.Thread]
) -> None:
    stop = CountingEvent()
    outcome: list[BaseException | ExtractedDocument] = []

    def work() -> None:
        try:
            outcome.append(read_document(corpus.r_manual("refman"), on_progress=progress, stop_event=stop))
        except BaseException as exc:
            outcome.append(exc)

    joined_threads.append(threading.Thread(target=work))
    joined_threads[0].start()
    wait_until(lambda: progress.done >= 12, what="the first pages", timeout=30.0, interval=0.005)
    with PDFIUM_LOCK:  # another PDFium user (the reader releases the lock between pages)
        held_at, looks = progress.done, stop.looks
        wait_until(
            lambda: stop.looks >= looks + 3,
            what="the reader to poll while it waits for the lock",
            timeout=30.0,
            interval=0.005,
        )
        assert progress.done == held_at, "a page was read while another thread held the PDFium lock"
        stop.set()
        looks = stop.looks
        wait_until(
            lambda: stop.looks > looks,
            what="the reader to see the stop request while it waits",
            timeout=30.0,
            interval=0.005,
        )
    # The reader stopped waiting; it closes the document once it has the lock again.
    joined_threads[0].join(timeout=30)
    assert isinstance(outcome[0], ExtractionStopped)
    assert progress.done == held_at


def test_a_manuals_chapters_are_its_outline_entries_at_the_pages_pdfium_names_for_them(corpus: Corpus) -> None:
    import pypdfium2 as pdfium

    from core.app.documents.structure import DocumentStructure, paragraphs

    path = corpus.r_manual("refman")  # 1,420 bookmarks over 2,415 pages
    document = read_document(path)
    structure = DocumentStructure.from_json(document.structure)
    with PDFIUM_LOCK:  # a fresh document, no page loaded: each destination's page found by walking the page tree
        pdf = pdfium.PdfDocument(path)
        try:
            outline = [(b.get_title(), b.get_dest().get_index(), b.level) for b in pdf.get_toc(max_depth=4)]
        finally:
            pdf.close()
    assert len(structure.chapters) > 1000
    spans = structure.paragraph_pages
    named = {(title.strip(), index + 1, level + 1) for title, index, level in outline}
    for chapter in structure.chapters:
        first_page = spans[chapter.paragraph][0]
        assert any(t == chapter.title and first_page >= p and lv == chapter.level for t, p, lv in named), chapter
    assert len(paragraphs(document.text)) == len(spans)

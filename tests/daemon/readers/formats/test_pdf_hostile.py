"""Hostile PDFs (objects nested 100,000 deep, a looping 100,000-entry outline, 50,000 blank pages) are read in
bounded time, without flooding the log, and refused with the plain "no text" sentence."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pytest

from core.app.messages.sentences import message
from daemon.readers import ExtractionError, read_document
from tests.daemon.readers.hostile_pdf import BLANK_PAGES, build_hostile_pdfs, deeply_nested_pdf
from tests.daemon.readers.support import BadInput, ProgressLog

MAX_SECONDS = 15.0


@pytest.fixture(scope="module")
def hostile_pdfs(tmp_path_factory: pytest.TempPathFactory) -> list[BadInput]:
    return build_hostile_pdfs(tmp_path_factory.mktemp("hostile-pdfs"))


def test_the_hostile_pdfs_are_small_files_that_pdfium_opens(hostile_pdfs: list[BadInput]) -> None:
    sizes = {item.name: item.path.stat().st_size for item in hostile_pdfs}
    assert sizes["blank-50000-pages.pdf"] < 512 * 1024
    assert sizes["deeply-nested.pdf"] < 24 * 1024 * 1024


def test_each_hostile_pdf_is_refused_as_text_less_in_bounded_time_with_a_plain_sentence_and_a_quiet_log(
    hostile_pdfs: list[BadInput], caplog: pytest.LogCaptureFixture
) -> None:
    for item in hostile_pdfs:
        progress = ProgressLog()
        caplog.clear()
        started = time.monotonic()
        with caplog.at_level(logging.DEBUG), pytest.raises(ExtractionError) as caught:
            read_document(item.path, on_progress=progress)
        seconds = time.monotonic() - started
        error = caught.value
        assert error.code == item.code and not error.transient, (item.name, error.detail)
        assert seconds < MAX_SECONDS, (item.name, seconds)
        assert len(caplog.records) < 10, (item.name, [record.getMessage() for record in caplog.records[:5]])
        for language in ("pt_BR", "en"):
            assert error.user_message(language) == message("blank_pages", language, **error.values)
    blank = next(item for item in hostile_pdfs if item.name == "blank-50000-pages.pdf")
    with pytest.raises(ExtractionError) as caught:
        progress = ProgressLog()
        read_document(blank.path, on_progress=progress)
    progress.assert_complete(BLANK_PAGES)
    assert f"in {BLANK_PAGES} pages" in caught.value.detail


def test_the_line_of_text_on_a_deeply_nested_page_with_a_looping_outline_is_read(tmp_path: Path) -> None:
    line = "The water cycle moves water between the oceans, the air and the land every single day."
    path = deeply_nested_pdf(tmp_path / "deep-with-text.pdf", text=line)
    started = time.monotonic()
    document = read_document(path)
    assert time.monotonic() - started < MAX_SECONDS
    assert document.text == line and document.page_count == 1

"""Adding documents (:mod:`core.app.documents.adding`): what a path is, told in the reader's language, and the job it
makes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from core import JobStore
from core.app.documents.adding import add_document, ingest_params, path_problem
from core.app.documents.formats import ADDED_KEY, MAX_DOCUMENT_BYTES
from core.app.messages.sentences import message, render
from core.stored_messages import decode


def code_of(path: Path) -> str | None:
    problem = path_problem(path)
    decoded = None if problem is None else decode(problem)
    return None if decoded is None else decoded.code


def test_a_readable_document_has_no_problem_and_a_missing_one_is_not_found(tmp_path: Path) -> None:
    good = tmp_path / "notes.md"
    good.write_text("# Notes\n", encoding="utf-8")
    assert path_problem(good) is None
    assert code_of(tmp_path / "gone.pdf") == "add_not_found"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_a_device_and_a_folder_are_named_for_what_they_are_without_opening_them(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)  # opening it would wait for a writer: the check must only look
    folder = tmp_path / "book.pdf"
    folder.mkdir()
    assert [code_of(fifo), code_of(Path("/dev/null")), code_of(folder)] == ["add_pipe", "add_device", "add_folder"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize("language", ["en", "pt_BR"])
def test_each_problem_reads_as_a_sentence_naming_the_path_in_the_readers_language(
    tmp_path: Path, language: str
) -> None:
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    problem = path_problem(fifo)
    assert problem is not None
    shown = render(problem, language)
    assert shown == message("add_pipe", language, path=str(fifo))
    assert str(fifo) in shown and "FIFO" in shown and "{" not in shown


def test_an_unknown_kind_and_an_oversized_file_are_refused(tmp_path: Path) -> None:
    picture = tmp_path / "photo.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n")
    huge = tmp_path / "huge.txt"
    with huge.open("wb") as file:
        file.truncate(MAX_DOCUMENT_BYTES + 1)  # sparse: no disk used
    assert [code_of(picture), code_of(huge)] == ["add_unsupported", "add_too_large"]


def test_the_guides_language_is_kept_only_when_a_guide_is_wanted(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_text("text", encoding="utf-8")
    guide = ingest_params(path, only_extract=False, language="pt_BR")
    text_only = ingest_params(path, only_extract=True, language="pt_BR")
    assert guide["language"] == "pt_BR" and "language" not in text_only
    assert guide["path"] == str(path) and guide[ADDED_KEY]["size"] == 4
    assert "language" not in ingest_params(path, only_extract=False, language="")


async def test_adding_a_document_queues_its_ingest_job_titled_by_the_file(
    store: JobStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "sub").mkdir()
    path = tmp_path / "sub" / "Biology.pdf"
    path.write_bytes(b"%PDF-1.7")
    monkeypatch.chdir(tmp_path / "sub")
    job = await add_document(store, Path("../sub/Biology.pdf"), language="en")
    row = await store.get(job.id)
    assert (row.kind, row.status, row.title) == ("ingest", "queued", "Biology.pdf")
    assert row.params["path"] == str(path) and row.params["language"] == "en" and row.params["only_extract"] is False

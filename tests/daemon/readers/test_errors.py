"""Bad documents are refused with the right code and a sentence a person understands, in Portuguese and English."""

from __future__ import annotations

import os
import tempfile
import threading
from pathlib import Path

import pytest

from core.app.documents.formats import MAX_DOCUMENT_BYTES
from core.app.documents.structure import DocumentStructure
from core.app.messages.sentences import message
from daemon.readers import EXTRACTION_CODES, ExtractionError, ExtractionStopped, read_document
from tests.daemon.corpus import Corpus
from tests.daemon.readers.badfiles import BadInput, image_only_pdf
from tests.daemon.readers.hostile_pdf import blank_pages_pdf, write_raw_pdf
from tests.daemon.readers.samples import ENGLISH, write_docx
from tests.daemon.readers.support import ProgressLog

PDF_PASSWORD = "Este PDF está protegido por senha. Remova a senha e adicione o arquivo de novo."
TECHNICAL_WORDS = ("error", "exception", "traceback", "pdfium", "zip", "xml", "none", "{", "}", "errno")


def refusal(path: Path, max_bytes: int = MAX_DOCUMENT_BYTES) -> ExtractionError:
    with pytest.raises(ExtractionError) as caught:
        read_document(path, max_bytes=max_bytes)
    return caught.value


def assert_plain(sentence: str) -> None:
    assert sentence[:1].isupper() and sentence.endswith("."), sentence
    assert "\n" not in sentence and "  " not in sentence, sentence
    assert not [word for word in TECHNICAL_WORDS if word in sentence.lower()], sentence


def test_every_bad_document_is_refused_with_its_code(bad_inputs: list[BadInput]) -> None:
    wrong = {}
    for item in bad_inputs:
        try:
            document = read_document(item.path)
        except ExtractionError as error:
            if error.code != item.code:
                wrong[item.name] = f"{error.code} ({error.detail}), expected {item.code}"
        else:
            wrong[item.name] = f"read as {document.format} ({document.char_count} characters), expected {item.code}"
    assert not wrong, wrong
    not_files = {"file_deleted", "file_busy", "file_unreadable", "too_large"}  # tested below: no file shows them
    # Only a reader process under limits shows these (tests/daemon/readers/sandbox/test_reader_process.py).
    process_only = {"reader_crashed", "reader_out_of_memory", "reader_killed", "reader_too_slow", "text_too_large"}
    assert {item.code for item in bad_inputs} == set(EXTRACTION_CODES) - not_files - process_only


def test_every_refusal_has_a_plain_sentence_in_portuguese_and_english(bad_inputs: list[BadInput]) -> None:
    for item in bad_inputs:
        error = refusal(item.path)
        portuguese, english = error.user_message("pt_BR"), error.user_message("en")
        assert_plain(portuguese)
        assert_plain(english)
        assert portuguese != english
        assert str(error) == english == message(error.code, "en", **error.values)
        assert error.detail not in (portuguese, english)
        assert error.transient is False


def test_a_password_protected_pdf_says_to_remove_the_password(bad_inputs: list[BadInput]) -> None:
    pdfs = [item for item in bad_inputs if item.code == "encrypted" and item.name.endswith(".pdf")]
    assert len(pdfs) >= 15
    for item in pdfs:
        error = refusal(item.path)
        assert error.user_message("pt_BR") == PDF_PASSWORD
        assert "password" in error.user_message("en")


def test_protected_epubs_and_word_files_speak_of_drm_and_passwords(bad_inputs: list[BadInput]) -> None:
    items = {item.name: item.path for item in bad_inputs}
    for name in ("drm.epub", "adobe-drm.epub"):
        assert "DRM" in refusal(items[name]).user_message("pt_BR")
    assert "senha" in refusal(items["encrypted.docx"]).user_message("pt_BR")


def test_a_pdf_of_pictures_of_pages_is_read_by_text_recognition_not_refused(corpus: Corpus, tmp_path: Path) -> None:
    document = read_document(image_only_pdf(corpus.r_manual("R-intro"), tmp_path / "scanned.pdf"))
    assert DocumentStructure.from_json(document.structure).recognised == (1, 2, 3)
    assert "Introduction to R" in document.text


def test_a_pdf_that_draws_only_shapes_says_it_has_no_words_and_one_that_draws_nothing_says_it_is_blank(
    tmp_path: Path,
) -> None:
    drawing = b"0.5 w 72 72 m 500 700 l S 100 100 200 300 re f"
    shapes = write_raw_pdf(
        tmp_path / "shapes.pdf",
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << >> /Contents 4 0 R >>",
            b"<< /Length %d >>\nstream\n%b\nendstream" % (len(drawing), drawing),
        ],
    )
    drawn = refusal(shapes)
    assert drawn.code == "no_text" and drawn.values == {"format": "pdf"}
    assert "desenhos" in drawn.user_message("pt_BR") and "drawings" in drawn.user_message("en")
    blank = refusal(blank_pages_pdf(tmp_path / "blank.pdf", pages=3))
    assert blank.code == "blank_pages" and blank.values == {"format": "pdf"}
    for language in ("pt_BR", "en"):
        assert_plain(blank.user_message(language))
        assert "OCR" not in blank.user_message(language)
    assert "em branco" in blank.user_message("pt_BR") and "blank" in blank.user_message("en")


def test_a_missing_file_is_file_deleted(tmp_path: Path) -> None:
    assert refusal(tmp_path / "gone.pdf").code == "file_deleted"
    (tmp_path / "not-a-folder.txt").write_text("a file, not a folder", encoding="utf-8")
    assert refusal(tmp_path / "not-a-folder.txt" / "inside.pdf").code == "file_deleted"


def test_a_folder_is_file_unreadable(tmp_path: Path) -> None:
    folder = tmp_path / "chapter.pdf"
    folder.mkdir()
    assert refusal(folder).code == "file_unreadable"


def _read_as_nobody(path: Path) -> str:
    """Read ``path`` in a child process that has dropped root's rights; the error code it got."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        code = "read"
        try:
            os.setgid(65534)
            os.setuid(65534)
            read_document(path)
        except ExtractionError as error:
            code = error.code
        except BaseException as error:
            code = f"unexpected {type(error).__name__}"
        os.write(write_end, code.encode())
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        answer = pipe.read().decode()
    os.waitpid(pid, 0)
    return answer


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs POSIX permissions")
def test_a_file_we_may_not_read_is_file_unreadable() -> None:
    with tempfile.TemporaryDirectory() as folder:
        Path(folder).chmod(0o755)  # others may look inside the folder, but not into the file
        path = write_docx(Path(folder) / "private.docx", paragraphs=ENGLISH)
        path.chmod(0)
        if os.geteuid() == 0:  # root reads anything: ask a process without root's rights
            assert _read_as_nobody(path) == "file_unreadable"
        else:
            assert refusal(path).code == "file_unreadable"


def test_a_file_over_the_size_limit_is_too_large_and_says_the_limit(corpus: Corpus) -> None:
    error = refusal(corpus.r_manual("R-intro"), max_bytes=300 * 1024)
    assert error.code == "too_large"
    assert error.values == {"size_mb": 1, "max_mb": 1}
    assert error.user_message("pt_BR").startswith(
        "Este arquivo é grande demais (1 MB). O StudyJobs lê arquivos de até 1 MB"
    )


def test_a_stop_requested_before_reading_reads_nothing(corpus: Corpus, progress: ProgressLog) -> None:
    stop = threading.Event()
    stop.set()
    with pytest.raises(ExtractionStopped):
        read_document(corpus.r_manual("refman"), on_progress=progress, stop_event=stop)
    assert progress.calls == []


def test_pdfs_with_only_an_owner_password_are_read(corpus: Corpus) -> None:
    for name in (
        "r2-owner-password.pdf",
        "r3-empty-password.pdf",
        "r4-owner-password.pdf",
        "r4-aes-v2-no-key-length.pdf",
        "r5-owner-password.pdf",
        "r6-owner-password.pdf",
        "r6-empty-password.pdf",
    ):
        document = read_document(corpus.pypdf(f"encryption/{name}"))
        assert document.text.startswith("pdf encryption test"), name


def test_the_content_decides_the_format_not_the_name(corpus: Corpus, tmp_path: Path) -> None:
    word = write_docx(tmp_path / "notes.docx", paragraphs=ENGLISH)
    renamed_word = tmp_path / "notes.pdf"
    renamed_word.write_bytes(word.read_bytes())
    renamed_pdf = tmp_path / "manual.txt"
    renamed_pdf.write_bytes(corpus.camlidl_pdf.read_bytes())
    unnamed_html = tmp_path / "page"
    unnamed_html.write_bytes(corpus.camlidl_html[1].read_bytes())
    assert read_document(renamed_word).format == "docx"
    assert read_document(renamed_pdf).format == "pdf"
    assert read_document(unnamed_html).format == "html"

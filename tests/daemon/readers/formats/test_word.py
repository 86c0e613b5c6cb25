"""Word documents: body text in order (paragraphs, tables, content controls), title, language, progress."""

from __future__ import annotations

import hashlib
from pathlib import Path

from daemon.readers import read_document
from tests.daemon.readers.samples import ENGLISH, PORTUGUESE, write_docx
from tests.daemon.readers.support import ProgressLog

TABLE = [["Etapa", "Onde acontece"], ["Evaporação", "Oceanos, lagos e rios"], ["Condensação", "Atmosfera"]]


def test_a_portuguese_word_document_gives_its_body_in_order(tmp_path: Path, progress: ProgressLog) -> None:
    path = write_docx(
        tmp_path / "ciclo.docx",
        title="O ciclo da água",
        heading="Introdução",
        paragraphs=PORTUGUESE,
        table=TABLE,
        in_content_control="Resumo: a água circula sem parar entre o mar, o ar e a terra.",
    )
    document = read_document(path, on_progress=progress)
    expected = [
        "Introdução",
        *PORTUGUESE,
        "Etapa | Onde acontece\nEvaporação | Oceanos, lagos e rios\nCondensação | Atmosfera",
        "Resumo: a água circula sem parar entre o mar, o ar e a terra.",
    ]
    assert document.text == "\n\n".join(expected)
    assert (document.format, document.page_count, document.language) == ("docx", None, "pt")
    assert document.title == "O ciclo da água"
    assert document.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert document.size_bytes == path.stat().st_size
    progress.assert_complete(len(expected))


def test_without_a_title_property_the_first_heading_is_the_title(tmp_path: Path) -> None:
    path = write_docx(tmp_path / "photo.docx", heading="Photosynthesis", paragraphs=ENGLISH)
    document = read_document(path)
    assert document.title == "Photosynthesis"
    assert document.language == "en"
    assert document.text.startswith("Photosynthesis\n\nPhotosynthesis is the process")


def test_the_language_property_is_used_when_the_text_is_too_short_to_tell(tmp_path: Path) -> None:
    path = write_docx(tmp_path / "curto.docx", paragraphs=["Capítulo um"], language="pt-BR")
    assert read_document(path).language == "pt"
    unlabelled = write_docx(tmp_path / "short.docx", paragraphs=["Chapter one"])
    assert read_document(unlabelled).language is None

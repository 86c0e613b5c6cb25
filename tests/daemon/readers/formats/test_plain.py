"""Plain text, Markdown and HTML: encodings, clean paragraphs, titles, scripts and styles dropped."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from daemon.readers import read_document
from tests.daemon.corpus import Corpus
from tests.daemon.readers.samples import ENGLISH, PORTUGUESE
from tests.daemon.readers.support import ProgressLog

TEXT = "\n\n".join(PORTUGUESE)
ENCODINGS = {
    "utf-8": TEXT.encode("utf-8"),
    "utf-8 with BOM": b"\xef\xbb\xbf" + TEXT.encode("utf-8"),
    "utf-16-le with BOM": b"\xff\xfe" + TEXT.encode("utf-16-le"),
    "utf-16-be with BOM": b"\xfe\xff" + TEXT.encode("utf-16-be"),
    "utf-16-le without BOM": TEXT.encode("utf-16-le"),
    "windows-1252": TEXT.replace("—", "–").encode("cp1252"),
    "latin-1": TEXT.encode("latin-1", errors="replace"),
}


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_text_in_every_usual_encoding_reads_the_same(encoding: str, tmp_path: Path) -> None:
    path = tmp_path / "ciclo.txt"
    path.write_bytes(ENCODINGS[encoding])
    document = read_document(path)
    assert document.text == TEXT.replace("—", "–") if encoding == "windows-1252" else TEXT
    assert (document.format, document.language, document.page_count) == ("text", "pt", None)


def test_latin1_text_with_bytes_windows_1252_lacks_falls_back_to_latin1(tmp_path: Path) -> None:
    path = tmp_path / "old.txt"
    path.write_bytes("Relatório anual\n\n".encode("latin-1") + b"Controle \x81 interno, " + ENGLISH[0].encode())
    assert read_document(path).text.startswith("Relatório anual\n\nControle  interno, Photosynthesis")


def test_text_is_cleaned_into_paragraphs(tmp_path: Path, progress: ProgressLog) -> None:
    messy = "\r\n".join(
        [
            "Resumo   ",
            "",
            "",
            "",
            unicodedata.normalize("NFD", "Evaporação e condensação\u00ad são etapas\u200b do ciclo.") + "\t",
            "Segunda linha do mesmo parágrafo.",
            "   ",
            "Fim.",
        ]
    )
    path = tmp_path / "notas.txt"
    path.write_bytes(messy.encode("utf-8"))
    document = read_document(path, on_progress=progress)
    assert document.text == (
        "Resumo\n\nEvaporação e condensação são etapas do ciclo.\nSegunda linha do mesmo parágrafo.\n\nFim."
    )
    assert document.title == "Resumo"
    progress.assert_complete(3)


def test_markdown_keeps_its_markup_and_its_first_heading_is_the_title(tmp_path: Path) -> None:
    path = tmp_path / "guia.md"
    path.write_text(
        "---\n\n# O ciclo da água\n\n" + "\n\n".join(f"- {p}" for p in PORTUGUESE[:2]) + "\n\n## Evaporação\n",
        encoding="utf-8",
    )
    document = read_document(path)
    assert document.format == "markdown"
    assert document.title == "O ciclo da água"
    assert document.text.startswith("---\n\n# O ciclo da água\n\n- O ciclo da água descreve")
    assert document.language == "pt"


def test_html_drops_scripts_and_styles_and_keeps_structure(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_bytes(
        (
            '<!DOCTYPE html><html lang="pt-BR"><head><meta charset="windows-1252"><title>Ciclo &amp; água</title>'
            "<style>p { color: red }</style><script>var texto = 'não';</script></head><body>"
            "<nav hidden>Menu escondido</nav><h1>O ciclo</h1>"
            f"<p>{PORTUGUESE[0]}<br>{PORTUGUESE[1]}</p><ul><li>Evaporação<li>Condensação</ul>"
            "<table><tr><th>Etapa<th>Lugar<tr><td>Chuva<td>Céu</table><p>Fim &mdash; até logo.</p></body></html>"
        ).encode("cp1252", errors="replace")
    )
    document = read_document(path)
    assert document.text == "\n\n".join(
        [
            "O ciclo",
            f"{PORTUGUESE[0]}\n{PORTUGUESE[1]}",
            "Evaporação",
            "Condensação",
            "Etapa | Lugar\nChuva | Céu",
            "Fim — até logo.",
        ]
    )
    assert (document.format, document.title, document.language) == ("html", "Ciclo & água", "pt")


def test_real_html_pages_read_as_text(corpus: Corpus, progress: ProgressLog) -> None:
    document = read_document(corpus.camlidl_html[1], on_progress=progress)
    assert document.title == "Overview"
    assert document.text.startswith("1 Overview\n\nCamlidl generates stub code for interfacing Caml with C")
    assert document.language == "en"
    progress.assert_complete(1)


def test_a_text_quoting_the_pdf_header_is_still_text(tmp_path: Path) -> None:
    path = tmp_path / "nota.txt"
    path.write_text("Cabeçalho de um arquivo:\n%PDF-1.7\n\n" + PORTUGUESE[0], encoding="utf-8")
    document = read_document(path)
    assert (document.format, document.language) == ("text", "pt")


def test_a_page_saved_as_utf8_that_declares_latin1_is_read_as_utf8(tmp_path: Path) -> None:
    path = tmp_path / "page.htm"
    paragraphs = "".join(f"<p>{paragraph}" for paragraph in PORTUGUESE)
    html = f'<html><head><meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"></head>{paragraphs}'
    path.write_bytes(html.encode("utf-8"))
    assert read_document(path).text == TEXT

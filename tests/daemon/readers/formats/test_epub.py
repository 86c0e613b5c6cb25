"""EPUB books: chapters in spine order, metadata, font obfuscation is not DRM, real XHTML content."""

from __future__ import annotations

import re
from pathlib import Path

from daemon.readers import read_document
from tests.daemon.corpus import Corpus
from tests.daemon.readers.samples import ENGLISH, PORTUGUESE, write_epub
from tests.daemon.readers.support import ProgressLog

CHAPTERS = [(f"Capítulo {n}", f"<p>{paragraph}</p>") for n, paragraph in enumerate(PORTUGUESE[:4], start=1)]


def test_chapters_come_in_spine_order_with_the_books_title_and_language(tmp_path: Path, progress: ProgressLog) -> None:
    path = write_epub(tmp_path / "ciclo.epub", title="O ciclo da água", language="pt-BR", chapters=CHAPTERS)
    document = read_document(path, on_progress=progress)
    expected = [part for n, paragraph in enumerate(PORTUGUESE[:4], start=1) for part in (f"Capítulo {n}", paragraph)]
    assert document.text == "\n\n".join(expected)  # not the manifest's order; no navigation document
    assert (document.format, document.page_count, document.language) == ("epub", None, "pt")
    assert document.title == "O ciclo da água"
    progress.assert_complete(len(CHAPTERS))


def test_an_obfuscated_font_is_not_drm(tmp_path: Path) -> None:
    chapters = [("Photosynthesis", "".join(f"<p>{p}</p>" for p in ENGLISH))]
    path = write_epub(tmp_path / "font.epub", title="Leaves", language="en", chapters=chapters, obfuscated_font=True)
    document = read_document(path)
    assert document.text == "\n\n".join(["Photosynthesis", *ENGLISH])
    assert document.language == "en"


def test_a_book_made_of_real_html_chapters_reads_like_its_html(corpus: Corpus, tmp_path: Path) -> None:
    chapters = []
    for page in corpus.camlidl_html:
        html = page.read_text(encoding="latin-1")
        body = re.search(r"<body[^>]*>(.*)</body>", html, re.DOTALL | re.IGNORECASE)
        assert body is not None
        chapters.append((page.stem, body.group(1)))
    path = write_epub(tmp_path / "camlidl.epub", title="Camlidl user’s manual", language="en", chapters=chapters)
    document = read_document(path)
    assert document.title == "Camlidl user’s manual"
    assert document.language == "en"
    for page in corpus.camlidl_html:
        assert read_document(page).text in document.text, page.name

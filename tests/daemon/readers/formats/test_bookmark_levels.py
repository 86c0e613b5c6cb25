"""PDF bookmarks under generic wrappers ("Artigos", "Base de conhecimento") or under one bookmark over everything
give the titles one level down as the document's chapters: the real Debian FAQ in Portuguese, its outline wrapped."""

from __future__ import annotations

import gzip
from pathlib import Path

import pypdf
import pytest

from core.app.documents.structure import DocumentStructure, paragraphs
from daemon.guide_writer.plan import chapter_sections, passage_spans
from daemon.readers import read_document
from daemon.readers.formats.bookmark_levels import without_wrappers
from tests.daemon.corpus import Corpus, fetch_package


@pytest.fixture(scope="module")
def faq_pdf(corpus: Corpus, tmp_path_factory: pytest.TempPathFactory) -> Path:
    fetch_package(corpus, "debian-faq-pt")
    path = tmp_path_factory.mktemp("faq") / "debian-faq.pt.pdf"
    path.write_bytes(gzip.decompress(corpus.faq_pdf_pt.read_bytes()))
    return path


def _chapters(path: Path) -> list[tuple[str, int]]:
    """The PDF's top-level bookmarks as ``(title, 0-based page)``."""
    reader = pypdf.PdfReader(path)
    outline = reader.outline
    return [(item.title, reader.get_destination_page_number(item)) for item in outline if not isinstance(item, list)]


def _wrapped(source: Path, target: Path, groups: list[tuple[str, int]]) -> Path:
    """``source`` with its chapters' bookmarks under wrappers: ``groups`` names each wrapper and how many chapters
    it holds, in order."""
    chapters = _chapters(source)
    writer = pypdf.PdfWriter()
    writer.append(source, import_outline=False)
    start = 0
    for name, count in groups:
        wrapper = writer.add_outline_item(title=name, page_number=chapters[start][1])
        for title, page in chapters[start : start + count]:
            writer.add_outline_item(title=title, page_number=page, parent=wrapper)
        start += count
    with target.open("wb") as out:
        writer.write(out)
    return target


def _section_titles(path: Path) -> list[str]:
    document = read_document(path)
    structure = DocumentStructure.from_json(document.structure)
    assert structure.fits(len(paragraphs(document.text)))
    spans = [span for _passage, span in passage_spans(document.text)]
    return [title for title, _numbers in chapter_sections(spans, structure.chapters)]


def test_chapters_under_generic_wrappers_are_the_sections(faq_pdf: Path, tmp_path: Path) -> None:
    titles = [title for title, _page in _chapters(faq_pdf)]
    assert len(titles) == 17  # 16 chapters and an index
    wrapped = _wrapped(faq_pdf, tmp_path / "wrapped.pdf", [("Artigos", 8), ("Base de conhecimento", 9)])
    sections = _section_titles(wrapped)
    assert "Artigos" not in sections and "Base de conhecimento" not in sections
    assert len(sections) >= 14 and set(sections) <= set(titles)


def test_chapters_under_one_bookmark_over_everything_are_the_sections(faq_pdf: Path, tmp_path: Path) -> None:
    titles = [title for title, _page in _chapters(faq_pdf)]
    wrapped = _wrapped(faq_pdf, tmp_path / "one-top.pdf", [("The Debian GNU/Linux FAQ", 17)])
    sections = _section_titles(wrapped)
    assert "The Debian GNU/Linux FAQ" not in sections
    assert len(sections) >= 14 and set(sections) <= set(titles)


def test_an_outline_without_wrappers_is_unchanged(faq_pdf: Path) -> None:
    entries = [("Contents", 1, 1), ("The base package", 31, 1), ("abbreviate", 37, 2), ("The stats package", 90, 1)]
    assert without_wrappers(entries) == entries  # refman's "Contents" holds nothing: a place, not a wrapper
    nested = [("Artigos", 1, 1), ("Sumário", 1, 2), ("Rede", 2, 3), ("Discos", 5, 3), ("Notas", 9, 1)]
    assert without_wrappers(nested) == [("Rede", 2, 1), ("Discos", 5, 1), ("Notas", 9, 1)]

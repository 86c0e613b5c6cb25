"""A PDF without bookmarks gets the headings its fonts set apart (larger, bold) as its chapters: real LaTeX
documents in Portuguese and English."""

from __future__ import annotations

from core.app.document_structure import DocumentStructure, paragraphs
from daemon.readers import read_document
from daemon.readers.pdf_headings import font_headings
from tests.daemon.corpus import Corpus

XYPIC = "generic/xypic-tut-pt/xypic-tutorial.pdf"
BEAMER = "latex/beamer-tut-pt/tutorialbeamer.pdf"
XYPIC_SECTIONS = [
    "1 Introdução",
    "2 Conceitos Básicos",
    "3 Usando o Kernel do XY-pic",
    "4 Extensões",
    "5 Usando Polígonos e Elipses",
    "Referências",
]


def _xypic(corpus: Corpus) -> str:
    return str(corpus.debian("texlive-lang-portuguese") / "usr/share/doc/texlive-doc" / XYPIC)


def test_a_pdf_without_bookmarks_gets_its_larger_bold_headings_as_chapters(corpus: Corpus) -> None:
    document = read_document(_xypic(corpus))
    structure = DocumentStructure.from_json(document.structure)
    texts = paragraphs(document.text)
    assert structure.fits(len(texts))
    assert structure.chapters[0].title == "Tutorial de XY-pic" and structure.chapters[0].level == 1
    sections = [c.title for c in structure.chapters if c.level == 2]
    assert set(XYPIC_SECTIONS) <= set(sections)
    assert not any("Carlos" in title or "abril" in title for title in sections)  # the author and date: not bold
    for chapter in structure.chapters[1:]:
        assert texts[chapter.paragraph].startswith(chapter.title), chapter


def test_a_heading_glued_to_the_paragraph_before_it_is_cut_off_into_its_own(corpus: Corpus) -> None:
    """In these real documents the text layer runs the heading into the end of the paragraph before it
    ("… dentro de um par { e }. 2 Conceitos Básicos"): the chapter starts at the heading, the paragraph before
    ends with its own sentence."""
    cases = {XYPIC: "2 Conceitos Básicos", BEAMER: "5 Exemplo de Apresentação Beamer"}
    for name, title in cases.items():
        document = read_document(str(corpus.debian("texlive-lang-portuguese") / "usr/share/doc/texlive-doc" / name))
        structure = DocumentStructure.from_json(document.structure)
        texts = paragraphs(document.text)
        assert structure.fits(len(texts))
        chapter = next(c for c in structure.chapters if c.title == title)
        assert texts[chapter.paragraph] == title
        assert not texts[chapter.paragraph - 1].endswith(title) and texts[chapter.paragraph - 1].endswith(".")


def test_an_english_manual_without_bookmarks_gets_its_numbered_sections(corpus: Corpus) -> None:
    document = read_document(corpus.camlidl_pdf)
    titles = [c.title for c in DocumentStructure.from_json(document.structure).chapters]
    assert titles[:4] == ["1 Overview", "2 IDL syntax", "3 The Caml-IDL mapping", "4 Using camlidl"]


def test_body_text_bold_or_not_is_no_heading() -> None:
    page = [("Uma frase do corpo do texto, longa como as outras.", 10.0, False)] * 30
    assert font_headings([[*page, ("Nota: em negrito no corpo", 10.0, True)]]) == []
    running = [[("Capítulo de cabeçalho", 14.0, True), *page] for _ in range(3)]
    assert font_headings(running) == []  # the same line atop every page: a running header

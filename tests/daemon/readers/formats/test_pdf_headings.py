"""A PDF without bookmarks gets the headings its fonts set apart (larger, bold) as its chapters: real LaTeX
documents in Portuguese and English."""

from __future__ import annotations

from core.app.documents.structure import DocumentStructure, paragraphs
from daemon.readers import read_document
from daemon.readers.formats.pdf_headings import font_headings
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


def test_a_heading_glued_into_the_middle_of_a_paragraph_becomes_its_own_chapter(corpus: Corpus) -> None:
    """Page 18 of the xypic tutorial: the text layer runs "6 Produzindo Diagramas em Matriz" between the end of
    one paragraph ("… e pontilhada:") and the start of the next ("O XY-pic oferece …"); page 9 of numberpt's
    manual runs "5.2 Tests with \\Numberpt" to "5.5 Tests with \\NUMBERPT" into the lists of numbers around
    them. Each heading is a chapter of its own, between the text before and after it."""
    root = corpus.debian("texlive-lang-portuguese") / "usr/share/doc/texlive-doc"
    cases = {
        XYPIC: [("6 Produzindo Diagramas em Matriz", "e pontilhada:", "O XY-pic oferece")],
        "latex/numberpt/numberpt.pdf": [
            ("5.2 Tests with \\Numberpt", "101: cento e um", "199: Cento e noventa e nove"),
            ("5.3 Tests with \\NumberPt", "501: Quinhentos e um", "600: Seiscentos"),
            ("5.4 Tests with \\NumberPt*", "701: Setecentos E Um", "800: Oitocentos"),
            ("5.5 Tests with \\NUMBERPT", "999: Novecentos e Noventa e Nove", "1000: MIL"),
        ],
    }
    for name, headings in cases.items():
        document = read_document(str(root / name))
        structure = DocumentStructure.from_json(document.structure)
        texts = paragraphs(document.text)
        assert structure.fits(len(texts))
        chapters = {c.title: c.paragraph for c in structure.chapters}
        for title, before, after in headings:
            assert title in chapters, (name, title, list(chapters))
            at = chapters[title]
            assert texts[at] == title
            assert texts[at - 1].endswith(before) and texts[at + 1].startswith(after), (texts[at - 1], texts[at + 1])


def test_an_english_manual_without_bookmarks_gets_its_numbered_sections(corpus: Corpus) -> None:
    document = read_document(corpus.camlidl_pdf)
    titles = [c.title for c in DocumentStructure.from_json(document.structure).chapters]
    assert titles[:4] == ["1 Overview", "2 IDL syntax", "3 The Caml-IDL mapping", "4 Using camlidl"]


def test_body_text_bold_or_not_is_no_heading() -> None:
    page = [("Uma frase do corpo do texto, longa como as outras.", 10.0, False)] * 30
    assert font_headings([[*page, ("Nota: em negrito no corpo", 10.0, True)]]) == []
    running = [[("Capítulo de cabeçalho", 14.0, True), *page] for _ in range(3)]
    assert font_headings(running) == []  # the same line atop every page: a running header

"""Front and back matter (title page, thanks, table of contents, index, bibliography) is no section of a guide: its
pages are left out and the coverage table says why — on a real PDF's bookmarks and with the tiny model."""

from __future__ import annotations

import re

from core.app.documents.structure import Chapter, DocumentStructure, paragraphs
from core.app.messages.sentences import message
from daemon.guide_writer.matter import MATTER_REASONS, matter_reason, set_aside
from daemon.guide_writer.writer import GuideWriter
from daemon.llm.llamacpp import LlamaCppGenerator
from daemon.readers import read_document
from tests.daemon.corpus import Corpus

STUDY = " O compilador lê o ficheiro, interpreta cada comando e escreve o documento final com o seu aspecto."
BOOK = [
    ("Title Page", "Uma introdução ao LaTeX\n\nTobias Oetiker\n\nVersão 5.01, 2011"),
    ("Obrigado!", "Obrigado!\n\nMuito do material provém de uma introdução austríaca." + " Ana, Rui, Eva." * 20),
    ("Prefácio", "O LaTeX é um sistema tipográfico para documentos científicos." + STUDY * 4),
    ("Parte I", "Parte I"),
    ("Escrever Texto", "Um ficheiro LaTeX é um ficheiro de texto com comandos." + STUDY * 4),
    ("Bibliografia", "[1] Leslie Lamport. LaTeX: A Document Preparation System. Addison-Wesley, 1994." * 3),
    ("Index", "ambiente, 12, 14\n\ncomando, 3, 5, 9\n\nficheiro, 4, 7, 21\n\nfórmula, 40, 42, 47" * 3),
]
"""A small book: each part on a page of its own; a part's first paragraph is where its chapter starts."""


def book() -> tuple[str, DocumentStructure]:
    parts = [p for _title, text in BOOK for p in text.split("\n\n")]
    chapters, pages, first = [], [], 0
    for page, (title, text) in enumerate(BOOK, start=1):
        chapters.append(Chapter(title, first, 1))
        count = len(text.split("\n\n"))
        pages += [(page, page)] * count
        first += count
    return "\n\n".join(parts), DocumentStructure(tuple(pages), len(BOOK), tuple(chapters))


async def test_title_page_thanks_bibliography_and_index_are_left_out_and_the_coverage_table_says_why(
    tiny: LlamaCppGenerator,
) -> None:
    text, structure = book()
    writer = GuideWriter(tiny, section_tokens=5)
    plan = await writer.outline(text, language="pt", structure=structure)
    assert [t for t, _n in plan.sections] == ["Prefácio", "Escrever Texto"]  # "Parte I" joined its neighbour
    assert [r for r, _n in plan.left_out] == ["title_page", "thanks", "bibliography", "index"]
    held = sorted(n for _t, numbers in (*plan.sections, *plan.left_out) for n in numbers)
    assert held == list(range(1, len(plan.passages) + 1))  # every passage once: in a section or left out
    assert await writer.restore(text, plan.to_json(), language="pt", structure=structure) == plan
    guide = await writer.write_sections(plan)
    coverage = guide.markdown.split("## Cobertura", 1)[1]
    assert "Páginas não usadas: 1 (a folha de rosto: sem conteúdo para estudo)." in coverage
    assert "Páginas não usadas: 2 (agradecimentos e dedicatória: sem conteúdo para estudo)." in coverage
    assert "Páginas não usadas: 6 (a bibliografia: sem conteúdo para estudo)." in coverage
    assert "Páginas não usadas: 7 (o índice remissivo: sem conteúdo para estudo)." in coverage
    assert "Obrigado" not in guide.markdown.split("## Cobertura", 1)[0]  # no section, no overview entry
    part = next(n for n, passage in enumerate(plan.passages, start=1) if passage == "Parte I")
    assert part in dict(plan.sections)["Escrever Texto"]  # a heading alone joins the section after it


async def test_pt_lshort_title_page_and_thanks_are_no_sections_and_no_passage_runs_across_a_chapter(
    corpus: Corpus, tiny: LlamaCppGenerator
) -> None:
    document = read_document(corpus.portuguese_pdf("lshort-portuguese/pt-lshort.pdf"))
    structure = DocumentStructure.from_json(document.structure)
    plan = await GuideWriter(tiny, section_tokens=200).outline(document.text, structure=structure)
    titles = {re.sub(r" \(\d+\)$", "", t) for t, _n in plan.sections}
    assert not titles & {"Title Page", "Obrigado!", "Index"}
    assert "Prefácio" in titles
    assert [r for r, _n in plan.left_out] == ["title_page", "thanks", "bibliography", "index"]
    # the book's closing "Bibliografia" is left out; "Especialidades" › "Bibliografia" (on BibTeX) is a section
    back = next(c for c in structure.chapters if c.title == "Bibliografia" and c.level == 1).paragraph
    sections_start = [plan.spans[numbers[0] - 1][0] for _t, numbers in plan.sections]
    assert all(start < back for start in sections_start)
    starts = {c.paragraph for c in structure.chapters if c.level == 1}
    assert not [span for span in plan.spans if any(span[0] < s <= span[1] for s in starts)]
    preface = next(c for c in structure.chapters if c.title == "Prefácio").paragraph
    first = next(numbers[0] for t, numbers in plan.sections if t.startswith("Prefácio"))
    assert plan.spans[first - 1][0] == preface  # the preface's first words are in the preface's section
    assert paragraphs(document.text)[preface].startswith("Prefácio")


def test_a_references_chapter_in_the_middle_stays_and_a_guide_of_matter_only_keeps_its_sections() -> None:
    passages = ["Texto de estudo com frases completas sobre o assunto do capítulo. " * 5] * 4
    sections = [("Introdução", [1]), ("Referências", [2]), ("Métodos", [3]), ("Index", [4])]
    kept, left_out = set_aside(sections, passages)
    assert [t for t, _n in kept] == ["Introdução", "Referências", "Métodos"] and left_out == [("index", (4,))]
    only = [("Title Page", [1]), ("Sumário", [2])]
    assert set_aside(only, passages) == ([("Title Page", [1]), ("Sumário", [2])], [])


def test_an_appendixs_letter_and_any_kind_of_index_are_read_as_back_matter() -> None:
    passages = ["Texto de estudo com frases completas sobre o assunto do capítulo. " * 5] * 6
    sections = [("1 Introduction", [1]), ("A A sample session", [2]), ("D Function and variable index", [3]),
                ("E Concept index", [4]), ("F References", [5]), ("Appendix G: Bibliography", [6])]  # fmt: skip
    kept, left_out = set_aside(sections, passages)
    assert [t for t, _n in kept] == ["1 Introduction", "A A sample session"]
    assert left_out == [("index", (3,)), ("index", (4,)), ("bibliography", (5,)), ("bibliography", (6,))]
    assert matter_reason("A Bibliografia", "") == "bibliography"
    assert matter_reason("A fotossíntese", "") is None and matter_reason("Indexing vectors", "") is None


def test_a_table_of_contents_is_recognised_by_its_page_numbers_whatever_its_title() -> None:
    contents = "\n\n".join(f"{i} Capítulo sobre o tema número {i} . . . . {i * 7}" for i in range(1, 12))
    study = "O capítulo explica o tema com frases completas e exemplos claros para o leitor. " * 4
    kept, left_out = set_aside([("Conteúdo do livro", [1]), ("Capítulo 1", [2])], [contents, study])
    assert kept == [("Capítulo 1", [2])] and left_out == [("contents", (1,))]


def test_every_reason_for_leaving_pages_out_is_named_in_both_languages() -> None:
    for language in ("en", "pt_BR"):
        generic = message("pages_left_out", language, pages="1–2")
        for reason in MATTER_REASONS:
            named = message("pages_left_out", language, pages="1–2", format=reason)
            assert named != generic and "1–2" in named, (language, reason)

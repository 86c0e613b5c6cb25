"""A guide cites where its text came from: pages of real PDFs, the document's own chapters, a coverage table,
and sections split (never cut) to fit the context — with real readers and the tiny deterministic model."""

from __future__ import annotations

import re
from pathlib import Path

import docx

from core.app.documents.structure import Chapter, DocumentStructure, paragraphs
from core.app.guides.export.cards import guide_cards
from daemon.guide_writer.plan import fit_sections, labels_for, passage_spans, split_at_subchapters
from daemon.guide_writer.study_aids import key_terms
from daemon.guide_writer.writer import GuideWriter
from daemon.llm.llamacpp import LlamaCppGenerator
from daemon.readers import read_document
from devkit.recording import RecordingGenerator
from tests.daemon.corpus import Corpus

SOURCES_PT = re.compile(r"\n\n\*Fontes: pág\. \d+(?:–\d+)?(?:, \d+(?:–\d+)?)*\*$")


def test_a_pdf_remembers_the_pages_of_each_paragraph(corpus: Corpus) -> None:
    document = read_document(corpus.portuguese_pdf("latexcheat-ptbr/latexsheet-ptbr.pdf"))
    structure = DocumentStructure.from_json(document.structure)
    assert structure.page_count == document.page_count == 2
    assert structure.fits(len(paragraphs(document.text)))
    firsts = [first for first, _last in structure.paragraph_pages]
    assert firsts == sorted(firsts) and firsts[0] == 1 and firsts[-1] == 2
    assert all(first <= last for first, last in structure.paragraph_pages)


def test_pdf_bookmarks_become_chapters_at_the_paragraph_of_their_page(corpus: Corpus) -> None:
    document = read_document(corpus.portuguese_pdf("lshort-portuguese/pt-lshort.pdf"))
    structure = DocumentStructure.from_json(document.structure)
    assert len(structure.chapters) > 20
    assert [c.paragraph for c in structure.chapters] == sorted(c.paragraph for c in structure.chapters)
    titles = [c.title for c in structure.chapters if c.level == 1]
    assert "Prefácio" in titles
    preface = next(c for c in structure.chapters if c.title == "Prefácio")
    assert "Prefácio" in paragraphs(document.text)[preface.paragraph]


def test_word_headings_become_chapters(tmp_path: Path) -> None:
    made = docx.Document()
    for heading, text in [("Água", "A água evapora dos oceanos."), ("Chuva", "O vapor condensa e cai.")]:
        made.add_heading(heading, level=1)
        made.add_paragraph(text)
    made.save(tmp_path / "ciclo.docx")
    document = read_document(tmp_path / "ciclo.docx")
    structure = DocumentStructure.from_json(document.structure)
    assert structure.chapters == (Chapter("Água", 0, 1), Chapter("Chuva", 2, 1))


async def test_every_section_of_a_guide_from_a_real_pdf_ends_with_its_pages(
    corpus: Corpus, tiny: LlamaCppGenerator
) -> None:
    document = read_document(corpus.portuguese_pdf("latexcheat-ptbr/latexsheet-ptbr.pdf"))
    structure = DocumentStructure.from_json(document.structure)
    guide = await GuideWriter(tiny, section_tokens=8, outline_tokens=200).write(
        document.text, language="pt", structure=structure
    )
    assert guide.sections
    for section in guide.sections:
        assert SOURCES_PT.search(section.body), section.body
    assert "## Cobertura\n\n| Seção | Fonte |" in guide.markdown
    assert "Todas as páginas com texto foram usadas em alguma seção." in guide.markdown
    cited = set(re.findall(r"pág\. (\d+)", guide.markdown))
    assert cited == {"1", "2"} or cited == {"1"}  # "pág. 1–2" cites page 1 and the range


async def test_the_coverage_table_names_the_pages_without_text(tiny: LlamaCppGenerator) -> None:
    text = "\n\n".join(f"Paragraph {i} explains topic number {i} in a few plain words." * 3 for i in range(4))
    structure = DocumentStructure(paragraph_pages=((1, 1), (2, 2), (4, 4), (5, 5)), page_count=6)
    guide = await GuideWriter(tiny, section_tokens=5, outline_tokens=200).write(
        text, language="en", structure=structure
    )
    assert guide.markdown.endswith("Pages left out: 3, 6 (no text on the page: blank, an image or a scan).\n")
    assert all(re.search(r"\*Sources: p\. [\d–, ]+\*$", s.body) for s in guide.sections)


async def test_a_document_with_chapters_is_planned_without_asking_the_model(
    corpus: Corpus, tiny: LlamaCppGenerator
) -> None:
    document = read_document(corpus.portuguese_pdf("lshort-portuguese/pt-lshort.pdf"))
    structure = DocumentStructure.from_json(document.structure)
    recording = RecordingGenerator(tiny)
    plan = await GuideWriter(recording, section_tokens=200).outline(document.text, structure=structure)
    assert recording.record.sent == []  # no outline asked of the model
    assert plan.from_chapters
    own = {c.title for c in structure.chapters}  # every level: a long chapter is split at its sub-chapters
    assert {re.sub(r" \(\d+\)$", "", t) for t, _ in plan.sections} <= own
    covered = [n for _t, numbers in plan.sections for n in numbers]
    assert covered == sorted(covered)  # in order
    left_out = [n for _reason, numbers in plan.left_out for n in numbers]  # title page, thanks, index …
    assert sorted(covered + left_out) == list(range(1, len(plan.passages) + 1))  # every passage once
    assert plan.pages and all(plan.pages[n - 1] for n in covered)


async def test_without_chapters_the_model_gives_the_outline(tiny: LlamaCppGenerator) -> None:
    recording = RecordingGenerator(tiny)
    text = "\n\n".join(f"Paragraph {i} explains topic number {i} in a few plain words." * 3 for i in range(4))
    plan = await GuideWriter(recording, section_tokens=5, outline_tokens=200).outline(text)
    assert len(recording.record.sent) == 1 and not plan.from_chapters


def test_a_section_too_long_for_one_prompt_is_split_and_no_passage_is_cut() -> None:
    text = "\n\n".join(f"A sentence of the long chapter number {i}. " * 40 for i in range(6))
    spans = passage_spans(text)
    assert " ".join(p for p, _ in spans).split() == text.split()  # nothing cut
    costs = [300] * len(spans)
    fitted = fit_sections([("Long", list(range(1, len(spans) + 1)))], costs, 700, labels_for("en"))
    assert [t for t, _ in fitted] == [f"Long ({i})" for i in range(1, len(fitted) + 1)]
    assert [n for _t, numbers in fitted for n in numbers] == list(range(1, len(spans) + 1))
    assert all(sum(costs[n - 1] for n in numbers) <= 700 for _t, numbers in fitted)


def test_a_chapter_too_long_for_one_prompt_is_split_at_its_own_sub_chapters_before_numbered_parts() -> None:
    spans = [(n, n) for n in range(8)]  # one paragraph per passage
    chapters = [
        Chapter("1 Packages", 0),
        Chapter("1.1 Structure", 2, level=2),
        Chapter("1.2 Configure", 5, level=2),
        Chapter("2 Writing", 7),
    ]
    sections = [("1 Packages", [1, 2, 3, 4, 5, 6, 7]), ("2 Writing", [8])]
    costs = [300] * 8
    split = split_at_subchapters(sections, spans, chapters, costs, 1000)
    assert split == [
        ("1 Packages", [1, 2]),
        ("1.1 Structure", [3, 4, 5]),
        ("1.2 Configure", [6, 7]),
        ("2 Writing", [8]),
    ]
    fitted = fit_sections(split, costs, 700, labels_for("en"))  # what is still too long gets numbered parts
    assert [t for t, _ in fitted] == [
        "1 Packages",
        "1.1 Structure (1)",
        "1.1 Structure (2)",
        "1.2 Configure",
        "2 Writing",
    ]
    assert split_at_subchapters(sections, spans, chapters, costs, 10_000) == sections  # it fits: left whole
    deeper = [*chapters, Chapter("1.1.1 Files", 3, level=3)]  # a part still too long goes down one more level
    titles = [title for title, _ in split_at_subchapters(sections, spans, deeper, costs, 700)]
    assert titles == ["1 Packages", "1.1 Structure", "1.1.1 Files", "1.2 Configure", "2 Writing"]


FILLER = " Este trecho continua a explicação com mais alguns detalhes sobre o mesmo assunto." * 3
PAGES_TEXT = "\n\n".join(
    sentence + FILLER
    for sentence in [
        "A fotossíntese é o processo pelo qual as plantas verdes transformam a energia da luz em energia química.",
        "As folhas captam a luz do sol durante o dia e guardam o que produzem para a noite.",
        "A clorofila é um pigmento verde que absorve a luz vermelha e a luz azul nas folhas das plantas.",
        "Depois disso as plantas crescem devagar, folha por folha, durante toda a primavera e o verão.",
    ]
)  # each paragraph long enough to be a passage of its own


async def test_key_terms_and_questions_are_the_documents_own_definitions_with_their_pages(
    tiny: LlamaCppGenerator,
) -> None:
    structure = DocumentStructure(((1, 1), (2, 2), (3, 3), (4, 4)), 4, (Chapter("Luz", 0), Chapter("Cor", 2)))
    guide = await GuideWriter(tiny, section_tokens=5).write(PAGES_TEXT, language="pt", structure=structure)
    light, colour = guide.sections
    definition = PAGES_TEXT.split("\n\n")[0].removesuffix(FILLER)
    meaning = definition.removeprefix("A fotossíntese é o")
    assert f"### Termos-chave\n\n- **fotossíntese**: O{meaning} (pág. 1)" in light.body
    assert f"**P:** O que é a fotossíntese?\n**R:** {definition} (pág. 1)" in light.body
    assert "- **clorofila**: Um pigmento verde que absorve" in colour.body and "(pág. 3)" in colour.body
    assert guide.markdown.count("**P:**") == 2  # the sentences that define nothing give no question
    glossary = guide.markdown.split("## Glossário\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert glossary == [
        "- **clorofila**: ver a seção “Cor” (pág. 3)",
        "- **fotossíntese**: ver a seção “Luz” (pág. 1)",
    ]  # an index: no definition printed twice
    assert "**Objetivos de aprendizagem**\n\n- Explicar o que é a fotossíntese.\n- Explicar o que é a clorofila." in (
        guide.markdown
    )
    cards = guide_cards(guide.markdown)  # what the Anki and CSV exports read
    assert {(c.kind, c.front, c.page) for c in cards} >= {
        ("term", "fotossíntese", "1"),
        ("question", "O que é a fotossíntese?", "1"),
        ("term", "clorofila", "3"),
    }


async def test_a_section_that_defines_nothing_gets_no_key_terms_or_questions(tiny: LlamaCppGenerator) -> None:
    text = "\n\n".join(PAGES_TEXT.split("\n\n")[1::2])
    guide = await GuideWriter(tiny, section_tokens=5).write(text, language="pt")
    assert "Termos-chave" not in guide.markdown and "**P:**" not in guide.markdown
    assert "Glossário" not in guide.markdown and "Objetivos" not in guide.markdown


async def test_a_term_two_sections_define_is_asked_about_once(tiny: LlamaCppGenerator) -> None:
    again = "A fotossíntese é o modo como as folhas fazem o seu próprio alimento a partir da luz do sol." + FILLER
    text = f"{PAGES_TEXT}\n\n{again}"
    structure = DocumentStructure(((1, 1), (2, 2), (3, 3), (4, 4), (5, 5)), 5, (Chapter("Luz", 0), Chapter("Cor", 2)))
    guide = await GuideWriter(tiny, section_tokens=5).write(text, language="pt", structure=structure)
    assert guide.markdown.count("**P:** O que é a fotossíntese?") == 1  # "What is result?" came back 3 times in R-intro
    assert "fotossíntese" not in guide.sections[1].body.split("### Termos-chave", 1)[-1].split("*Fontes", 1)[0]


def test_a_sentence_about_a_word_said_before_defines_no_term() -> None:
    # defining-looking sentences of R-intro whose subject is not a term
    said = [
        "Technically R is an expression language with a very simple syntax.",
        "Thus if Lst is the name of a list then the function returns a list.",
        "The result is a vector of the same length as the longest vector.",
        "The first component is a vector of the names of the levels of the factor.",
        "A dimension vector is a vector of non-negative integers that gives the extent of each index.",
    ]
    terms = key_terms(said, [1, 2, 3, 4, 5], [(1,), (2,), (3,), (4,), (5,)], "en")
    assert [t.term for t in terms] == ["dimension vector"]

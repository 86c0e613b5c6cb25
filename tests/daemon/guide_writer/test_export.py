"""A guide as the guide writer makes it (the tiny deterministic model, pages known), exported: its sections, sources
lines and coverage table come through to Word as headings, italic lines and a table; its key terms and review
questions become cards with their pages."""

from __future__ import annotations

from pathlib import Path

import docx

from core.app.documents.structure import DocumentStructure
from core.app.guides.export.cards import guide_cards
from core.app.guides.export.word import write_docx
from daemon.guide_writer.writer import GuideWriter
from daemon.llm.llamacpp import LlamaCppGenerator


async def test_a_written_guide_exports_to_word_with_its_sections_sources_and_coverage(
    tiny_model: Path, tmp_path: Path
) -> None:
    tiny = LlamaCppGenerator(tiny_model, n_ctx=4096, n_threads=1)
    text = "\n\n".join(f"Paragraph {i} explains topic number {i} in a few plain words." * 3 for i in range(4))
    structure = DocumentStructure(paragraph_pages=((1, 1), (2, 2), (4, 4), (5, 5)), page_count=6)
    guide = await GuideWriter(tiny, section_tokens=5, outline_tokens=200).write(
        text, language="en", structure=structure
    )
    path = tmp_path / "guide.docx"
    write_docx(guide.markdown, path)
    word = docx.Document(str(path))
    headings = [p.text for p in word.paragraphs if p.style.name == "Heading 1"]
    assert headings == [*(s.title for s in guide.sections), "Coverage"]
    italic = [r.text for p in word.paragraphs for r in p.runs if r.italic]
    assert len([t for t in italic if t.startswith("Sources: p. ")]) == len(guide.sections)
    assert [c.text for c in word.tables[0].rows[0].cells] == ["Section", "Source"]
    assert len(word.tables[0].rows) == 1 + len(guide.sections)
    assert word.paragraphs[-1].text.startswith("Pages left out: 3, 6")
    assert guide_cards(guide.markdown) == []  # sources lines, the coverage table and its note are not cards


async def test_the_key_terms_and_questions_the_writer_finds_become_cards_with_their_pages(
    tiny_model: Path, tmp_path: Path
) -> None:
    tiny = LlamaCppGenerator(tiny_model, n_ctx=4096, n_threads=1)
    text = "\n\n".join(
        [
            "A fotossíntese é o processo pelo qual as plantas transformam a luz em energia química. Ela ocorre nas "
            "folhas.",
            "A clorofila é um pigmento verde que absorve a luz vermelha e azul. Ela fica nos cloroplastos.",
            "O estroma é o líquido que envolve os tilacoides dentro do cloroplasto. Nele o carbono vira açúcar.",
            "A respiração celular é o processo que libera a energia guardada nos açúcares. Ela ocorre nas "
            "mitocôndrias.",
        ]
    )
    structure = DocumentStructure(paragraph_pages=((1, 1), (2, 2), (3, 3), (4, 4)), page_count=4)
    guide = await GuideWriter(tiny, section_tokens=5, outline_tokens=200).write(
        text, language="pt", structure=structure
    )
    assert "### Termos-chave" in guide.markdown and "## Glossário" in guide.markdown
    cards = guide_cards(guide.markdown)
    terms = [c.front for c in cards if c.kind == "term"]
    questions = [c for c in cards if c.kind == "question"]
    assert terms == ["fotossíntese", "clorofila", "estroma", "respiração celular"]  # the glossary adds no copies
    assert [q.front for q in questions] == [
        "O que é a fotossíntese?",
        "O que é a clorofila?",
        "O que é o estroma?",
        "O que é a respiração celular?",
    ]
    assert questions[0].back.startswith("A fotossíntese é o processo") and "pág." not in questions[0].back
    assert all(c.page and c.section == guide.sections[0].title for c in cards)
    assert next(c for c in cards if c.front == "respiração celular").page == "4"

"""A guide as the guide writer makes it (the tiny deterministic model, pages known) exported to Word: its sections,
its sources lines and its coverage table come through as headings, italic lines and a table."""

from __future__ import annotations

from pathlib import Path

import docx

from core.document_structure import DocumentStructure
from core.export.cards import guide_cards
from core.export.word import write_docx
from daemon.llm.guide import GuideWriter
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

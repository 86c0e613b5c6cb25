"""A guide follows the structure its document carries, found by the readers without a model: a numbered plain-text
manual is planned from its own headings, and a PDF without bookmarks from the headings its fonts set apart, with no
outline asked of the model and no title repeated."""

from __future__ import annotations

import gzip
import re
from collections import Counter
from pathlib import Path

from core.app.documents.structure import Chapter, DocumentStructure, paragraphs
from daemon.guide_writer.prompts import detect_language
from daemon.guide_writer.writer import GuideWriter
from daemon.llm.llamacpp import LlamaCppGenerator
from daemon.readers import read_document
from devkit.recording import RecordingGenerator
from tests.daemon.corpus import Corpus, fetch_package


async def test_a_numbered_plain_text_manual_is_planned_from_its_headings_without_the_model(
    corpus: Corpus, tiny: LlamaCppGenerator, tmp_path: Path
) -> None:
    fetch_package(corpus, "debian-faq-pt")
    path = tmp_path / "debian-faq.pt.txt"
    path.write_bytes(gzip.decompress(corpus.faq_text_pt.read_bytes()))
    document = read_document(path)
    structure = DocumentStructure.from_json(document.structure)
    recording = RecordingGenerator(tiny)
    plan = await GuideWriter(recording, section_tokens=200).outline(document.text, structure=structure)
    assert recording.record.sent == []  # no outline asked of the model
    assert plan.from_chapters
    chapters = [c.title for c in structure.chapters]  # every level: a long chapter is split at its sub-chapters
    titles = [re.sub(r" \(\d+\)$", "", t) for t, _ in plan.sections]
    assert len(set(titles)) >= 12 and set(titles) <= set(chapters)
    whole = [t for t, _ in plan.sections]
    assert max(Counter(whole).values()) == 1  # no section title repeats


async def test_a_pdf_without_bookmarks_is_planned_from_its_font_headings_without_the_model(
    corpus: Corpus, tiny: LlamaCppGenerator
) -> None:
    path = (
        corpus.debian("texlive-lang-portuguese") / "usr/share/doc/texlive-doc/generic/xypic-tut-pt/xypic-tutorial.pdf"
    )
    document = read_document(path)
    structure = DocumentStructure.from_json(document.structure)
    recording = RecordingGenerator(tiny)
    plan = await GuideWriter(recording, section_tokens=200).outline(document.text, structure=structure)
    assert recording.record.sent == [] and plan.from_chapters
    titles = {re.sub(r" \(\d+\)$", "", t) for t, _n in plan.sections}  # a long chapter is split in parts
    assert {"1 Introdução", "3 Usando o Kernel do XY-pic"} <= titles


async def test_a_document_mostly_portuguese_with_english_passages_gets_a_portuguese_guide_and_headings(
    corpus: Corpus, tiny: LlamaCppGenerator, tmp_path: Path
) -> None:
    fetch_package(corpus, "debian-faq-pt")
    fetch_package(corpus, "developers-reference")
    portuguese = read_document(_faq(corpus, tmp_path)).text
    english = read_document(corpus.developers_reference_epub).text[:70_000]  # more than the first 60,000 characters
    text = english + "\n\n" + portuguese[:180_000]
    assert detect_language(text) == "pt"
    short = english[:6_000] + "\n\n" + portuguese[:24_000]  # the guide: two chapters, no outline asked
    count = len(paragraphs(short))
    chapters = (Chapter("Developer's Reference", 0), Chapter("FAQ", count // 2))
    writer = GuideWriter(tiny, section_tokens=8, summaries=False)
    guide = await writer.write(short, structure=DocumentStructure(chapters=chapters))
    assert guide.language == "pt"
    assert "## Cobertura" in guide.markdown and "## Coverage" not in guide.markdown
    assert "## Glossary" not in guide.markdown and "Sources:" not in guide.markdown


def _faq(corpus: Corpus, folder: Path) -> Path:
    path = folder / "debian-faq.pt.txt"
    path.write_bytes(gzip.decompress(corpus.faq_text_pt.read_bytes()))
    return path

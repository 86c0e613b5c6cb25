"""A guide follows the structure its document carries, found by the readers without a model: a numbered plain-text
manual is planned from its own headings, and a PDF without bookmarks from the headings its fonts set apart, with no
outline asked of the model and no title repeated."""

from __future__ import annotations

import gzip
import re
from collections import Counter
from pathlib import Path

from core.app.document_structure import DocumentStructure
from daemon.llm.guide import GuideWriter
from daemon.llm.llamacpp import LlamaCppGenerator
from daemon.readers import read_document
from tests.daemon.corpus import Corpus, fetch_package
from tests.daemon.llm.test_llm_guide import Recording


async def test_a_numbered_plain_text_manual_is_planned_from_its_headings_without_the_model(
    corpus: Corpus, tiny: LlamaCppGenerator, tmp_path: Path
) -> None:
    fetch_package(corpus, "debian-faq-pt")
    path = tmp_path / "debian-faq.pt.txt"
    path.write_bytes(gzip.decompress(corpus.faq_text_pt.read_bytes()))
    document = read_document(path)
    structure = DocumentStructure.from_json(document.structure)
    recording = Recording(tiny)
    plan = await GuideWriter(recording, section_tokens=200).outline(document.text, structure=structure)
    assert recording.sent == []  # no outline asked of the model
    assert plan.from_chapters
    chapters = [c.title for c in structure.chapters if c.level == 1]
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
    recording = Recording(tiny)
    plan = await GuideWriter(recording, section_tokens=200).outline(document.text, structure=structure)
    assert recording.sent == [] and plan.from_chapters
    titles = {re.sub(r" \(\d+\)$", "", t) for t, _n in plan.sections}  # a long chapter is split in parts
    assert {"1 Introdução", "3 Usando o Kernel do XY-pic"} <= titles

"""A scanned handout becomes a study guide: real Portuguese corpus pages scanned into an image-only PDF, read by
text recognition, written with the tiny deterministic model; the guide names the recognised pages and does not
list them as left out."""

from __future__ import annotations

from pathlib import Path

from core.app.documents.structure import DocumentStructure
from daemon.guide_writer.writer import GuideWriter
from daemon.llm.llamacpp import LlamaCppGenerator
from daemon.readers import read_document
from tests.daemon.corpus import Corpus
from tests.daemon.readers.scans import error_rate, reference_text, scanned_pdf

PAGES = [30, 31]  # 0-based pages of prose of the Portuguese LaTeX introduction


async def test_a_scanned_portuguese_handout_becomes_a_guide_that_marks_its_recognised_pages(
    corpus: Corpus, tiny: LlamaCppGenerator, tmp_path: Path
) -> None:
    source = corpus.portuguese_pdf("lshort-portuguese/pt-lshort.pdf")
    document = read_document(scanned_pdf(source, PAGES, tmp_path / "apostila.pdf"))
    assert error_rate(document.text, reference_text(source, PAGES)) <= 0.03
    structure = DocumentStructure.from_json(document.structure)
    assert structure.recognised == (1, 2)

    guide = await GuideWriter(tiny, section_tokens=8, outline_tokens=200).write(
        document.text, language="pt", structure=structure
    )

    assert guide.sections
    assert "Páginas não usadas" not in guide.markdown
    assert "Páginas lidas de uma imagem por reconhecimento de texto: 1–2; confira nomes e números." in guide.markdown

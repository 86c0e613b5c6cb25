"""Benchmark of structure found without the model: what a guide costs when the readers find a document's chapters.

Real documents of the test corpus (``tests/daemon/corpus.py``), read like the ``ingest`` job reads them, then written
into a guide by :class:`daemon.guide_writer.writer.GuideWriter` with the bundled model (or ``--model PATH``), summaries
as the worker decides them (the bundled SmolLM2 writes none: with chapters, nothing is asked of it):

* ``pt-faq-text`` — the Debian FAQ in Portuguese as plain text with numbered headings ("Capítulo 1.", "1.1.");
  its pages are those of the same FAQ's PDF edition (75);
* ``en-devref-epub`` — Debian's Developer's Reference, an EPUB built by Sphinx (pages: characters ÷ 2,500);
* ``pt-xypic-pdf`` — a Portuguese LaTeX tutorial without bookmarks (headings by font size and weight).

Printed per document: the chapters the reader found, the guide's sections, the model calls made (outline and
sections), section titles that repeat, the first section titles, and **min/100 p** — minutes of writing (outline and
sections) per 100 pages. ``--no-structure`` drops the reader's structure, so the model plans the sections as it did
before the readers found any (the baseline); ``--pages N`` writes from the first N pages only (a baseline on a long
document takes the model about 0.8 min per page).

Run: ``.venv/bin/python bench/structure_bench.py [--docs pt-faq-text,en-devref-epub] [--pages N] [--no-structure]``
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pypdfium2 as pdfium
from bench_support import bench_generator

from core.app.documents.structure import DocumentStructure, paragraphs
from daemon.guide_writer.writer import GuideWriter
from daemon.llm.base import TextGenerator
from daemon.llm.llamacpp import default_n_threads
from daemon.readers import read_document
from devkit.recording import RecordingGenerator
from tests.daemon.corpus import Corpus, fetch_corpus, fetch_package

DOCUMENTS = ("pt-faq-text", "en-devref-epub", "pt-xypic-pdf")
CHARS_PER_PAGE = 2500


@dataclass
class Row:
    name: str
    pages: float
    chapters: int
    sections: int
    calls: int
    repeated: int
    seconds: float
    titles: list[str]


def document_path(key: str, corpus: Corpus, folder: Path) -> tuple[Path, float | None]:
    """The document's file and its pages when a paged edition says it (``None``: estimate from characters)."""
    if key == "pt-faq-text":
        fetch_package(corpus, "debian-faq-pt")
        path = folder / "debian-faq.pt.txt"
        path.write_bytes(gzip.decompress(corpus.faq_text_pt.read_bytes()))
        pdf = pdfium.PdfDocument(gzip.decompress(corpus.faq_pdf_pt.read_bytes()))
        pages = float(len(pdf))
        pdf.close()
        return path, pages
    if key == "en-devref-epub":
        fetch_package(corpus, "developers-reference")
        return corpus.developers_reference_epub, None
    if key == "pt-xypic-pdf":
        folder = corpus.debian("texlive-lang-portuguese") / "usr/share/doc/texlive-doc/generic/xypic-tut-pt"
        return folder / "xypic-tutorial.pdf", None
    raise SystemExit(f"unknown document {key!r}; known: {', '.join(DOCUMENTS)}")


def first_pages(text: str, structure: DocumentStructure, pages: float, cap: int) -> tuple[str, DocumentStructure]:
    """The paragraphs of the first ``cap`` pages (by page data, else by characters) and their structure."""
    parts = paragraphs(text)
    if structure.paragraph_pages:
        keep = sum(1 for first, _last in structure.paragraph_pages if first <= cap)
    else:
        budget = len(text) * cap / pages
        used, keep = 0, 0
        for part in parts:
            used += len(part) + 2
            if used > budget:
                break
            keep += 1
    chapters = tuple(c for c in structure.chapters if c.paragraph < keep)
    return "\n\n".join(parts[:keep]), DocumentStructure(structure.paragraph_pages[:keep], None, chapters)


async def run(key: str, generator: TextGenerator, summaries: bool, cap: int | None, use_structure: bool) -> Row:
    corpus = fetch_corpus()
    with tempfile.TemporaryDirectory() as folder:
        path, known_pages = document_path(key, corpus, Path(folder))
        document = read_document(path)
    structure = DocumentStructure.from_json(document.structure)
    pages = known_pages or float(document.page_count or max(1.0, len(document.text) / CHARS_PER_PAGE))
    text = document.text
    if cap is not None and cap < pages:
        text, structure = first_pages(text, structure, pages, cap)
        pages = float(cap)
    counted = RecordingGenerator(generator)
    writer = GuideWriter(counted, summaries=summaries)
    started = time.perf_counter()
    guide = await writer.write(
        text, title=document.title, language=None, structure=structure if use_structure else None
    )
    seconds = time.perf_counter() - started
    titles = [section.title for section in guide.sections]
    repeated = sum(n - 1 for n in Counter(titles).values() if n > 1)
    return Row(key, pages, len(structure.chapters), len(titles), counted.record.calls, repeated, seconds, titles)


def table(rows: list[Row]) -> str:
    lines = [
        "| document | pages | chapters found | sections | model calls | repeated titles | min/100 p | first sections |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        first = "; ".join(r.titles[:4])
        lines.append(
            f"| {r.name} | {r.pages:.0f} | {r.chapters} | {r.sections} | {r.calls} | {r.repeated} "
            f"| {r.seconds / 60 / max(r.pages, 1) * 100:.2f} | {first} |"
        )
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, default=None, help="a GGUF file (default: the bundled SmolLM2)")
    parser.add_argument("--threads", type=int, default=default_n_threads())
    parser.add_argument("--docs", default=",".join(DOCUMENTS), help=f"comma-separated, of {', '.join(DOCUMENTS)}")
    parser.add_argument("--pages", type=int, default=None, help="write from the first N pages only")
    parser.add_argument("--no-structure", action="store_true", help="ignore the reader's structure (the baseline)")
    args = parser.parse_args()
    generator, summaries = bench_generator(args.model, args.threads)
    path = generator.model_path
    print(
        f"model {path.name}, {args.threads} thread(s), summaries {'on' if summaries else 'off'}, "
        f"structure {'ignored' if args.no_structure else 'used'}",
        flush=True,
    )
    rows = []
    for key in [k.strip() for k in args.docs.split(",") if k.strip()]:
        row = await run(key, generator, summaries, args.pages, not args.no_structure)
        rows.append(row)
        print(table([row]), flush=True)
    await generator.aclose()
    print(table(rows))


if __name__ == "__main__":
    asyncio.run(main())

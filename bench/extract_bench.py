"""PDF extraction speed: ``read_document`` against a bare pypdfium2 loop over the same PDFs, side by side.

    .venv/bin/python bench/extract_bench.py            # the full run (best of 5 per file and method)
    .venv/bin/python bench/extract_bench.py --quick    # best of 2, to check that it still runs

The PDFs are the test corpus's (the R manuals, the Auto Multiple Choice and Camlidl manuals: 16 PDFs, about
3,600 pages), fetched into the test-corpus cache on first use. The bare loop opens each PDF and calls
``get_textpage().get_text_range()`` on every page, nothing else: no hashing, no cleaning, no paragraph
building, no integrity check, no language detection. ``read_document`` does all of that. Both run on this thread,
interleaved file by file (bare, ours, bare, ours …) so that a busy machine slows both alike; each file's best time
per method counts. Target: ours ≥ 0.8 × bare pages per second.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pypdfium2 as pdfium

from daemon.readers import read_document
from daemon.readers.pdf import PDFIUM_LOCK
from tests.daemon.corpus import fetch_corpus

TARGET = 0.8


def bare(path: Path) -> int:
    """Open ``path`` with pypdfium2 and get every page's text; the page count."""
    with PDFIUM_LOCK:
        document = pdfium.PdfDocument(path)
        try:
            pages = len(document)
            for index in range(pages):
                page = document[index]
                textpage = page.get_textpage()
                textpage.get_text_range()
                textpage.close()
                page.close()
        finally:
            document.close()
    return pages


def ours(path: Path) -> int:
    """``read_document(path)``; the page count."""
    return read_document(path).page_count or 0


def timed(function: Callable[[Path], int], path: Path) -> float:
    """Seconds ``function(path)`` took."""
    start = time.perf_counter()
    function(path)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="best of 2 instead of 5")
    parser.add_argument("--repeat", type=int, default=None, help="runs per file and method")
    args = parser.parse_args()
    repeat = args.repeat or (2 if args.quick else 5)
    pdfs = fetch_corpus().pdfs()
    for path in pdfs:  # warm the page cache and the code paths once
        bare(path)
        ours(path)
    print(f"{'PDF':34} {'pages':>6} {'bare p/s':>10} {'ours p/s':>10} {'ratio':>6}")
    total_pages, total_bare, total_ours = 0, 0.0, 0.0
    for path in pdfs:
        pages = bare(path)
        bare_s, ours_s = float("inf"), float("inf")
        for _ in range(repeat):
            bare_s = min(bare_s, timed(bare, path))
            ours_s = min(ours_s, timed(ours, path))
        total_pages, total_bare, total_ours = total_pages + pages, total_bare + bare_s, total_ours + ours_s
        print(f"{path.name:34} {pages:6} {pages / bare_s:10.0f} {pages / ours_s:10.0f} {bare_s / ours_s:6.2f}")
    ratio = total_bare / total_ours
    print(f"{'all':34} {total_pages:6} {total_pages / total_bare:10.0f} {total_pages / total_ours:10.0f} {ratio:6.2f}")
    print(f"read_document runs at {ratio:.2f}× the bare pypdfium2 loop (target ≥ {TARGET}×, best of {repeat})")
    return 0 if ratio >= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())

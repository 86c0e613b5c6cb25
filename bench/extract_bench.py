"""PDF extraction speed: ``read_document`` here and in a reader process against a bare pypdfium2 loop.

    .venv/bin/python bench/extract_bench.py            # the full run (best of 5 per file and method)
    .venv/bin/python bench/extract_bench.py --quick    # best of 2, to check that it still runs

The PDFs are the test corpus's (the R manuals, the Auto Multiple Choice and Camlidl manuals: 16 PDFs, about
3,600 pages), fetched into the test-corpus cache on first use. The bare loop opens each PDF and calls
``get_textpage().get_text_range()`` on every page, nothing else: no hashing, no cleaning, no paragraph
building, no integrity check, no language detection. ``read_document`` does all of that. "child" is what the
worker does: ``read_document`` in a reader process of a :class:`~daemon.readers.sandbox.isolated.ReaderPool` (started
once and reused, under the default limits), the text and the progress sent back over the pipe. The three run
interleaved file by file (bare, ours, child, bare …) so that a busy machine slows them alike; each file's best
time per method counts. Targets: ours ≥ 0.8 × and child ≥ 0.75 × bare pages per second. The last lines give
what the reader process adds per document, and what starting one costs (paid at the worker's start and after a
crash, a limit or a cancel, not per document).
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
from daemon.readers.formats.pdf import PDFIUM_LOCK
from daemon.readers.sandbox.isolated import ReaderPool
from tests.daemon.corpus import fetch_corpus

TARGET = 0.8
CHILD_TARGET = 0.75


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


def in_child(pool: ReaderPool) -> Callable[[Path], int]:
    """``read_document(path)`` in a reader process of ``pool``, with a progress callback as the worker has."""

    def read(path: Path) -> int:
        return pool.read(path, on_progress=lambda done, total: None).page_count or 0

    return read


def start_cost(path: Path, repeat: int) -> float:
    """Best seconds from starting a reader process to the end of its first read of ``path``, less a warm read."""
    best = float("inf")
    for _ in range(repeat):
        pool = ReaderPool(spare=0)
        try:
            cold = timed(in_child(pool), path)
            warm = timed(in_child(pool), path)
        finally:
            pool.close()
        best = min(best, cold - warm)
    return best


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
    pool = ReaderPool()
    try:
        return _compare(pdfs, pool, repeat)
    finally:
        pool.close()


def _compare(pdfs: list[Path], pool: ReaderPool, repeat: int) -> int:
    child = in_child(pool)
    for path in pdfs:  # warm the page cache and the code paths once
        bare(path)
        ours(path)
        child(path)
    print(f"{'PDF':34} {'pages':>6} {'bare p/s':>10} {'ours p/s':>10} {'child p/s':>10} {'ours':>6} {'child':>6}")
    total_pages, totals = 0, [0.0, 0.0, 0.0]
    for path in pdfs:
        pages = bare(path)
        best = [float("inf")] * 3
        for _ in range(repeat):
            for index, method in enumerate((bare, ours, child)):
                best[index] = min(best[index], timed(method, path))
        total_pages += pages
        totals = [total + seconds for total, seconds in zip(totals, best, strict=True)]
        rates = " ".join(f"{pages / seconds:10.0f}" for seconds in best)
        print(f"{path.name:34} {pages:6} {rates} {best[0] / best[1]:6.2f} {best[0] / best[2]:6.2f}")
    ratio, child_ratio = totals[0] / totals[1], totals[0] / totals[2]
    rates = " ".join(f"{total_pages / seconds:10.0f}" for seconds in totals)
    print(f"{'all':34} {total_pages:6} {rates} {ratio:6.2f} {child_ratio:6.2f}")
    per_document = (totals[2] - totals[1]) / len(pdfs) * 1000
    print(f"read_document runs at {ratio:.2f}× the bare pypdfium2 loop (target ≥ {TARGET}×, best of {repeat})")
    print(f"in a reader process at {child_ratio:.2f}× (target ≥ {CHILD_TARGET}×): {per_document:+.1f} ms per document")
    small = min(pdfs, key=lambda path: path.stat().st_size)
    print(
        f"starting a reader process (and its imports) adds {start_cost(small, repeat) * 1000:.0f} ms to its first read"
    )
    return 0 if ratio >= TARGET and child_ratio >= CHILD_TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())

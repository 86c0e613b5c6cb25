"""Only the progress-honesty section ([5]) of ``bench/daemon_bench.py``: held-out documents through a real daemon,
the row's ``progress`` against the true share of each job's time (about 1–2 minutes).

    .venv/bin/python bench/honesty_section.py             # the section as daemon_bench.py runs it
    .venv/bin/python bench/honesty_section.py --verbose   # and every sample: job, length, shown, true
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import daemon_bench
from bench_support import GENERATE_SIZES, INGEST_SIZES, held_out, pdf_corpus, run_section, text_corpus


async def honesty(root: Path) -> None:
    """The section's documents, as ``daemon_bench.run`` picks them, then the section."""
    docs = root / "docs"
    generate = [p for p in text_corpus(docs, GENERATE_SIZES, prefix="gen") if held_out(p.name)]
    big = [p for p in text_corpus(docs, INGEST_SIZES, prefix="big") if held_out(p.name)]
    small = sorted(pdf_corpus(max_pages=10_000), key=lambda p: p.stat().st_size)
    pdfs = [p for p in small if held_out(p.name) and p.stat().st_size < 5_000_000]
    pipeline = [p for p in generate if p.stat().st_size <= 9000]
    await daemon_bench.bench_honesty(root, [*pdfs, *big], pipeline, rounds=5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--verbose", action="store_true", help="print every sample")
    daemon_bench.VERBOSE = parser.parse_args().verbose
    return run_section("progress honesty section", honesty)


if __name__ == "__main__":
    raise SystemExit(main())

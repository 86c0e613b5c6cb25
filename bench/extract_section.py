"""Only the extraction section ([4]) of ``bench/daemon_bench.py``: ingest jobs through a real daemon over the PDF
test corpus against the bare pypdfium2 loop, five alternating rounds (about 2–3 minutes).

    .venv/bin/python bench/extract_section.py              # the section as daemon_bench.py runs it
    .venv/bin/python bench/extract_section.py --rounds 2   # fewer rounds
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import daemon_bench
from bench_support import pdf_corpus, run_section


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=daemon_bench.ROUNDS, help="alternating rounds (default 5)")
    args = parser.parse_args()
    daemon_bench.ROUNDS = args.rounds
    return run_section("extraction section", lambda root: daemon_bench.bench_extraction(root, pdf_corpus(10_000)))


if __name__ == "__main__":
    raise SystemExit(main())

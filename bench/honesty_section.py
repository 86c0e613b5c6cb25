"""Only the progress-honesty section ([5]) of ``bench/daemon_bench.py``: held-out documents through a real daemon,
the row's ``progress`` against the true share of each job's time (about 1–2 minutes).

    .venv/bin/python bench/honesty_section.py             # the section as daemon_bench.py runs it
    .venv/bin/python bench/honesty_section.py --verbose   # and every sample: job, length, shown, true
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import daemon_bench
from bench_support import GENERATE_SIZES, INGEST_SIZES, held_out, pdf_corpus, text_corpus


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--verbose", action="store_true", help="print every sample")
    args = parser.parse_args()
    daemon_bench.VERBOSE = args.verbose
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"progress honesty section, {dt.datetime.now(dt.UTC).isoformat(timespec='seconds')}, load average {load}")
    root = Path(tempfile.mkdtemp(prefix="studyjobs-honesty-section-"))
    started = time.monotonic()
    try:
        docs = root / "docs"
        generate = [p for p in text_corpus(docs, GENERATE_SIZES, prefix="gen") if held_out(p.name)]
        big = [p for p in text_corpus(docs, INGEST_SIZES, prefix="big") if held_out(p.name)]
        small = sorted(pdf_corpus(max_pages=10_000), key=lambda p: p.stat().st_size)
        pdfs = [p for p in small if held_out(p.name) and p.stat().st_size < 5_000_000]
        pipeline = [p for p in generate if p.stat().st_size <= 9000]
        asyncio.run(daemon_bench.bench_honesty(root, [*pdfs, *big], pipeline, rounds=5))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

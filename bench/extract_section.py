"""Only the extraction section ([4]) of ``bench/daemon_bench.py``: ingest jobs through a real daemon over the PDF
test corpus against the bare pypdfium2 loop, five alternating rounds (about 2–3 minutes).

    .venv/bin/python bench/extract_section.py              # the section as daemon_bench.py runs it
    .venv/bin/python bench/extract_section.py --rounds 2   # fewer rounds
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
from bench_support import pdf_corpus


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=daemon_bench.ROUNDS, help="alternating rounds (default 5)")
    args = parser.parse_args()
    daemon_bench.ROUNDS = args.rounds
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"extraction section, {dt.datetime.now(dt.UTC).isoformat(timespec='seconds')}, load average {load}")
    root = Path(tempfile.mkdtemp(prefix="studyjobs-extract-section-"))
    started = time.monotonic()
    try:
        asyncio.run(daemon_bench.bench_extraction(root, pdf_corpus(max_pages=10_000)))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Text recognition of scanned pages: accuracy against the pages' own text layer, speed, start, memory.

Pages of prose of real Portuguese and English PDFs of the test corpus (``tests/daemon/corpus.py``: the Portuguese
LaTeX introduction and R's "An Introduction to R") are rendered at 200 dpi with pypdfium2, turned a degree,
speckled and blurred into an image-only PDF (``tests/daemon/readers/scans.py``), and a clean image-only PDF of the
same pages is made too. Each is read the way the worker reads it: in a reader process of a
:class:`~daemon.readers.sandbox.isolated.ReaderPool`, under its limits (the recognition budget of
``daemon.readers.sandbox.limits``), with the document's language found by the reader. Printed per document and kind:

* character error rate of the recognised text against the text layer (whitespace normalised; the reference is
  cleaned by the same page cleanup as the reader's);
* accented words right (the reference's words of Latin letters with an accent, found as often in the recognised
  text);
* seconds per page (wall time of the read in the reader process, the process's start not counted) and CPU
  seconds per page of the reader process;
* the reader process's peak resident memory;
* the engine's start (a fresh interpreter importing tesserocr and loading ``por``), and one page recognised on one
  thread with ``por`` against ``por+eng``.

Run: ``python bench/ocr_bench.py [--pages 3]``. The machine's load average is printed: figures on shared cores
vary with it.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pypdfium2 as pdfium  # type: ignore[import-untyped]

from daemon.readers.formats.ocr import OCR_DPI, tessdata_dir
from daemon.readers.formats.pdf import PDFIUM_LOCK
from daemon.readers.sandbox.isolated import ReaderPool
from tests.daemon.corpus import fetch_corpus
from tests.daemon.readers.scans import (
    accented_words_right,
    clean_pdf,
    error_rate,
    reference_text,
    scanned_pdf,
)

_MIN_CHARS = 1500
_MATHS = re.compile("[\u0370-\u03ff\u2200-\u22ff\u00b5]")
_MAX_SYMBOLS = 2


def prose_pages(source: Path, count: int) -> list[int]:
    """``count`` 0-based pages of prose spread over the document: 1,500 characters or more of text layer, no
    table-of-contents leaders, few lines of code (lines with braces or backslashes), no formulas (Greek letters
    or mathematical operators: a formula's text layer is its symbols in drawing order, not a text to read)."""
    with PDFIUM_LOCK:
        total = len(pdfium.PdfDocument(str(source)))
    candidates = []
    for index in range(total // 10, total - total // 10):
        text = reference_text(source, [index])
        code = sum(1 for line in text.splitlines() if "\\" in line or "{" in line or "<-" in line)
        formulas = len(_MATHS.findall(text))
        if len(text) >= _MIN_CHARS and "…" not in text and code <= 1 and formulas <= _MAX_SYMBOLS:
            candidates.append(index)
    step = max(1, len(candidates) // count)
    return candidates[::step][:count]


def engine_start() -> float:
    """Seconds for a fresh interpreter to import tesserocr and start an engine with ``por`` (median of three)."""
    code = (
        "import time; t = time.perf_counter(); import tesserocr; "
        f"api = tesserocr.PyTessBaseAPI(path={str(tessdata_dir())!r}, lang='por'); "
        "print(time.perf_counter() - t)"
    )
    runs = sorted(float(subprocess.check_output([sys.executable, "-c", code], text=True)) for _ in range(3))
    return runs[1]


def one_thread(path: Path) -> dict[str, float]:
    """Seconds to recognise the first page of ``path`` on one thread, with ``por`` and with ``por+eng``."""
    import tesserocr  # type: ignore[import-untyped]

    with PDFIUM_LOCK:
        document = pdfium.PdfDocument(str(path))
        image = document[0].render(scale=OCR_DPI / 72, grayscale=True).to_pil().copy()
        document.close()
    seconds = {}
    for languages in ("por", "por+eng"):
        with tesserocr.PyTessBaseAPI(path=str(tessdata_dir()), lang=languages) as engine:
            began = time.perf_counter()
            engine.SetImage(image)
            engine.GetUTF8Text()
            seconds[languages] = time.perf_counter() - began
    return seconds


def _cpu_of(pid: int) -> float:
    """CPU seconds (user + system) of process ``pid`` so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(pool: ReaderPool, path: Path, reference: str, pages: int) -> str:
    """Read ``path`` in a reader process of ``pool`` and describe the figures in one line."""
    pool.warm()
    while not pool.processes():
        time.sleep(0.05)
    pid = pool.processes()[0]
    cpu = _cpu_of(pid)
    began = time.perf_counter()
    document = pool.read(path)
    seconds = time.perf_counter() - began
    cpu = _cpu_of(pid) - cpu if Path(f"/proc/{pid}").exists() else float("nan")
    report = pool.last_report
    right, accented = accented_words_right(document.text, reference)
    accents = f"{100 * right / accented:.1f} % of {accented}" if accented else "none in the text"
    peak = report.child_peak_rss_kib // 1024 if report else 0
    return (
        f"error {100 * error_rate(document.text, reference):.2f} %, accented words (Latin letters) right {accents}, "
        f"{seconds / pages:.2f} s/page wall, {cpu / pages:.2f} CPU s/page, language {document.language}, "
        f"reader peak {peak} MiB"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=3, help="pages of each document (default 3)")
    args = parser.parse_args()
    corpus = fetch_corpus()
    sources = {
        "Portuguese (pt-lshort)": corpus.portuguese_pdf("lshort-portuguese/pt-lshort.pdf"),
        "English (R-intro)": corpus.r_manual("R-intro"),
    }
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"engine start (fresh interpreter, import + por): {engine_start():.2f} s")
    pool = ReaderPool(spare=1)
    try:
        with tempfile.TemporaryDirectory() as folder:
            for name, source in sources.items():
                pages = prose_pages(source, args.pages)
                reference = reference_text(source, pages)
                scanned = scanned_pdf(source, pages, Path(folder) / "scanned.pdf")
                clean = clean_pdf(source, pages, Path(folder) / "clean.pdf")
                print(f"{name}, pages {[p + 1 for p in pages]} ({len(reference)} characters):")
                print(f"  clean:   {measure(pool, clean, reference, len(pages))}")
                print(f"  scanned: {measure(pool, scanned, reference, len(pages))}")
                alone = one_thread(scanned)
                print(f"  one page, one thread: por {alone['por']:.2f} s, por+eng {alone['por+eng']:.2f} s")
    finally:
        pool.close()
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

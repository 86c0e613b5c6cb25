"""``bench/guide_eval.py`` runs: one short real document through the guide pipeline with the bundled model, and a
table whose columns are there and whose numbers are sane (so the script cannot rot)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.daemon.corpus import Corpus

ROOT = Path(__file__).resolve().parents[3]
COLUMNS = [
    "document", "pages", "sections", "words", "model calls", "kept", "grounded", "grounded, all written",
    "non-words", "repeated", "language", "seconds", "÷ floor",
]  # fmt: skip
SHARE = re.compile(r"(\d+)/(\d+) \(\d+%\)|— \(none kept\)|— \(none\)")


def test_guide_eval_prints_its_table_for_one_short_document(corpus: Corpus, tmp_path: Path) -> None:
    env = {**os.environ, "STUDYJOBS_DATA_DIR": str(tmp_path / "data")}  # default settings, not this user's
    command = [
        sys.executable, str(ROOT / "bench" / "guide_eval.py"), "--docs", "pt-beamer:1", "--summaries", "on",
        "--probe-tokens", "200", "--threads", "1",
    ]  # fmt: skip
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    lines = result.stdout.splitlines()
    head = next(line for line in lines if line.startswith("| document"))
    assert [cell.strip() for cell in head.strip("|").split("|")] == COLUMNS
    row = next(line for line in lines if line.startswith("| pt-beamer"))
    cells = dict(zip(COLUMNS, (cell.strip() for cell in row.strip("|").split("|")), strict=True))
    assert cells["pages"] == "1"
    assert int(cells["sections"]) >= 1
    assert int(cells["words"]) > 20
    assert 0 <= int(cells["kept"]) <= int(cells["sections"]) <= int(cells["model calls"])  # summaries on
    for column in ("grounded", "grounded, all written"):
        grounded = SHARE.fullmatch(cells[column])
        assert grounded is not None, cells[column]
        if grounded[1] is not None:
            assert int(grounded[1]) <= int(grounded[2])
    assert cells["grounded, all written"] != "— (none)"  # with summaries on the model wrote each section
    assert 0.0 <= float(cells["non-words"].rstrip("%")) <= 100.0
    assert int(cells["repeated"]) >= 0
    assert cells["language"] == "pt (doc pt)"
    assert float(cells["seconds"]) > 0
    assert 0.3 < float(cells["÷ floor"]) < 20, row  # the pipeline costs about its floor, not ten times it
    speeds = next(line for line in lines if line.startswith("speeds:"))
    assert re.search(r"prompt \d+ tokens/s .* decode \d+\.\d tokens/s", speeds), speeds

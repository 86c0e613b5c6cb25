"""The worker reads a scanned PDF made from real corpus pages: its row says which page is being recognised, with
a time left, and a cancel ends the recognising reader process within half a second."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from core.app.messages.sentences import render
from core.progress import ETA_SECONDS
from tests.daemon.corpus import fetch_corpus
from tests.daemon.readers.scans import scanned_pdf
from tests.daemon.worker.faults import add, cancel_when, job, wait_ended, wait_job
from tests.daemon.worker.test_reader_process import children, running
from tests.daemon.worker.workerhome import DaemonHome
from tests.waiting import wait_until

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads the worker's children from /proc")

PAGES = range(30, 38)  # 0-based pages of prose of the Portuguese LaTeX introduction


def recognising(row: object) -> bool:
    message = getattr(row, "message", None)
    return getattr(row, "status", None) == "running" and "Recognising the text of page" in render(message, "en")


def test_a_scanned_pdf_says_which_page_it_recognises_and_a_cancel_ends_its_reader_within_half_a_second(
    home: DaemonHome, tmp_path: Path
) -> None:
    source = fetch_corpus().portuguese_pdf("lshort-portuguese/pt-lshort.pdf")
    scanned = scanned_pdf(source, list(PAGES), tmp_path / "digitalizado.pdf")
    daemon = home.start()
    (ingest,) = add(home, scanned, only_extract=True)
    row = wait_job(home, ingest, recognising, timeout=120, what="a page being recognised")
    assert f"of {len(PAGES)}…" in render(row.message, "en")
    assert "Reconhecendo o texto da página" in render(row.message, "pt_BR")
    row = wait_job(home, ingest, lambda r: recognising(r) and r.detail.get(ETA_SECONDS), what="a time left")
    assert row.detail[ETA_SECONDS] >= 1.0  # pages left to recognise, not the text layer's milliseconds
    readers = children(daemon.pid)
    cancel_when(home, ingest, recognising)
    cancelled_at = time.monotonic()
    wait_until(lambda: not all(map(running, readers)), timeout=5, interval=0.01, what="the recognising reader to end")
    stopped_after = time.monotonic() - cancelled_at
    wait_job(home, ingest, lambda r: r.status == "cancelled", timeout=10, what="the cancel")
    print(f"\nreader ended {stopped_after:.3f} s after the cancel; time left seen {row.detail[ETA_SECONDS]} s")
    assert stopped_after < 0.5, f"the reader ended {stopped_after:.2f} s after the cancel"
    (again,) = add(home, scanned, only_extract=True)
    assert wait_ended(home, [again], timeout=300).jobs[again].status == "done"
    assert job(home, ingest).status == "cancelled"  # type: ignore[union-attr]
    assert daemon.poll() is None

"""The worker reads documents in reader processes: a crash, a memory hog, a hang or a cancel there fails (or stops)
only its job; the same worker process reads the next real document, with its page counter on the row."""

from __future__ import annotations

import shutil
import signal
import sys
import time
from pathlib import Path

import pytest

from core.app.messages.sentences import render
from core.stored_messages import decode
from daemon.readers import read_document
from tests.daemon.corpus import fetch_corpus
from tests.daemon.worker.faults import PORTUGUESE, add, cancel, job, wait_ended, wait_job
from tests.daemon.worker.workerhome import DaemonHome
from tests.waiting import wait_until

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads the worker's children from /proc")

FAULTY_READER = {
    "STUDYJOBS_READER_ENTRY": "tests.daemon.readers.reader_faults:by_name",
    "STUDYJOBS_READER_LIMITS": "wall=8,memory_mb=256",
}


def children(pid: int) -> set[int]:
    """The live processes whose parent is ``pid``."""
    found: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if fields[0] != "Z" and int(fields[1]) == pid:
            found.add(int(entry.name))
    return found


def running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        return Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def peak_rss_mib(pid: int) -> float:
    """``VmHWM`` of process ``pid`` in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def test_crashing_hogging_and_hanging_readers_fail_their_jobs_and_the_worker_reads_the_next_pdf(
    home: DaemonHome, tmp_path: Path
) -> None:
    faulty = []
    for name in ("crash.txt", "hog.txt", "hang.txt"):
        faulty.append(tmp_path / name)
        faulty[-1].write_text(PORTUGUESE, encoding="utf-8")
    pdf = shutil.copy(fetch_corpus().r_manual("R-FAQ"), tmp_path / "R-FAQ.pdf")
    daemon = home.start(**FAULTY_READER)
    started = time.monotonic()
    ids = add(home, *faulty, Path(pdf), only_extract=True)
    state = wait_ended(home, ids, timeout=180)
    rows = [state.jobs[job_id] for job_id in ids]
    print(f"\n{'file':<12} {'outcome':<22} {'worker peak MiB':>16}  message")
    for path, row in zip([*faulty, pdf], rows, strict=True):
        code = decode(row.error).code if decode(row.error) else row.status  # type: ignore[union-attr]
        print(f"{Path(path).name:<12} {code:<22} {peak_rss_mib(daemon.pid):>16.0f}  {render(row.error, 'en')}")
    codes = [stored.code if (stored := decode(row.error)) else None for row in rows]
    assert codes == ["reader_crashed", "reader_out_of_memory", "reader_too_slow", None]
    assert [row.status for row in rows] == ["failed", "failed", "failed", "done"]
    assert all(row.attempts == 1 and not row.error_transient for row in rows[:3])
    pages = read_document(Path(pdf)).page_count
    assert rows[3].detail["pages_done"] == rows[3].detail["pages_total"] == pages
    assert daemon.poll() is None, "the worker died"
    assert peak_rss_mib(daemon.pid) < 1536
    assert time.monotonic() - started < 150


def test_cancelling_a_read_ends_its_reader_process_at_once_and_the_worker_reads_the_next_document(
    home: DaemonHome, tmp_path: Path
) -> None:
    hanging = tmp_path / "hang-until-cancelled.txt"
    hanging.write_text(PORTUGUESE, encoding="utf-8")
    good = tmp_path / "bom.txt"
    good.write_text(PORTUGUESE, encoding="utf-8")
    daemon = home.start(STUDYJOBS_READER_ENTRY=FAULTY_READER["STUDYJOBS_READER_ENTRY"])
    (hang_id,) = add(home, hanging, only_extract=True)
    wait_job(home, hang_id, lambda row: row.status == "running" and row.stage == "read", what="the read")
    readers = children(daemon.pid)
    cancel(home, hang_id)
    wait_job(home, hang_id, lambda row: row.status == "cancelled", timeout=10, what="the cancel")
    cancelled_at = time.monotonic()
    wait_until(lambda: readers - children(daemon.pid), timeout=5, what="the reading process to end")
    assert time.monotonic() - cancelled_at < 5
    (good_id,) = add(home, good, only_extract=True)
    state = wait_ended(home, [good_id])
    assert state.jobs[good_id].status == "done", state.jobs[good_id].error
    assert job(home, hang_id).status == "cancelled"  # type: ignore[union-attr]
    assert daemon.poll() is None, "the worker died"


def test_a_worker_killed_with_sigkill_leaves_no_reader_process_behind(home: DaemonHome, tmp_path: Path) -> None:
    good = tmp_path / "bom.txt"
    good.write_text(PORTUGUESE, encoding="utf-8")
    daemon = home.start()
    (good_id,) = add(home, good, only_extract=True)
    assert wait_ended(home, [good_id]).jobs[good_id].status == "done"
    readers = children(daemon.pid)
    assert readers, "the worker has no reader process"
    daemon.send_signal(signal.SIGKILL)
    daemon.wait(10)
    wait_until(lambda: not any(map(running, readers)), timeout=10, what="the reader processes to end")
    again = home.start()
    (second_id,) = add(home, good, only_extract=True)
    assert wait_ended(home, [second_id]).jobs[second_id].status == "done"
    assert again.poll() is None

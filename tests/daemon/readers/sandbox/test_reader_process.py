"""Documents read in a reader process under limits: real processes, real documents, real faults."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.app.messages.sentences import message
from daemon.readers import ExtractionError, ExtractionStopped, read_document
from daemon.readers.sandbox.isolated import ReaderPool
from daemon.readers.sandbox.limits import ReadLimits, limits_for
from tests.daemon.corpus import Corpus
from tests.daemon.readers.hostile import build_hostile_inputs
from tests.daemon.readers.hostile_pdf import build_hostile_pdfs
from tests.daemon.readers.support import ProgressLog
from tests.waiting import wait_until

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the limits are set with setrlimit here")

FAULTS = "tests.daemon.readers.reader_faults"
_MIB = 1024 * 1024
TIGHT = ReadLimits(memory_bytes=256 * _MIB, cpu_seconds=20.0, wall_seconds=30.0, max_text_chars=8 * _MIB)


@pytest.fixture
def pool() -> Iterator[ReaderPool]:
    """A pool of reader processes, closed (every process ended) after the test."""
    readers = ReaderPool()
    readers.warm()
    try:
        yield readers
    finally:
        readers.close()


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def refusal(pool: ReaderPool, path: Path, **options: object) -> ExtractionError:
    with pytest.raises(ExtractionError) as caught:
        pool.read(path, **options)  # type: ignore[arg-type]
    return caught.value


def assert_plain(error: ExtractionError) -> None:
    for language in ("pt_BR", "en"):
        sentence = error.user_message(language)
        assert sentence == message(error.code, language, **error.values)
        assert "{" not in sentence and "signal" not in sentence.lower()


def test_a_real_pdf_read_in_a_reader_process_is_the_document_read_here_with_every_page_counted(
    pool: ReaderPool, corpus: Corpus
) -> None:
    path = corpus.r_manual("R-FAQ")
    progress = ProgressLog()
    document = pool.read(path, on_progress=progress)
    assert document == read_document(path)
    assert document.page_count is not None and document.page_count > 40
    progress.assert_complete(document.page_count)
    assert progress.threads == {threading.get_ident()}  # reported on the calling thread, as read_document does
    report = pool.last_report
    assert report is not None and report.outcome == "done" and report.pid != os.getpid()
    assert report.pid in pool.processes()  # kept for the next document


def test_a_document_given_to_a_pool_whose_process_still_starts_is_expected_to_wait_for_it(corpus: Corpus) -> None:
    readers = ReaderPool()
    try:
        assert readers.start_wait() > 0  # no process at all: a whole start
        readers.warm()
        assert 0 < readers.start_wait() <= 0.5  # the spare process imports the readers
        wait_until(lambda: readers.start_wait() <= 0, timeout=60, what="the spare process to be ready", interval=0.01)
        assert readers.start_wait() == 0.0
        readers.read(corpus.r_manual("R-FAQ"))
        assert readers.start_wait() == 0.0  # the process is back in the pool, ready
    finally:
        readers.close()


def test_a_long_manual_comes_back_whole_with_the_pages_of_every_paragraph(pool: ReaderPool, corpus: Corpus) -> None:
    path = corpus.r_manual("refman")  # 2,415 pages: its page map alone is far longer than a progress message
    document = pool.read(path, on_progress=lambda done, total: None)
    assert document.page_count == 2415
    assert document.structure is not None and len(document.structure) > 64 * 1024
    assert document == read_document(path)


def test_a_reader_that_faults_in_native_code_fails_as_crashed_and_the_next_document_is_read(
    pool: ReaderPool, corpus: Corpus
) -> None:
    path = corpus.r_manual("R-FAQ")
    error = refusal(pool, path, entry=f"{FAULTS}:crash")
    assert error.code == "reader_crashed" and not error.transient
    assert "SIGSEGV" in error.detail
    assert_plain(error)
    crashed = pool.last_report
    assert crashed is not None and not alive(crashed.pid)
    assert pool.read(path).page_count == read_document(path).page_count
    assert pool.last_report is not None and pool.last_report.pid != crashed.pid


def test_a_reader_over_its_memory_limit_fails_as_out_of_memory_and_the_worker_keeps_its_memory(
    pool: ReaderPool, corpus: Corpus
) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    error = refusal(pool, corpus.r_manual("R-FAQ"), entry=f"{FAULTS}:allocate", limits=TIGHT)
    assert error.code == "reader_out_of_memory" and error.values == {"max_mb": 256}
    assert_plain(error)
    report = pool.last_report
    assert report is not None and report.child_peak_rss_kib > 128 * 1024  # it really allocated before the limit
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 64 * 1024
    assert pool.read(corpus.r_manual("R-FAQ")).page_count


def test_a_reader_that_hangs_is_ended_at_its_wall_time_limit(pool: ReaderPool, corpus: Corpus) -> None:
    limits = ReadLimits(memory_bytes=256 * _MIB, cpu_seconds=20.0, wall_seconds=2.0, max_text_chars=_MIB)
    progress = ProgressLog()
    started = time.monotonic()
    error = refusal(pool, corpus.r_manual("R-FAQ"), entry=f"{FAULTS}:hang", limits=limits, on_progress=progress)
    assert 2.0 <= time.monotonic() - started < 6.0
    assert error.code == "reader_too_slow" and error.values == {"seconds": 2}
    assert progress.calls == [(0, 10)]
    assert pool.last_report is not None and not alive(pool.last_report.pid)


def test_a_reader_that_spins_is_ended_by_its_cpu_time_limit(pool: ReaderPool, corpus: Corpus) -> None:
    limits = ReadLimits(memory_bytes=256 * _MIB, cpu_seconds=1.0, wall_seconds=60.0, max_text_chars=_MIB)
    started = time.monotonic()
    error = refusal(pool, corpus.r_manual("R-FAQ"), entry=f"{FAULTS}:spin", limits=limits)
    assert time.monotonic() - started < 30.0
    assert error.code == "reader_too_slow" and "SIGXCPU" in error.detail and error.values == {"seconds": 1}


def test_a_stop_request_during_a_long_read_ends_the_reader_process_at_once(
    pool: ReaderPool, corpus: Corpus, joined_threads: list[threading.Thread]
) -> None:
    stop = threading.Event()
    progress = ProgressLog()
    outcome: list[BaseException] = []

    def read() -> None:
        try:
            pool.read(corpus.r_manual("R-FAQ"), entry=f"{FAULTS}:slow_pages", on_progress=progress, stop_event=stop)
        except BaseException as raised:
            outcome.append(raised)

    thread = threading.Thread(target=read)
    joined_threads.append(thread)
    thread.start()
    wait_until(lambda: progress.done >= 3, timeout=60, what="the slow reader to report its pages", interval=0.01)
    stop.set()
    stopped_at = time.monotonic()
    thread.join(timeout=10)
    assert time.monotonic() - stopped_at < 1.0
    assert len(outcome) == 1 and isinstance(outcome[0], ExtractionStopped)
    assert outcome[0].total == 1000 and outcome[0].done >= 3
    assert pool.last_report is not None and not alive(pool.last_report.pid)


def test_a_reader_process_killed_from_outside_fails_the_read_as_transient(
    pool: ReaderPool, corpus: Corpus, joined_threads: list[threading.Thread]
) -> None:
    (pid,) = pool.processes()  # the spare process: the next read takes it
    progress = ProgressLog()
    outcome: list[BaseException] = []

    def read() -> None:
        try:
            pool.read(corpus.r_manual("R-FAQ"), entry=f"{FAULTS}:slow_pages", on_progress=progress)
        except BaseException as raised:
            outcome.append(raised)

    thread = threading.Thread(target=read)
    joined_threads.append(thread)
    thread.start()
    wait_until(lambda: progress.done >= 3, timeout=60, what="the slow reader to report its pages", interval=0.01)
    os.kill(pid, signal.SIGKILL)  # as the kernel's out-of-memory killer would
    thread.join(timeout=10)
    assert len(outcome) == 1 and isinstance(outcome[0], ExtractionError), outcome
    error = outcome[0]
    assert error.code == "reader_killed" and error.transient and "SIGKILL" in error.detail
    assert_plain(error)
    assert pool.read(corpus.r_manual("R-FAQ")).page_count


def test_text_past_its_limit_is_refused_and_the_process_reads_on(pool: ReaderPool, corpus: Corpus) -> None:
    path = corpus.r_manual("R-FAQ")
    small = ReadLimits(memory_bytes=512 * _MIB, cpu_seconds=30.0, wall_seconds=60.0, max_text_chars=1000)
    error = refusal(pool, path, limits=small)
    assert error.code == "text_too_large" and error.values["max_chars"] == 1000
    assert int(error.values["chars"]) == read_document(path).char_count
    assert_plain(error)
    first = pool.last_report
    assert pool.read(path).char_count > 1000
    assert first is not None and pool.last_report is not None and pool.last_report.pid == first.pid


def test_the_default_limits_grow_with_the_file() -> None:
    small, large = limits_for(100_000), limits_for(100 * _MIB)
    assert small.memory_bytes >= 512 * _MIB and large.memory_bytes > small.memory_bytes + 1000 * _MIB
    assert large.cpu_seconds > small.cpu_seconds >= 30 and large.wall_seconds > 2 * large.cpu_seconds - 1
    assert large.max_text_chars >= 200 * _MIB


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in KiB on Linux")
def test_hostile_files_and_faulting_readers_each_end_within_their_limits_and_the_next_document_is_read(
    pool: ReaderPool, corpus: Corpus, tmp_path: Path
) -> None:
    hostile = build_hostile_inputs(tmp_path / "hostile")
    hostile_pdfs = build_hostile_pdfs(tmp_path / "hostile-pdfs")
    real = corpus.r_manual("R-intro")
    fifo = tmp_path / "fifo.pdf"
    os.mkfifo(fifo)
    sparse = tmp_path / "sparse.pdf"
    with open(sparse, "wb") as handle:
        handle.truncate(1024 * _MIB)
    cases: list[tuple[str, Path, str, str, ReadLimits | None]] = [
        (item.name, item.path, "", item.code, None) for item in hostile
    ]
    cases += [(item.name, item.path, "", item.code, None) for item in hostile_pdfs]
    cases += [
        (real.name, real, "", "done", None),
        ("fifo.pdf", fifo, "", "file_unreadable", None),
        ("sparse-1GB.pdf", sparse, "", "too_large", None),
        ("crash (SIGSEGV)", real, f"{FAULTS}:crash", "reader_crashed", None),
        ("allocate (256 MB)", real, f"{FAULTS}:allocate", "reader_out_of_memory", TIGHT),
        ("hang (wall 2 s)", real, f"{FAULTS}:hang", "reader_too_slow", ReadLimits(256 * _MIB, 20.0, 2.0, _MIB)),
        ("spin (CPU 1 s)", real, f"{FAULTS}:spin", "reader_too_slow", ReadLimits(256 * _MIB, 1.0, 60.0, _MIB)),
        (real.name, real, "", "done", None),
    ]
    print(f"\n{'file':<26} {'expected':<21} {'outcome':<21} {'seconds':>8} {'worker MiB':>11} {'child MiB':>10}")
    outcomes: list[tuple[str, str]] = []
    worker_before_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for name, path, entry, expected, limits in cases:
        options = {"entry": entry} if entry else {}
        with contextlib.suppress(ExtractionError):
            pool.read(path, limits=limits, **options)  # type: ignore[arg-type]
        report = pool.last_report
        assert report is not None
        worker_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        child_mib = report.child_peak_rss_kib / 1024
        child = f"{child_mib:.0f}" if child_mib else "-"  # a process that died of a fault leaves no figure
        print(f"{name:<26} {expected:<21} {report.outcome:<21} {report.seconds:>8.2f} {worker_mib:>11.0f} {child:>10}")
        outcomes.append((expected, report.outcome))
        assert report.seconds < 20, name
    assert [outcome for outcome, _ in outcomes] == [outcome for _, outcome in outcomes]
    worker_peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert worker_peak_kib < 1536 * 1024
    assert worker_peak_kib - worker_before_kib < 64 * 1024, "the worker's own memory grew while its readers read"

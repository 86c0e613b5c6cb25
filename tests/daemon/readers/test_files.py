"""A file that is busy for now is a transient error; a file gone since it was added has its own message; pipes
and loops are refused at once."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from daemon.readers import TRANSIENT_CODES, ExtractionError, read_document
from daemon.readers.files import BUSY_WINERRORS, error_for_os_error
from tests.daemon.readers.samples import ENGLISH, PORTUGUESE, write_docx

LEASES = Path("/proc/sys/fs/leases-enable")
# Another program that opens the file for writing and takes a write lease on it (as Samba does for a Windows
# client's oplock): until it lets go, any other open fails at once with EAGAIN when made without blocking.
LEASE_HOLDER = """
import fcntl, os, signal, sys
signal.signal(signal.SIGIO, lambda *_: None)  # the kernel's "someone wants the file" signal: keep the lease
descriptor = os.open(sys.argv[1], os.O_RDWR)
fcntl.fcntl(descriptor, fcntl.F_SETLEASE, fcntl.F_WRLCK)
print("leased", flush=True)
sys.stdin.read()
"""


def refusal(path: Path) -> ExtractionError:
    with pytest.raises(ExtractionError) as caught:
        read_document(path)
    return caught.value


@pytest.fixture
def lease_holder(tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    """A Word document that another process holds a write lease on; the process ends with the test."""
    path = write_docx(tmp_path / "aula.docx", paragraphs=PORTUGUESE)
    holder = subprocess.Popen(
        [sys.executable, "-c", LEASE_HOLDER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "leased"
        yield path, holder
    finally:
        holder.kill()
        holder.wait(timeout=30)
        for stream in (holder.stdin, holder.stdout):
            if stream is not None:
                stream.close()


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or not LEASES.exists() or LEASES.read_text().strip() != "1",
    reason="file leases are a Linux feature",
)
def test_a_file_another_program_holds_a_lease_on_is_busy_then_read_once_it_lets_go(
    lease_holder: tuple[Path, subprocess.Popen[str]],
) -> None:
    path, holder = lease_holder
    started = time.monotonic()
    error = refusal(path)
    assert time.monotonic() - started < 5  # refused at once, not after the kernel's lease-break wait
    assert error.code == "file_busy" and error.transient is True
    assert "EAGAIN" in error.detail or f"errno={errno.EAGAIN}" in error.detail
    assert "tentar de novo" in error.user_message("pt_BR") and "try again" in error.user_message("en")
    holder.kill()
    holder.wait(timeout=30)
    assert read_document(path).text.startswith(PORTUGUESE[0])


@pytest.mark.parametrize("number", [errno.EAGAIN, errno.EBUSY, errno.ETXTBSY, errno.EDEADLK, errno.ETIMEDOUT])
def test_errors_that_mean_in_use_or_not_ready_are_transient(number: int, tmp_path: Path) -> None:
    error = error_for_os_error(OSError(number, os.strerror(number)), tmp_path / "a.pdf")
    assert error.code == "file_busy" and error.code in TRANSIENT_CODES and error.transient is True


@pytest.mark.parametrize("winerror", [32, 33, 362, 391, 426])
def test_windows_sharing_lock_and_cloud_file_errors_are_transient(winerror: int, tmp_path: Path) -> None:
    exc = PermissionError(errno.EACCES, "The process cannot access the file")
    exc.winerror = winerror  # type: ignore[attr-defined]  # set by Python itself on Windows
    assert winerror in BUSY_WINERRORS
    error = error_for_os_error(exc, tmp_path / "a.pdf")
    assert error.code == "file_busy" and error.transient is True


def test_permission_and_disk_errors_stay_permanent(tmp_path: Path) -> None:
    for number in (errno.EACCES, errno.EPERM, errno.EIO, errno.EISDIR):
        error = error_for_os_error(OSError(number, os.strerror(number)), tmp_path / "a.pdf")
        assert error.code == "file_unreadable" and error.transient is False


def test_a_file_deleted_after_it_was_added_has_its_own_message(tmp_path: Path) -> None:
    path = write_docx(tmp_path / "notes.docx", paragraphs=ENGLISH)
    path.unlink()
    error = refusal(path)
    assert error.code == "file_deleted" and error.transient is False
    assert error.user_message("en").startswith("The file is no longer where it was when you added it")
    assert error.user_message("pt_BR").startswith("O arquivo não está mais onde estava quando você o adicionou")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_is_refused_at_once_without_waiting_for_a_writer(tmp_path: Path) -> None:
    pipe = tmp_path / "stream.pdf"
    os.mkfifo(pipe)
    started = time.monotonic()
    error = refusal(pipe)
    assert time.monotonic() - started < 5
    assert error.code == "file_unreadable" and "not a regular file" in error.detail


def test_a_symbolic_link_loop_is_unreadable(tmp_path: Path) -> None:
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    first.symlink_to(second)
    second.symlink_to(first)
    error = refusal(first)
    assert error.code == "file_unreadable" and error.transient is False

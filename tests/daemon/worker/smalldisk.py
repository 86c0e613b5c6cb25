"""A small file system that really fills: a tmpfs of a few megabytes mounted for one test (needs root), and a file
that takes the space that is left."""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

CHUNK = 64 * 1024


def can_mount() -> bool:
    """Whether this process may mount a tmpfs (root on Linux)."""
    return sys.platform.startswith("linux") and os.geteuid() == 0


@contextlib.contextmanager
def small_disk(folder: Path, megabytes: int) -> Iterator[Path]:
    """``folder`` as a tmpfs of ``megabytes`` MB, unmounted afterwards (skips the test where it cannot mount)."""
    if not can_mount():
        pytest.skip("mounting a small file system needs root on Linux")
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={megabytes}m", "tmpfs", str(folder)], capture_output=True, text=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


def fill(folder: Path, *, leave: int = 0) -> Path:
    """Write a file in ``folder`` until its file system is full, then give back ``leave`` bytes; returns the file."""
    filler = folder / "filler.bin"
    block = b"\xa5" * CHUNK
    with filler.open("wb", buffering=0) as handle:
        try:
            while True:
                handle.write(block)
        except OSError as error:
            assert error.errno == errno.ENOSPC, error
    if leave:
        os.truncate(filler, max(filler.stat().st_size - leave, 0))
    return filler


def free_bytes(folder: Path) -> int:
    info = os.statvfs(folder)
    return info.f_bavail * info.f_frsize

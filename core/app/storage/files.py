"""Writing a file so that its path holds either the old file or the whole new one, never half a file."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["write_atomically", "write_whole"]


def write_whole(path: Path, write: Callable[[Path], Any], *, suffix: str | None = None) -> None:
    """Call ``write`` with a temporary path in ``path``'s folder, flush what it wrote to the disk, then rename it
    onto ``path``.

    A reader never sees half a file, and a crash or a power cut after the rename leaves the whole new file, not an
    empty one. The temporary file's name starts with a dot and ``path``'s name and ends in ``suffix`` (default:
    ``path``'s own suffix, for writers that go by it). It is removed when ``write``, the flush or the rename
    raises (a full disk may show only at the flush); the error goes to the caller. The file gets the permissions
    of any file the user makes (``0o666`` less the umask), as a guide or an export the user shares must.
    """
    temporary = _new_file(path.parent, prefix=f".{path.name}.", suffix=path.suffix if suffix is None else suffix)
    try:
        write(Path(temporary))
        _flush_to_disk(Path(temporary))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _new_file(folder: Path, *, prefix: str, suffix: str) -> str:
    """Create an empty file of a new random name in ``folder`` with the umask's permissions (``mkstemp`` would
    make it ``0o600``)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        candidate = str(folder / f"{prefix}{secrets.token_hex(4)}{suffix}")
        try:
            os.close(os.open(candidate, flags, 0o666))
        except FileExistsError:
            continue
        return candidate
    raise FileExistsError(f"no free temporary name in {folder}")


def _flush_to_disk(path: Path) -> None:
    """``fsync`` the file at ``path`` (opened for writing: Windows flushes only a handle that may write)."""
    descriptor = os.open(path, os.O_RDWR | getattr(os, "O_BINARY", 0))
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` (UTF-8, line ends as given) whole or not at all, making its folder.

    The text goes to a temporary ``.part`` file beside ``path``, flushed to the disk, then renamed onto ``path``
    (:func:`write_whole`): a reader never sees half a file, a crash leaves the old file, and a full disk raises
    here (at the write or the flush, never later) with the temporary file removed.
    """
    path.parent.mkdir(parents=True, exist_ok=True)

    def write(temporary: Path) -> None:
        with temporary.open("w", encoding="utf-8", newline="\n") as file:
            file.write(text)

    write_whole(path, write, suffix=".part")

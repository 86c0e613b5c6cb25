"""Writing a file so that its path holds either the old file or the whole new one, never half a file."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["write_atomically", "write_whole"]


def write_whole(path: Path, write: Callable[[Path], Any], *, suffix: str | None = None) -> None:
    """Call ``write`` with a temporary path in ``path``'s folder, then rename it onto ``path``.

    The temporary file's name starts with a dot and ``path``'s name and ends in ``suffix`` (default: ``path``'s
    own suffix, for writers that go by it). It is removed when ``write`` or the rename raises; the error goes to
    the caller.
    """
    handle, temporary = tempfile.mkstemp(
        prefix=f".{path.name}.", suffix=path.suffix if suffix is None else suffix, dir=path.parent
    )
    os.close(handle)
    try:
        write(Path(temporary))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` (UTF-8, line ends as given) whole or not at all, making its folder.

    The text goes to a temporary ``.part`` file beside ``path``, flushed to the disk, then renamed onto ``path``:
    a reader never sees half a file, a crash leaves the old file, and a full disk raises here (at the write or the
    flush, never later) with the temporary file removed.
    """
    path.parent.mkdir(parents=True, exist_ok=True)

    def write(temporary: Path) -> None:
        with temporary.open("w", encoding="utf-8", newline="\n") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())

    write_whole(path, write, suffix=".part")

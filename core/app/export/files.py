"""Writing an export so that its path holds either the old file or the whole new one, never half a file."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["write_whole"]


def write_whole(path: Path, write: Callable[[Path], Any]) -> None:
    """Call ``write`` with a temporary path beside ``path``, then rename it onto ``path``.

    The temporary file is removed when ``write`` raises; the error goes to the caller.
    """
    handle, temporary = tempfile.mkstemp(prefix=".export-", suffix=path.suffix, dir=path.parent)
    os.close(handle)
    try:
        write(Path(temporary))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise

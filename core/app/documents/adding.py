"""Adding documents: whether a path can become a document, and the ``ingest`` job that makes it one — the one service
the window and ``studyjobs add`` share, so both record the same parameters (docs/design/documents.md).

Plain functions over the job store; one event loop, like the store.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from core.app.documents.formats import ADDED_KEY, MAX_DOCUMENT_BYTES, added_params, is_supported
from core.app.storage.schema import Job
from core.store import JobStore
from core.stored_messages import encode

__all__ = ["INGEST_KIND", "add_document", "ingest_params", "path_problem"]

INGEST_KIND = "ingest"
"""The kind of a document's root job."""

_NOT_A_FILE = (
    (stat.S_ISDIR, "add_folder"),
    (stat.S_ISFIFO, "add_pipe"),
    (stat.S_ISCHR, "add_device"),
    (stat.S_ISBLK, "add_device"),
    (stat.S_ISSOCK, "add_socket"),
)


def path_problem(path: Path) -> str | None:
    """Why ``path`` cannot be added, as a stored message (:func:`core.stored_messages.encode`: render it in the
    reader's language), or ``None`` when it is a regular file StudyJobs reads, within the size limit.

    It says what the path is — a folder, a pipe, a device, a socket — rather than "no such file", and never opens
    it (opening a FIFO would wait for a writer)."""
    shown = str(path)
    try:
        info = path.stat()
    except FileNotFoundError:
        return encode("add_not_found", path=shown)
    except OSError as error:
        return encode("add_unreadable", path=shown, reason=error.strerror or type(error).__name__)
    if not stat.S_ISREG(info.st_mode):
        code = next((code for test, code in _NOT_A_FILE if test(info.st_mode)), "add_not_a_file")
        return encode(code, path=shown)
    if not is_supported(path):
        return encode("add_unsupported", path=shown)
    if info.st_size > MAX_DOCUMENT_BYTES:
        return encode("add_too_large", path=shown, max_mb=MAX_DOCUMENT_BYTES // (1024 * 1024))
    return None


def ingest_params(path: Path, *, only_extract: bool, language: str | None) -> dict[str, Any]:
    """The ``params`` of the ``ingest`` job of the file at ``path`` (made absolute, links kept as named);
    ``language`` is kept only when a study guide is wanted."""
    absolute = Path(os.path.abspath(path))
    params: dict[str, Any] = {
        "path": str(absolute),
        "only_extract": bool(only_extract),
        ADDED_KEY: added_params(absolute),
    }
    if language and not only_extract:
        params["language"] = language
    return params


async def add_document(
    store: JobStore[Job], path: Path, *, only_extract: bool = False, language: str | None = None
) -> Job:
    """Queue the ``ingest`` job that makes the file at ``path`` a document (its root job); returns that job.

    ``language``: the study guide's language code (:data:`core.app.guides.languages.GUIDE_LANGUAGES`), or
    ``None``/``""`` for the document's own. Check the path with :func:`path_problem` first.
    """
    params = ingest_params(path, only_extract=only_extract, language=language)
    return await store.enqueue(INGEST_KIND, title=Path(params["path"]).name, params=params)

"""Which documents StudyJobs can read: one list shared by the screen (refuse before a job is made) and the daemon."""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "ADDED_KEY", "MAX_DOCUMENT_BYTES", "SUPPORTED_SUFFIXES", "added_params", "changed_since_added", "document_format",
    "is_supported",
]  # fmt: skip

SUPPORTED_SUFFIXES: dict[str, str] = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".epub": "epub",
    ".txt": "text",
    ".text": "text",
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
}
"""File suffix (lower case) → format name."""

MAX_DOCUMENT_BYTES = 200 * 1024 * 1024
"""Files larger than this are refused as oversized (200 MiB)."""


def document_format(path: str | Path) -> str | None:
    """The format of ``path`` by its suffix (``"pdf"``, ``"docx"`` …), or ``None`` when it is not supported."""
    return SUPPORTED_SUFFIXES.get(Path(path).suffix.lower())


def is_supported(path: str | Path) -> bool:
    """Whether StudyJobs can read a file with this name."""
    return document_format(path) is not None


ADDED_KEY = "added"
"""``params`` key of an ``ingest`` job: the file's size and modification time when it was added."""


def added_params(path: str | Path) -> dict[str, int]:
    """What an ``ingest`` job records of its file when it is added (``{}`` when the file cannot be looked at)."""
    try:
        info = Path(path).stat()
    except OSError:
        return {}
    return {"size": info.st_size, "mtime_ns": info.st_mtime_ns}


def changed_since_added(path: str | Path, added: object) -> bool:
    """Whether the file at ``path`` differs in size or modification time from what :func:`added_params` recorded.

    ``False`` when nothing was recorded or the file cannot be looked at now (reading it says what is wrong).
    """
    if not isinstance(added, dict) or not added:
        return False
    now = added_params(path)
    return bool(now) and any(now.get(key) != added.get(key) for key in ("size", "mtime_ns"))

"""Which documents StudyJobs can read: one list shared by the screen (refuse before a job is made) and the daemon."""

from __future__ import annotations

from pathlib import Path

__all__ = ["MAX_DOCUMENT_BYTES", "SUPPORTED_SUFFIXES", "document_format", "is_supported"]

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

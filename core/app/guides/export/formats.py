"""The formats a study guide is exported in (no imports: the command line's parser reads them)."""

from __future__ import annotations

__all__ = ["FORMATS", "SUFFIXES"]

FORMATS = ("md", "docx", "pdf", "anki", "csv")
"""The export formats, the default first."""

SUFFIXES = {"md": ".md", "docx": ".docx", "pdf": ".pdf", "anki": ".apkg", "csv": ".csv"}
"""The file suffix of each format."""

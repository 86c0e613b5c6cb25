"""Exporting a finished study guide, for the command line and the window: :func:`load_export` reads it,
:func:`write_export` writes ``md``, ``docx``, ``anki`` or ``csv``; ``pdf`` is :mod:`gui.guide.export_pdf`'s.

Qt-free. :func:`load_export` runs on the caller's event loop; :func:`write_export` blocks (call it on a worker
thread from an event loop).
"""

from __future__ import annotations

import re
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import select

from core.app.guides.export.anki import write_apkg
from core.app.guides.export.cards import guide_cards, guide_title
from core.app.guides.export.formats import FORMATS, SUFFIXES
from core.app.guides.export.table import write_csv
from core.app.guides.export.word import write_docx
from core.app.guides.stored import guide_job_for, read_guide
from core.app.storage.files import write_atomically
from core.app.storage.schema import Job
from core.db import AsyncDatabaseManager

__all__ = [
    "FORMATS",
    "SUFFIXES",
    "GuideExport",
    "default_file_name",
    "load_export",
    "pdf_command",
    "write_export",
]

GUI_EXECUTABLE = "StudyJobs"
"""The bundle's window executable, which writes a PDF when started with ``--export-pdf``."""


@dataclass(frozen=True, slots=True)
class GuideExport:
    """A guide as stored, ready to export.

    Attributes:
        document_key: The document's id (its root job's): an Anki deck's id and its notes' ids are derived from it.
        guide_key: The guide's id (its ``generate`` job's).
        title: The guide's title.
        markdown: The whole guide.
        complete: Whether the guide is finished (an unfinished one holds the sections written so far).
    """

    document_key: str
    guide_key: str
    title: str
    markdown: str
    complete: bool


async def load_export(db: AsyncDatabaseManager, job_id: uuid.UUID) -> GuideExport | None:
    """The guide of the document (or ``generate`` job) ``job_id`` as stored; ``None`` when it has none yet."""
    guide_job = await guide_job_for(db, job_id)
    if guide_job is None:
        return None
    guide = await read_guide(db, guide_job)
    if guide is None or not guide.markdown.strip():
        return None
    async with db.get_session_context() as session:
        parent = await session.scalar(select(Job.parent_id).where(Job.id == guide_job))
    title = guide.title or guide_title(guide.markdown)
    return GuideExport(str(parent or guide_job), str(guide_job), title, guide.markdown, guide.complete)


def default_file_name(title: str, format_name: str) -> str:
    """A file name for the export of a guide titled ``title`` (characters no system allows replaced)."""
    stem = re.sub(r'(?:\s*[\\/:*?"<>|\x00-\x1f])+\s*', " ", title).strip(" .") or "study guide"
    return stem[:120].rstrip(" .") + SUFFIXES[format_name]


def write_export(guide: GuideExport, format_name: str, path: Path) -> None:
    """Write ``guide`` to ``path`` as ``format_name`` (any of :data:`FORMATS` but ``pdf``).

    Raises:
        ValueError: ``pdf`` or an unknown format.
        OSError: The file could not be written (nothing is left at ``path`` then, or the old file).
    """
    if format_name == "md":
        write_atomically(path, guide.markdown)
    elif format_name == "docx":
        write_docx(guide.markdown, path, guide.title)
    elif format_name == "anki":
        cards = guide_cards(guide.markdown)
        write_apkg(cards, path, deck_name=guide.title, document_key=guide.document_key)
    elif format_name == "csv":
        write_csv(guide_cards(guide.markdown), path)
    else:
        raise ValueError(f"no Qt-free exporter for the format {format_name!r}")


def pdf_command(output: Path, title: str) -> list[str]:
    """The command that reads a guide's Markdown on its standard input and writes it to ``output`` as a PDF.

    From source: ``python -m gui.guide.export_pdf``; in a bundle: the window's executable with ``--export-pdf``.
    """
    arguments = [str(output), "--title", title]
    if getattr(sys, "frozen", False):
        name = GUI_EXECUTABLE + (".exe" if sys.platform == "win32" else "")
        return [str(Path(sys.executable).with_name(name)), "--export-pdf", *arguments]
    return [sys.executable, "-m", "gui.guide.export_pdf", *arguments]

"""A study guide as a PDF, laid out by Qt (``QTextDocument`` + ``QPdfWriter``): no other native library.

:func:`write_pdf` needs a ``QGuiApplication`` and runs on the thread that owns it. ``python -m gui.guide.export_pdf
OUTPUT [--title TITLE]`` reads Markdown on standard input: exit 0 written, 1 not written, 2 bad arguments.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QMarginsF
from PySide6.QtGui import QGuiApplication, QPageLayout, QPageSize, QPdfWriter, QTextDocument

from core.app.storage.files import write_whole

__all__ = ["main", "write_pdf"]

RESOLUTION = 300
"""Dots per inch of the PDF's layout."""


def _render(markdown: str, path: Path, title: str) -> None:
    writer = QPdfWriter(str(path))
    writer.setResolution(RESOLUTION)
    writer.setTitle(title)
    writer.setCreator("StudyJobs")
    # No margins on the writer: Qt lays an unpaginated document out for the writer's resolution (so point sizes
    # stay point sizes) with margins of 2 cm on every page.
    writer.setPageLayout(
        QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0))
    )
    document = QTextDocument()
    document.setMarkdown(markdown)
    document.setMetaInformation(QTextDocument.MetaInformation.DocumentTitle, title)
    document.print_(writer)
    del writer  # the file is finished when the writer is gone


def write_pdf(markdown: str, path: Path, title: str = "") -> None:
    """Write the guide ``markdown`` to ``path`` as a PDF (a temporary file renamed into place). Qt's GUI thread.

    Raises:
        OSError: The file could not be written.
    """

    def render(temporary: Path) -> None:
        _render(markdown, temporary, title)
        if temporary.stat().st_size == 0:
            raise OSError(f"Qt wrote nothing to {temporary}")

    write_whole(path, render)


def main(argv: Sequence[str] | None = None) -> int:
    """Read Markdown on standard input and write it to the PDF named in ``argv``; returns the exit code."""
    parser = argparse.ArgumentParser(prog="studyjobs-export-pdf", description="Write a study guide as a PDF.")
    parser.add_argument("output", type=Path)
    parser.add_argument("--title", default="")
    args = parser.parse_args(argv)
    markdown = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QGuiApplication.instance() or QGuiApplication(["studyjobs-export-pdf"])
    try:
        write_pdf(markdown, args.output, args.title)
    except OSError as error:
        print(f"The PDF could not be written to {args.output}: {error.strerror or error}", file=sys.stderr)
        return 1
    finally:
        del app
    return 0


if __name__ == "__main__":
    sys.exit(main())

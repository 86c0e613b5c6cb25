"""``studyjobs export ID --format md|docx|pdf|anki|csv [-o|--output PATH]``: a finished study guide as a file.

Light to import (exporters load when used); never imports Qt (the PDF is a subprocess). Exit 0 written; 1 no
finished guide or the file could not be written; unknown ids raise :class:`core.errors.JobNotFoundError`
(docs/design/documents.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

from core.app.documents.pipelines import Pipelines
from core.app.exit_codes import EXIT_FAILED, EXIT_OK
from core.app.guides.export.formats import FORMATS
from core.app.settings.config import Settings
from core.app.storage.schema import Job
from core.errors import JobNotFoundError
from core.store import JobStore

if TYPE_CHECKING:
    from core.app.guides.export.service import GuideExport

__all__ = ["PDF_TIMEOUT", "add_export_parser", "export_command"]

PDF_TIMEOUT = 600.0
"""Seconds the PDF subprocess may take (a long guide lays out in seconds)."""


def add_export_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    """Add the ``export`` command to the command line's subcommands."""
    export = sub.add_parser("export", parents=[common], help="write a finished study guide to a file")
    export.add_argument("job_id", type=uuid.UUID, metavar="ID", help="the document's id (see `list`)")
    export.add_argument("--format", choices=FORMATS, default=FORMATS[0], help="the file format (default: md)")
    export.add_argument("-o", "--output", type=Path, default=None, help="the file, or a folder (default: this folder)")


def _output_path(guide: GuideExport, format_name: str, output: Path | None) -> Path:
    from core.app.guides.export.service import default_file_name

    if output is None:
        return Path.cwd() / default_file_name(guide.title, format_name)
    if output.is_dir():
        return output / default_file_name(guide.title, format_name)
    return output


def _write_pdf(guide: GuideExport, path: Path) -> None:
    """Run the PDF writer; raises ``OSError`` with its message when it fails."""
    from core.app.guides.export.service import pdf_command

    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        pdf_command(path, guide.title),
        input=guide.markdown.encode("utf-8"),
        capture_output=True,
        env=environment,
        timeout=PDF_TIMEOUT,
        check=False,
    )
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", errors="replace").strip().splitlines()
        raise OSError(reason[-1] if reason else f"the PDF writer stopped with code {done.returncode}")


async def export_command(store: JobStore[Job], settings: Settings, args: argparse.Namespace) -> int:
    """Export the guide of document ``args.job_id`` as ``args.format`` (see the module)."""
    from core.app.guides.export.service import load_export, write_export  # python-docx and genanki: only when exporting

    if await Pipelines(store).get(args.job_id) is None:
        raise JobNotFoundError(args.job_id)
    guide = await load_export(store.db, args.job_id)
    if guide is None or not guide.complete:
        state = "no study guide yet" if guide is None else "a study guide that is still being written"
        print(f"Document {args.job_id} has {state}: only a finished guide can be exported.", file=sys.stderr)
        return EXIT_FAILED
    path = _output_path(guide, args.format, args.output)
    try:
        if args.format == "pdf":
            await asyncio.to_thread(_write_pdf, guide, path)
        else:
            await asyncio.to_thread(write_export, guide, args.format, path)
    except (OSError, subprocess.TimeoutExpired) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        print(f"The study guide could not be written to {path}: {reason}", file=sys.stderr)
        return EXIT_FAILED
    if getattr(args, "json", False):
        print(json.dumps({"id": str(args.job_id), "format": args.format, "path": str(path)}))
    else:
        print(path)
    return EXIT_OK

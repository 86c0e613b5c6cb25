"""``studyjobs`` — the command line over the job store: where things are, what ran, and cancel/retry, by document
(docs/design/application.md, "The command line over the job store"). Needs no worker.

Exit codes: 0 done, 1 could not do what was asked, 2 bad settings or arguments, 3 the database could not be opened.
:func:`main` runs its own event loop (``asyncio.run``).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import sys
import uuid
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from core.app.documents.counters import counter_text
from core.app.documents.parts import PartSnapshot
from core.app.documents.pipelines import Pipelines
from core.app.documents.view import DocumentView
from core.app.exit_codes import EXIT_DATABASE, EXIT_FAILED, EXIT_OK, EXIT_USAGE
from core.app.messages.sentences import render
from core.app.settings.config import Settings, SettingsError, load_settings, redact_url
from core.app.storage.database import MigrationError, make_app_store, open_app_database
from core.app.storage.schema import Job
from core.errors import JobNotFoundError
from core.progress import eta_seconds
from core.status import JobStatus
from core.store import JobStore
from core.stored_messages import decode
from daemon.cli.export import add_export_parser, export_command
from daemon.cli.models import add_models_parser, models_command

__all__ = ["main"]


def _run_fields(run: PartSnapshot | DocumentView, language: str) -> dict[str, Any]:
    """What a document and each of its parts both show in ``--json``: state, message and error in ``language``
    (with their codes and values), counts, attempts and times."""
    said, failed = decode(run.message), decode(run.error)
    return {
        "status": run.status,
        "stage": run.stage,
        "progress": round(run.progress, 4),
        "message": render(run.message, language),
        "message_code": said.code if said else None,
        "message_values": dict(said.values) if said else None,
        "error": render(run.error, language) if run.error is not None else None,
        "error_code": failed.code if failed else None,
        "error_values": dict(failed.values) if failed else None,
        "counters": counter_text(run.detail, language),
        "attempts": run.attempts,
        "max_attempts": run.max_attempts,
        "run_after": run.run_after.isoformat() if run.run_after else None,
        "created_at": run.created_at.isoformat(),
        "started_at": run.started_at.isoformat() if run.started_at else None,
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
    }


def _part_dict(part: PartSnapshot, language: str) -> dict[str, Any]:
    return {
        "id": str(part.id),
        "kind": part.kind,
        **_run_fields(part, language),
        "eta_seconds": eta_seconds(part),
        "result_id": str(part.result_id) if part.result_id else None,
        "detail": part.detail,
        "phases": part.phases,
    }


def document_dict(view: DocumentView, language: str = "en") -> dict[str, Any]:
    """A document as ``--json`` prints it: the pipeline's fields (message, error and counts in ``language``), its
    phases on one bar, and each part."""
    return {
        "id": str(view.id),
        "kind": "study_guide" if view.wants_guide else "text_only",
        "title": view.title,
        **_run_fields(view, language),
        "eta_seconds": view.eta,
        "phases": [
            {
                "part": p.part,
                "name": p.name,
                "state": p.state,
                "fraction": round(p.fraction, 4),
                "start": round(p.start, 4),
                "end": round(p.end, 4),
            }
            for p in view.phases
        ],
        "parts": [_part_dict(part, language) for part in (view.root, view.guide) if part is not None],
    }


def kind_words(view: DocumentView) -> str:
    """The document's kind in words: study guide, or text only."""
    return "study guide" if view.wants_guide else "text only"


def _line(view: DocumentView, language: str = "en") -> str:
    bar = f"{view.progress * 100:5.1f}%"
    what = render(view.error if view.status == JobStatus.FAILED else view.message, language) or view.stage
    return f"{view.id}  {kind_words(view):<11} {view.status:<9} {bar}  {view.title[:40]:<40}  {what or ''}"


async def _document(store: JobStore[Job], document_id: uuid.UUID) -> DocumentView:
    view = await Pipelines(store).get(document_id)
    if view is None:
        raise JobNotFoundError(document_id)
    return view


async def _status(store: JobStore[Job], settings: Settings, args: argparse.Namespace) -> int:
    counts = {s.value: await store.count(status=s) for s in JobStatus}
    info = {
        "data_dir": str(settings.data_dir),
        "database_url": redact_url(settings.database_url),
        "broker_url": redact_url(settings.broker_url),
        "output_dir": str(settings.output_dir),
        "log_dir": str(settings.log_dir),
        "jobs": counts,
    }
    if args.json:
        print(json.dumps(info, indent=2))
    else:
        print("StudyJobs — ready.")
        for key in ("data_dir", "database_url", "broker_url", "output_dir", "log_dir"):
            print(f"  {key:<13} {info[key]}")
        print("  jobs          " + ", ".join(f"{n} {s}" for s, n in counts.items()))
    return EXIT_OK


async def _list(store: JobStore[Job], settings: Settings, args: argparse.Namespace) -> int:
    statuses = None if args.status is None else (args.status,)
    views = await Pipelines(store).list_recent(statuses=statuses, limit=args.limit, search=args.search)
    if args.json:
        print(json.dumps([document_dict(v, settings.user_language()) for v in views], indent=2))
    elif not views:
        print("No documents yet.")
    else:
        for view in views:
            print(_line(view, settings.user_language()))
    return EXIT_OK


async def _show(store: JobStore[Job], settings: Settings, args: argparse.Namespace) -> int:
    view = await _document(store, args.job_id)
    data = document_dict(view, settings.user_language())
    if args.json:
        print(json.dumps(data, indent=2))
        return EXIT_OK
    for key, value in data.items():
        if key not in ("phases", "parts", "message_values", "error_values"):
            print(f"{key:<13} {value if value is not None else '—'}")
    for part in data["parts"]:
        attempts = f"attempt {part['attempts']}/{part['max_attempts']}"
        print(f"part {part['kind']:<9} {part['id']}  {part['status']:<9} {attempts}")
    for phase in view.phases:
        print(
            f"  phase {phase.part:<9} {phase.name:<12} {phase.state:<8} {phase.fraction * 100:5.1f}%"
            f"   ({phase.start * 100:5.1f}% → {phase.end * 100:5.1f}% of the document)"
        )
    return EXIT_OK


async def _cancel(store: JobStore[Job], settings: Settings, args: argparse.Namespace) -> int:
    view = await Pipelines(store).cancel(args.job_id, reason=args.reason)
    if view is None:
        await _document(store, args.job_id)  # an unknown id says so
        print(f"Nothing to cancel: document {args.job_id} has already ended.", file=sys.stderr)
        return EXIT_FAILED
    print(json.dumps(document_dict(view, settings.user_language())) if args.json else f"Cancelled {view.id}.")
    return EXIT_OK


async def _retry(store: JobStore[Job], settings: Settings, args: argparse.Namespace) -> int:
    view = await Pipelines(store).retry(args.job_id)
    if view is None:
        await _document(store, args.job_id)
        print(f"Document {args.job_id} cannot be retried: only failed or cancelled ones can.", file=sys.stderr)
        return EXIT_FAILED
    print(json.dumps(document_dict(view, settings.user_language())) if args.json else f"Queued {view.id} again.")
    return EXIT_OK


Command = Callable[[JobStore[Job], Settings, argparse.Namespace], Coroutine[Any, Any, int]]
COMMANDS: dict[str, Command] = {
    "status": _status,
    "list": _list,
    "show": _show,
    "cancel": _cancel,
    "retry": _retry,
    "export": export_command,
    "models": models_command,
}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (separate so that the daemon's CLI can add its commands to it)."""
    parser = argparse.ArgumentParser(prog="studyjobs", description="StudyJobs: documents into study guides.")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="machine-readable output")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("status", parents=[common], help="where StudyJobs keeps its data, and the jobs in each state")
    listing = sub.add_parser("list", parents=[common], help="the newest documents")
    listing.add_argument("--status", choices=[s.value for s in JobStatus])
    listing.add_argument("--search", help="part of the document name")
    listing.add_argument("--limit", type=int, default=20)
    texts = (
        ("show", "one document in full"),
        ("cancel", "stop a document (whichever part runs)"),
        ("retry", "run the part of a document that failed again"),
    )
    for name, text in texts:
        command = sub.add_parser(name, parents=[common], help=text)
        command.add_argument("job_id", type=uuid.UUID)
        if name == "cancel":
            command.add_argument("--reason", default=None)
    add_export_parser(sub, common)
    add_models_parser(sub, common)
    return parser


async def _run(args: argparse.Namespace, settings: Settings, commands: dict[str, Command]) -> int:
    db = await open_app_database(settings.database_url)
    try:
        store = make_app_store(db, stale_after=settings.stale_after)
        return await commands[args.command](store, settings, args)
    finally:
        await db.dispose()


Direct = Callable[[Settings, argparse.Namespace], int]


def _console_that_cannot_fail() -> None:
    """Let the terminal or pipe show what its encoding can and replace the rest, instead of raising.

    A Windows console or pipe in cp1252 cannot encode a progress bar's blocks or a title in another script; the
    command's work must not end in a ``UnicodeEncodeError`` because of how its output is shown."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="replace")


def main(
    argv: Sequence[str] | None = None,
    *,
    parser: argparse.ArgumentParser | None = None,
    commands: dict[str, Command] | None = None,
    direct: dict[str, Direct] | None = None,
) -> int:
    """Entry point of ``studyjobs``; returns the exit code.

    Args:
        argv: The arguments (default: ``sys.argv[1:]``).
        parser: A parser extended with more commands (the daemon's CLI adds ``daemon``, ``add``, ``workers``).
        commands: The store commands by name (default :data:`COMMANDS`).
        direct: Commands that run without opening the store (the worker process itself).
    """
    _console_that_cannot_fail()
    args = (parser or build_parser()).parse_args(argv)
    try:
        settings = load_settings()
    except SettingsError as error:
        print(f"Settings problem: {error}", file=sys.stderr)
        return EXIT_USAGE
    if direct and args.command in direct:
        return direct[args.command](settings, args)
    if args.command == "models" and getattr(args, "models_action", None) == "check":
        from core.app.models.check import check_command  # httpx: only for this command

        return check_command(settings, args)
    try:
        return asyncio.run(_run(args, settings, commands or COMMANDS))
    except JobNotFoundError:
        print(f"No job with id {getattr(args, 'job_id', '?')}.", file=sys.stderr)
        return EXIT_FAILED
    except (MigrationError, OSError) as error:
        print(f"Could not open the database {redact_url(settings.database_url)}: {error}", file=sys.stderr)
        return EXIT_DATABASE
    except KeyboardInterrupt:
        return EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())

"""``studyjobs`` — the command line over the job store: where things are, what ran, and cancel/retry.

These commands need no worker: they read and write the jobs table directly. Exit codes: 0 done, 1 the command
could not do what was asked (unknown job, nothing to cancel), 2 bad settings or arguments, 3 the database could not
be opened. ``--json`` prints machine-readable output. A job's message and error are shown in the settings' language
(``--json`` also gives their code and values: ``message_code``, ``message_values``, ``error_code``, ``error_values``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import uuid
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from core.appdb import MigrationError, make_app_store, open_app_database
from core.config import Settings, SettingsError, load_settings, redact_url
from core.counters import counter_text
from core.errors import JobNotFoundError
from core.messages import decode, render
from core.progress import eta_seconds
from core.schema import Job
from core.status import JobStatus
from core.store import JobStore

__all__ = ["main"]

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_DATABASE = 0, 1, 2, 3


def _job_dict(job: Job, language: str = "en") -> dict[str, Any]:
    """A job for ``show``/``list --json``: its message, error and counts in ``language``, with their codes."""
    message, error = decode(job.message), decode(job.error)
    return {
        "id": str(job.id),
        "kind": job.kind,
        "title": job.title,
        "status": job.status,
        "stage": job.stage,
        "progress": round(job.progress, 4),
        "message": render(job.message, language),
        "message_code": message.code if message else None,
        "message_values": dict(message.values) if message else None,
        "error": render(job.error, language) if job.error is not None else None,
        "error_code": error.code if error else None,
        "error_values": dict(error.values) if error else None,
        "counters": counter_text(job.detail, language),
        "attempts": job.attempts,
        "max_attempts": job.max_attempts,
        "run_after": job.run_after.isoformat() if job.run_after else None,
        "created_at": job.created_at.isoformat(),
        "started_at": job.started_at.isoformat() if job.started_at else None,
        "finished_at": job.finished_at.isoformat() if job.finished_at else None,
        "eta_seconds": eta_seconds(job),
        "result_id": str(job.result_id) if job.result_id else None,
        "detail": job.detail,
        "phases": job.phases,
    }


def _line(job: Job, language: str = "en") -> str:
    bar = f"{job.progress * 100:5.1f}%"
    what = render(job.error if job.status == JobStatus.FAILED else job.message, language) or job.stage
    return f"{job.id}  {job.kind:<9} {job.status:<9} {bar}  {job.title[:40]:<40}  {what or ''}"


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
    jobs = await store.list_recent(status=args.status, kind=args.kind, limit=args.limit, search=args.search)
    if args.json:
        print(json.dumps([_job_dict(j, settings.user_language()) for j in jobs], indent=2))
    elif not jobs:
        print("No jobs yet.")
    else:
        for job in jobs:
            print(_line(job, settings.user_language()))
    return EXIT_OK


async def _show(store: JobStore[Job], settings: Settings, args: argparse.Namespace) -> int:
    job = await store.get(args.job_id)
    data = _job_dict(job, settings.user_language())
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        for key, value in data.items():
            if key not in ("phases", "detail", "message_values", "error_values"):
                print(f"{key:<13} {value if value is not None else '—'}")
        for phase in job.phases:
            print(f"  phase {phase['name']:<12} {phase['start'] * 100:5.1f}% → {phase['end'] * 100:5.1f}%")
    return EXIT_OK


async def _cancel(store: JobStore[Job], settings: Settings, args: argparse.Namespace) -> int:
    job = await store.cancel(args.job_id, reason=args.reason)
    if job is None:
        print(f"Nothing to cancel: job {args.job_id} is unknown or has already ended.", file=sys.stderr)
        return EXIT_FAILED
    print(json.dumps(_job_dict(job, settings.user_language())) if args.json else f"Cancelled {job.id}.")
    return EXIT_OK


async def _retry(store: JobStore[Job], settings: Settings, args: argparse.Namespace) -> int:
    job = await store.retry(args.job_id)
    if job is None:
        print(f"Job {args.job_id} cannot be retried: only failed or cancelled jobs can.", file=sys.stderr)
        return EXIT_FAILED
    print(json.dumps(_job_dict(job, settings.user_language())) if args.json else f"Queued {job.id} again.")
    return EXIT_OK


Command = Callable[[JobStore[Job], Settings, argparse.Namespace], Coroutine[Any, Any, int]]
COMMANDS: dict[str, Command] = {
    "status": _status,
    "list": _list,
    "show": _show,
    "cancel": _cancel,
    "retry": _retry,
}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (separate so that the daemon's CLI can add its commands to it)."""
    parser = argparse.ArgumentParser(prog="studyjobs", description="StudyJobs: documents into study guides.")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="machine-readable output")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("status", parents=[common], help="where StudyJobs keeps its data, and the jobs in each state")
    listing = sub.add_parser("list", parents=[common], help="the newest jobs")
    listing.add_argument("--status", choices=[s.value for s in JobStatus])
    listing.add_argument("--kind")
    listing.add_argument("--search", help="part of the document name")
    listing.add_argument("--limit", type=int, default=20)
    for name, text in (("show", "one job in full"), ("cancel", "stop a job"), ("retry", "run a job again")):
        command = sub.add_parser(name, parents=[common], help=text)
        command.add_argument("job_id", type=uuid.UUID)
        if name == "cancel":
            command.add_argument("--reason", default=None)
    return parser


async def _run(args: argparse.Namespace, settings: Settings, commands: dict[str, Command]) -> int:
    db = await open_app_database(settings.database_url)
    try:
        store = make_app_store(db, stale_after=settings.stale_after)
        return await commands[args.command](store, settings, args)
    finally:
        await db.dispose()


Direct = Callable[[Settings, argparse.Namespace], int]


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
    args = (parser or build_parser()).parse_args(argv)
    try:
        settings = load_settings()
    except SettingsError as error:
        print(f"Settings problem: {error}", file=sys.stderr)
        return EXIT_USAGE
    if direct and args.command in direct:
        return direct[args.command](settings, args)
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

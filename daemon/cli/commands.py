"""``studyjobs`` — the command line (entered through :mod:`daemon.cli.main`): the store commands of
:mod:`daemon.cli.documents` plus ``daemon``, ``add``, ``workers`` and ``servers`` (:mod:`daemon.cli.servers`).

Exit codes: 0 done; 1 a job failed or the command could not do what was asked; 2 bad settings, arguments or
files; 3 a worker already holds the data folder (``daemon``) or the database could not be opened.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core.app.documents.adding import add_document, path_problem
from core.app.documents.pipelines import Pipelines
from core.app.documents.view import DocumentView
from core.app.exit_codes import EXIT_FAILED, EXIT_IDLE, EXIT_OK, EXIT_RESTART, EXIT_USAGE
from core.app.guides.languages import GUIDE_LANGUAGES
from core.app.messages.sentences import render
from core.app.settings.config import Settings
from core.app.storage.schema import Job
from core.app.workers.launch import worker_command
from core.app.workers.registry import alive_workers, list_workers
from core.errors import JobNotFoundError
from core.status import OPEN_JOB_STATUSES, JobStatus
from core.store import JobStore
from daemon.cli import documents as store_cli
from daemon.cli.models import models_command

__all__ = ["main", "start_daemon_in_background"]

BAR_WIDTH = 24


def build_parser() -> argparse.ArgumentParser:
    parser = store_cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    daemon = sub.add_parser("daemon", help="run the worker that reads documents and writes study guides")
    daemon.add_argument("--threads", type=int, default=None, help="jobs run at once (default: from settings)")
    daemon.add_argument("--autostart", action="store_true", help="quiet start at login; exits if one is running")
    daemon.add_argument(
        "--watch", action="store_true", help="run the worker as a child process and start it again if it crashes"
    )
    add = sub.add_parser("add", help="add documents: each becomes a job (extraction, then a study guide)")
    add.add_argument("files", nargs="+", type=Path)
    add.add_argument("--only-extract", action="store_true", help="extract the text only, no study guide")
    add.add_argument(
        "--language",
        choices=GUIDE_LANGUAGES,
        default=None,
        help="write the study guide in this language (default: the document's language)",
    )
    add.add_argument("--wait", action="store_true", help="follow each document with a live progress bar until it ends")
    add.add_argument("--no-start", action="store_true", help="do not start a worker when none is running")
    add.add_argument("--json", action="store_true", default=argparse.SUPPRESS)
    workers = sub.add_parser("workers", help="the workers that are alive")
    workers.add_argument("--json", action="store_true", default=argparse.SUPPRESS)
    servers = sub.add_parser("servers", help="the model servers on this computer (or at an address) and their models")
    servers.add_argument("--address", action="append", default=[], help="also ask this server (repeatable)")
    servers.add_argument("--json", action="store_true", help="machine-readable output")
    return parser


def start_daemon_in_background() -> subprocess.Popen[bytes]:
    """Launch ``studyjobs daemon --autostart --watch`` detached from this terminal."""
    program, args = worker_command()  # python -m daemon.cli.main daemon …, or the bundle's worker executable
    return subprocess.Popen(
        [program, *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


async def _add(store: JobStore[Job], settings: Settings, args: argparse.Namespace) -> int:
    language = settings.user_language()
    problems = [problem for path in args.files if (problem := path_problem(path)) is not None]
    if problems:
        print("\n".join(render(problem, language) for problem in problems), file=sys.stderr)
        return EXIT_USAGE
    jobs = [
        await add_document(store, path, only_extract=args.only_extract, language=args.language) for path in args.files
    ]
    if args.json:
        print(json.dumps([str(j.id) for j in jobs]))
    else:
        for job in jobs:
            print(job.id)
    if not args.no_start and not await alive_workers(store.db):
        start_daemon_in_background()
    if not args.wait:
        return EXIT_OK
    outcomes = [await _follow(store, job.id, quiet=args.json, language=language) for job in jobs]
    return EXIT_OK if all(outcomes) else EXIT_FAILED


async def _follow(store: JobStore[Job], document_id: uuid.UUID, *, quiet: bool, language: str) -> bool:
    """Show one document — its reading and its guide as one bar, messages in ``language`` — until it ends;
    ``True`` when it is done."""
    final = await _watch(store, document_id, quiet=quiet, language=language)
    if final.status == JobStatus.DONE and final.wants_guide and not quiet:
        print(f"Study guide written: see `studyjobs show {document_id}`")
    return final.status == JobStatus.DONE


async def _watch(
    store: JobStore[Job], document_id: uuid.UUID, *, quiet: bool, language: str, interval: float = 0.2
) -> DocumentView:
    """Redraw the document whenever it changes (in place on a terminal) and return its final view."""
    tty = sys.stdout.isatty() and not quiet
    drawn = 0
    shown: list[str] = []
    final: DocumentView | None = None
    async for final in Pipelines(store).follow(document_id, interval=interval):
        lines = _render(final, language)
        if not quiet and lines != shown:
            if tty and drawn:
                sys.stdout.write(f"\x1b[{drawn}F\x1b[J")
            sys.stdout.write("\n".join(lines) + "\n")
            sys.stdout.flush()
            drawn, shown = (len(lines) if tty else 0), lines
    if final is None or final.status in OPEN_JOB_STATUSES:  # unknown, or removed while followed
        raise JobNotFoundError(document_id)
    return final


def _bar(fraction: float) -> str:
    filled = round(max(0.0, min(fraction, 1.0)) * BAR_WIDTH)
    return "█" * filled + "░" * (BAR_WIDTH - filled)


def _render(view: DocumentView, language: str) -> list[str]:
    """The document's head line (one combined bar) and a line per phase of both parts."""
    kind = "study guide" if view.wants_guide else "text only"
    head = f"{view.title} — {kind}: {view.status} [{_bar(view.progress)}] {view.progress * 100:5.1f}%"
    if view.status == JobStatus.FAILED:
        head += f" — {render(view.error, language)}"
    elif view.message:
        head += f" — {render(view.message, language)}"
    lines = [head]
    for phase in view.phases:
        lines.append(f"   {phase.name:<11} [{_bar(phase.fraction)}] {phase.fraction * 100:5.1f}%  {phase.state}")
    return lines


async def _workers(store: JobStore[Job], settings: Settings, args: argparse.Namespace) -> int:
    alive = {w.id for w in await alive_workers(store.db)}
    rows = await list_workers(store.db)
    data: list[dict[str, Any]] = [
        {
            "id": w.id,
            "host": w.host,
            "pid": w.pid,
            "alive": w.id in alive,
            "running": w.running,
            "threads": w.threads,
            "last_seen": w.last_seen.isoformat(),
            "stopping": w.stopping,
            "model_state": w.model_state,
        }
        for w in rows
    ]
    if args.json:
        print(json.dumps(data, indent=2))
    elif not data:
        print("No worker is running. Start one with: studyjobs daemon")
    else:
        for w in data:
            state = "alive" if w["alive"] else "not responding"
            print(f"{w['id']}  {state:<15} {w['running']}/{w['threads']} job(s)  last seen {w['last_seen']}")
    return EXIT_OK


def _daemon(settings: Settings, args: argparse.Namespace) -> int:
    if args.watch:  # daemon.cli.main enters the watchdog before this module is imported; here for a direct main()
        from daemon.watchdog import watch_settled

        options = [*(["--threads", str(args.threads)] if args.threads else []), *(["--autostart"] * args.autostart)]
        return watch_settled(settings, options)
    from daemon.process import run_daemon  # it sets the broker before importing the actors
    from daemon.watchdog import ENV_GAVE_BACK, ENV_WATCHED

    code = run_daemon(settings, threads=args.threads, autostart=args.autostart)
    if code in (EXIT_RESTART, EXIT_IDLE) and os.environ.get(ENV_WATCHED) != "1":
        # No watchdog starts this worker again: it becomes a new worker itself (new settings, or a clean heap);
        # after giving its memory back, its row stands until the new one replaces it (same pid).
        os.environ.pop(ENV_GAVE_BACK, None)
        if code == EXIT_IDLE:
            os.environ[ENV_GAVE_BACK] = str(os.getpid())
        sys.stdout.flush()
        argv = [sys.executable, *sys.argv[1:]] if getattr(sys, "frozen", False) else list(sys.orig_argv)
        os.execv(sys.executable, argv)
    return code


def _servers(settings: Settings, args: argparse.Namespace) -> int:
    from daemon.cli.servers import servers_command  # httpx and the keyring: only for this command

    return servers_command(settings, args)


async def _models(store: JobStore[Job], settings: Settings, args: argparse.Namespace) -> int:
    return await models_command(store, settings, args, start_worker=start_daemon_in_background)


COMMANDS: dict[str, store_cli.Command] = {**store_cli.COMMANDS, "add": _add, "workers": _workers, "models": _models}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``studyjobs``; returns the exit code."""
    return store_cli.main(
        argv, parser=build_parser(), commands=COMMANDS, direct={"daemon": _daemon, "servers": _servers}
    )


if __name__ == "__main__":
    sys.exit(main())

"""``studyjobs models [download ID [--wait] | check | remove ID] [--json]``: the model catalog on this computer, and
downloading and removing its models (each command: docs/design/models.md, "The models command").

Exit 0 done; 1 unknown id, a failed download or a refused removal. :func:`models_command` runs on the caller's
event loop; a worker is started when none runs, unless ``--no-start`` (hook given by the daemon's command line).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from core.app.exit_codes import EXIT_FAILED, EXIT_OK
from core.app.messages.sentences import render
from core.app.models.catalog import CatalogModel
from core.app.models.library import (
    ModelState,
    download_jobs,
    library_catalog,
    model_states,
    remove_model,
    start_download,
)
from core.app.settings.config import Settings
from core.app.storage.schema import Job
from core.app.workers.registry import alive_workers
from core.progress import eta_seconds
from core.status import OPEN_JOB_STATUSES
from core.store import JobStore

__all__ = ["add_models_parser", "models_command"]

_GB = 1e9


def add_models_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    """Add the ``models`` command (and its ``download``/``remove`` actions) to the command line."""
    models = sub.add_parser("models", parents=[common], help="the model catalog: list, download, remove")
    actions = models.add_subparsers(dest="models_action")
    download = actions.add_parser("download", parents=[common], help="download a catalog model")
    download.add_argument("model_id", metavar="ID", help="the model's id (see `studyjobs models`)")
    download.add_argument("--wait", action="store_true", help="follow the download with a bar until it ends")
    download.add_argument("--no-start", action="store_true", help="do not start a worker when none is running")
    remove = actions.add_parser("remove", parents=[common], help="delete a downloaded model and free the disk")
    remove.add_argument("model_id", metavar="ID", help="the model's id (see `studyjobs models`)")
    actions.add_parser(
        "check", parents=[common], help="ask the model hub about every catalog entry (needs the internet)"
    )


def _state_dict(state: ModelState, language: str) -> dict[str, Any]:
    model, job = state.model, state.job
    return {
        "id": model.id,
        "name": model.name,
        "size_bytes": model.size_bytes or model.approx_bytes,
        "ram_needed": state.ram_needed,
        "context": state.n_ctx,
        "fits": state.fits,
        "languages": list(model.languages),
        "licence": model.licence,
        "good_for": model.good_for,
        "demo": model.demo,
        "downloaded": state.downloaded,
        "path": str(state.path) if state.path is not None else None,
        "in_use": state.in_use,
        "download": None if job is None else _job_dict(job, language),
    }


def _job_dict(job: Any, language: str) -> dict[str, Any]:
    detail = job.detail or {}
    return {
        "job_id": str(job.id),
        "status": job.status,
        "progress": round(job.progress, 4),
        "bytes_done": detail.get("bytes_done"),
        "bytes_total": detail.get("bytes_total"),
        "bytes_per_second": detail.get("bytes_per_second"),
        "eta_seconds": eta_seconds(job),
        "message": render(job.message, language),
        "error": render(job.error, language) if job.error else None,
    }


def _line(state: ModelState) -> str:
    model = state.model
    size = (model.size_bytes or model.approx_bytes) / _GB
    badge = "fits" if state.fits else "too big"
    if model.bundled:
        where = "bundled demo, works offline"
    elif state.downloaded:
        where = "downloaded"
    elif state.job is not None and state.job.status in (*OPEN_JOB_STATUSES, "failed", "cancelled"):
        where = f"download {state.job.status} {state.job.progress * 100:.0f}%"
    else:
        where = "not downloaded"
    use = "  * in use" if state.in_use else ""
    return f"{model.id:<32} {size:5.1f} GB  RAM {state.ram_needed / _GB:4.1f} GB  {badge:<8} {where}{use}"


def _find(catalog: list[CatalogModel], model_id: str) -> CatalogModel | None:
    return next((m for m in catalog if m.id == model_id), None)


async def models_command(
    store: JobStore[Job], settings: Settings, args: argparse.Namespace, *, start_worker: Callable[[], Any] | None = None
) -> int:
    """Run ``studyjobs models`` (list, ``download`` or ``remove``)."""
    catalog = library_catalog()
    language = settings.user_language()
    action = getattr(args, "models_action", None)
    if action is None:
        states = model_states(settings, catalog, await download_jobs(store))
        if args.json:
            print(json.dumps([_state_dict(s, language) for s in states], indent=2))
        else:
            for state in states:
                print(_line(state))
        return EXIT_OK
    model = _find(catalog, args.model_id)
    if model is None:
        known = ", ".join(m.id for m in catalog)
        print(f"No model {args.model_id!r} in the catalog. Known: {known}", file=sys.stderr)
        return EXIT_FAILED
    if action == "remove":
        return await _remove(store, settings, model, catalog, args)
    if model.bundled:
        print(f"{model.name} comes with StudyJobs: nothing to download.", file=sys.stderr)
        return EXIT_OK
    job = await start_download(store, model)
    if args.json and not args.wait:
        print(json.dumps(_job_dict(job, language)))
    elif not args.json:
        print(f"Downloading {model.name} (job {job.id}).")
    if start_worker is not None and not args.no_start and not await alive_workers(store.db):
        start_worker()
    if not args.wait:
        return EXIT_OK
    final = await _follow(store, job.id, quiet=args.json, language=language)
    if args.json:
        print(json.dumps(_job_dict(final, language)))
    return EXIT_OK if final.status == "done" else EXIT_FAILED


async def _remove(
    store: JobStore[Job], settings: Settings, model: CatalogModel, catalog: list[CatalogModel], args: Any
) -> int:
    if model.bundled:
        print(f"{model.name} comes with StudyJobs and cannot be removed.", file=sys.stderr)
        return EXIT_FAILED
    (state,) = (s for s in model_states(settings, catalog, ram=0) if s.model.id == model.id)
    if state.in_use:
        print(f"{model.name} is the model in use: choose another one first.", file=sys.stderr)
        return EXIT_FAILED
    freed = await remove_model(store, settings, model)
    if args.json:
        print(json.dumps({"id": model.id, "freed_bytes": freed}))
    else:
        print(f"Removed {model.name}: {freed / 1e6:.1f} MB freed.")
    return EXIT_OK


async def _follow(store: JobStore[Job], job_id: Any, *, quiet: bool, language: str, interval: float = 0.2) -> Any:
    """Print the download's progress line on each change (:meth:`JobStore.watch`) until it ends; its last row."""
    tty = sys.stdout.isatty() and not quiet
    shown = ""
    job: Any = None
    async for job in store.watch(job_id, interval=interval, emit_on=_FOLLOWED):  # ends with the job's last row
        line = _progress_line(_job_dict(job, language))
        if not quiet and line != shown:
            sys.stdout.write(("\r\x1b[K" if tty else "") + line + ("" if tty else "\n"))
            sys.stdout.flush()
            shown = line
    if tty:
        sys.stdout.write("\n")
    error = _job_dict(job, language)["error"]
    if not quiet and error:
        print(error, file=sys.stderr)
    return job


_FOLLOWED = ("status", "progress", "message", "detail")
"""The columns whose change prints a new progress line."""


def _progress_line(info: dict[str, Any]) -> str:
    width = 24
    filled = round(max(0.0, min(info["progress"], 1.0)) * width)
    bar = "█" * filled + "░" * (width - filled)
    parts = [f"{info['status']} [{bar}] {info['progress'] * 100:5.1f}%"]
    if info["bytes_done"] is not None and info["bytes_total"]:
        parts.append(f"{info['bytes_done'] / 1e6:.1f} of {info['bytes_total'] / 1e6:.1f} MB")
    if info["bytes_per_second"]:
        parts.append(f"{info['bytes_per_second'] / 1e6:.1f} MB/s")
    if info["eta_seconds"] is not None:
        parts.append(f"{round(info['eta_seconds'])} s left")
    return "  ".join(parts)

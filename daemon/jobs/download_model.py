"""``download_model``: one catalog model's GGUF file into ``<data_dir>/models`` (phases download, verify, test_load).

A model too big for this computer is refused before any byte is fetched; a stop keeps the partial file for a
resume; a file llama.cpp cannot load is deleted (``model_unloadable``). Runs on the job's event loop, the transfer
on a worker thread. Details: docs/design/worker.md.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from core.app.models.downloads import models_dir, shape_from_params
from core.app.models.fit import MIN_CONTEXT, Fit, ModelFileError, fit_at, refusal
from core.errors import StageInterruptedError
from core.progress import Phase, PhasePlan
from core.tracker import Estimate, ProgressTracker
from daemon.downloads.engine import DownloadStopped, Fetched, fetch_file, install_file
from daemon.downloads.hub import HubFile
from daemon.jobs.context import JobContext, UserFacingError
from daemon.llm.architectures import check_architecture, supported_architectures
from daemon.llm.errors import ModelUnsupportedError

__all__ = ["TransferRate", "run_download_model"]

log = logging.getLogger(__name__)
_ASSUMED_RATE = 10e6
"""Bytes per second assumed for the plan's layout before any byte is counted."""
_VERIFY_RATE = 400e6
_LOAD_SECONDS = 5.0
_TEST_CONTEXT = 256
_TEST_BATCH = 64


class TransferRate:
    """Bytes done and the rate measured since the first count of this attempt. Written by the job's thread,
    read by the loop (plain attribute writes)."""

    def __init__(self) -> None:
        self.done = 0
        self.total = 0
        self._first: tuple[float, int] | None = None
        self._last: tuple[float, int] | None = None

    def record(self, done: int, total: int) -> None:
        now = time.monotonic()
        self.done, self.total = done, total
        if self._first is None:
            self._first = (now, done)
        self._last = (now, done)

    def per_second(self) -> float | None:
        """The measured rate, ``None`` before a second's or a mebibyte's worth of counts."""
        if self._first is None or self._last is None:
            return None
        seconds, moved = self._last[0] - self._first[0], self._last[1] - self._first[1]
        if (seconds < 1.0 and moved < (1 << 20)) or seconds <= 0 or moved <= 0:
            return None
        return moved / seconds


def _plan(size: int) -> PhasePlan:
    return PhasePlan(
        [
            Phase("download", max(size / _ASSUMED_RATE, 1.0)),
            Phase("verify", max(size / _VERIFY_RATE, 0.1)),
            Phase("test_load", _LOAD_SECONDS),
        ]
    )


async def run_download_model(ctx: JobContext) -> uuid.UUID | None:
    """Fetch, verify and test-load the file named by ``params`` (``repo``, ``revision``, ``filename``, and the
    catalog's ``size_bytes``/``sha256`` when known)."""
    file = _requested_file(ctx.job.params)
    _refuse_unsupported(ctx.job.params, file.filename)
    _refuse_too_big(ctx.job.params)
    rate = TransferRate()
    tracker = ctx.tracker(_plan(file.size or 1_000_000_000), estimate=_time_left(rate))
    fetched, path = await _fetch_and_install(ctx, file, tracker, rate)
    _compare_reported(ctx.job.params or {}, file, fetched)
    untested: Fit | None = await tracker.run(
        "test_load", ctx.in_thread(_test_load, path, ctx.stop_event), message=ctx.text("testing_model")
    )
    await _record_installed(ctx, path, fetched.size, untested)
    return None


def _requested_file(params: dict[str, Any]) -> HubFile:
    """The hub file a job's ``params`` name."""
    return HubFile(
        str(params["repo"]),
        str(params["revision"]),
        str(params["filename"]),
        size=params.get("size_bytes"),
        sha256=params.get("sha256"),
    )


def _time_left(rate: TransferRate) -> Estimate:
    """The tracker's estimate of the seconds left: the measured transfer rate while downloading, then the assumed
    verify rate and load time."""

    def estimate(phase: str, elapsed: float, done: float | None) -> float | None:
        per_second = rate.per_second()
        if phase == "download":
            if per_second is None or not rate.total:
                return None
            return (rate.total - rate.done) / per_second + rate.total / _VERIFY_RATE + _LOAD_SECONDS
        if phase == "verify":
            return (1.0 - (done or 0.0)) * rate.total / _VERIFY_RATE + _LOAD_SECONDS
        return max(_LOAD_SECONDS - elapsed, 0.0)

    return estimate


async def _fetch_and_install(
    ctx: JobContext, file: HubFile, tracker: ProgressTracker, rate: TransferRate
) -> tuple[Fetched, Path]:
    """The download and verify phases: the partial file fetched (bytes counted into ``rate`` and the bar), then
    checked and renamed into the models folder. A stop or a download error becomes the job's error."""

    def on_bytes(done: int, total: int) -> None:
        rate.record(done, total)
        per_second = rate.per_second()
        detail = {**ctx.job.detail, "bytes_done": done, "bytes_total": total}
        if per_second is not None:
            detail["bytes_per_second"] = round(per_second)
        message = ctx.text("downloading_model", done_mb=done // 1_000_000, total_mb=max(total // 1_000_000, 1))
        tracker.count("download", done=done / total if total else 0.0, message=message, detail=detail)

    def on_verify(done: int, total: int) -> None:
        tracker.count("verify", done=done / total if total else 0.0)

    folder = models_dir(ctx.runtime.settings.data_dir)
    stop = ctx.stop_event
    try:
        fetched: Fetched = await tracker.run(
            "download",
            ctx.in_thread(
                fetch_file,
                file,
                hub_url=ctx.runtime.settings.hub_url,
                models_dir=folder,
                stop_event=stop,
                on_progress=on_bytes,
            ),
            stop_event=stop,
            message=ctx.text("downloading_model", done_mb=0, total_mb=max((file.size or 0) // 1_000_000, 1)),
        )
        verifying = ctx.in_thread(install_file, file, fetched, models_dir=folder, stop_event=stop, on_verify=on_verify)
        path: Path = await tracker.run("verify", verifying, stop_event=stop, message=ctx.text("verifying_model"))
    except DownloadStopped as stopped:
        raise StageInterruptedError("the download was stopped") from stopped
    return fetched, path


def _compare_reported(params: dict[str, Any], file: HubFile, fetched: Fetched) -> None:
    """Log whether the size and sha256 the catalog only had from other projects (``params["reported"]``) agree
    with the hub's own metadata of the pinned commit, which the file was checked against."""
    reported = params.get("reported")
    if not isinstance(reported, dict):
        return
    size, sha256 = reported.get("size_bytes"), reported.get("sha256")
    if size in (None, fetched.size) and sha256 in (None, fetched.sha256):
        log.info(
            "%s matches the hub's size and sha256 of %s, and the catalog's reported ones", file.filename, file.revision
        )
        return
    log.warning(
        "%s matches the hub's size and sha256 of %s (%d bytes, %s); the catalog reported %s bytes, %s",
        file.filename,
        file.revision,
        fetched.size,
        fetched.sha256,
        size,
        sha256,
    )


async def _record_installed(ctx: JobContext, path: Path, size: int, untested: Fit | None) -> None:
    """Write the installed file's path and size on the job, and its done message (tested, or too big to test)."""
    ctx.job.detail = {**ctx.job.detail, "model_path": str(path), "bytes_done": size, "bytes_total": size}
    await ctx.runtime.store.report_progress(ctx.job.id, 1.0, detail=ctx.job.detail, attempt=ctx.job.attempts)
    if untested is None:
        ctx.done_message = ctx.text("model_downloaded", file=path.name)
    else:
        ctx.done_message = ctx.text(
            "model_downloaded_untested",
            file=path.name,
            needed_mb=-(-untested.needed // 1_000_000),
            available_mb=untested.available // 1_000_000,
        )


def _refuse_unsupported(params: dict[str, object], filename: str) -> None:
    """Fail, before any byte is fetched, a model whose architecture the bundled llama.cpp cannot run (the
    catalog's ``gguf_architecture``; the file's own header is checked again by the test load)."""
    architecture = params.get("gguf_architecture")
    if isinstance(architecture, str) and architecture and architecture not in supported_architectures():
        log.warning("the model %s is a %s model, which the bundled llama.cpp cannot run", filename, architecture)
        raise UserFacingError("model_architecture_unsupported", architecture=architecture, file=filename)


def _refuse_too_big(params: dict[str, object]) -> None:
    """Fail, before any byte is fetched, a model that needs more memory than this computer has."""
    shape = shape_from_params(dict(params))
    if shape is None:
        return
    fit = fit_at(shape, min(MIN_CONTEXT, shape.trained_context))
    if not fit.fits_computer:
        code, values = refusal(fit, now=False)
        log.warning("the model %s needs %d bytes of RAM; this computer has %d", shape.name, fit.needed, fit.total)
        raise UserFacingError(code, **values)


def _test_load(path: Path, stop: threading.Event) -> Fit | None:
    """Open ``path`` in llama.cpp with a small context and free it; delete it and fail when it cannot be opened.

    Returns ``None`` once tested, or the :class:`~core.app.models.fit.Fit` of a model that does not fit the memory
    available now (then it is not opened).
    """
    from llama_cpp import Llama

    try:
        fit = fit_at(path, _TEST_CONTEXT, n_batch=_TEST_BATCH)
    except ModelFileError as error:
        log.warning("the downloaded model %s has no readable GGUF header: %s", path.name, error.detail)
        path.unlink(missing_ok=True)
        raise UserFacingError("model_unloadable", file=path.name) from error
    try:
        check_architecture(path)
    except ModelUnsupportedError as error:
        log.warning("the downloaded model %s: %s", path.name, error)
        path.unlink(missing_ok=True)
        raise UserFacingError(error.code, architecture=error.values["architecture"], file=path.name) from error
    if not fit.fits:
        log.warning(
            "the downloaded model %s was not test-loaded: %d bytes needed, %d available",
            path.name,
            fit.needed,
            fit.available,
        )
        return fit
    try:
        model = Llama(model_path=str(path), n_ctx=_TEST_CONTEXT, n_threads=1, n_batch=_TEST_BATCH, verbose=False)
    except (ValueError, RuntimeError, OSError) as error:
        log.warning("the downloaded model %s could not be loaded: %s", path.name, error)
        path.unlink(missing_ok=True)
        raise UserFacingError("model_unloadable", file=path.name) from error
    model.close()
    return None

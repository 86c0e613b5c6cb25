"""Download one model file into the models folder: resume, retry, verify, then an atomic rename.

:func:`download_file` guarantees that only a verified file (size and sha256) is ever in place, that a resume never
mixes two revisions, and that ``stop_event`` (checked between pieces and tries) raises :class:`DownloadStopped`
with the partial file kept. Blocking: run it on a worker thread, one call per file at a time. The full contract:
docs/design/worker.md.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import http.client
import json
import os
import shutil
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypeVar

import certifi
import httpx

from daemon.downloads import transfer
from daemon.downloads.hub import DownloadError, HubFile, RemoteFile, file_url, head_file, status_error_for
from daemon.downloads.partial import (
    DownloadStopped,
    discard_partial,
    exclusive,
    installed_path,
    partial_path,
    sidecar_path,
)

__all__ = [
    "CHUNK_SIZE",
    "SPACE_MARGIN",
    "DownloadPolicy",
    "DownloadResult",
    "DownloadStopped",
    "Fetched",
    "discard_partial",
    "download_file",
    "fetch_file",
    "install_file",
    "installed_path",
    "partial_path",
]

CHUNK_SIZE = 1 << 20
"""Progress is reported every this many bytes, and the check reads this much at a time. A resume fetches at most
this much again: each piece (:data:`daemon.downloads.transfer.BUFFER_SIZE`, 64 KiB) is written as soon as it is
read."""
USER_AGENT = "StudyJobs"

SPACE_MARGIN = 256 << 20
"""Free space left on the disk after the download (the system and the database need some)."""

Progress = Callable[[int, int], None]
T = TypeVar("T")


@dataclass(frozen=True)
class DownloadPolicy:
    """Timeouts and retries. ``idle_timeout``: longest wait for the next bytes before the try counts as failed."""

    idle_timeout: float = 30.0
    connect_timeout: float = 15.0
    tries: int = 6
    backoff: float = 1.0
    max_backoff: float = 60.0
    max_wait: float = 300.0
    chunk_size: int = CHUNK_SIZE


@dataclass(frozen=True)
class DownloadResult:
    """A verified file in place; ``fetched`` counts the bytes this call received (resumes fetch fewer)."""

    path: Path
    size: int
    sha256: str
    fetched: int
    resumed_from: int


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """One verifying TLS context per process (building one reads the CA bundle: ~20 ms per client otherwise)."""
    return ssl.create_default_context(cafile=certifi.where())


@dataclass(frozen=True)
class Fetched:
    """A complete, not yet verified partial file and what it must be."""

    part: Path
    size: int
    sha256: str
    fetched: int
    resumed_from: int


def download_file(
    file: HubFile,
    *,
    hub_url: str,
    models_dir: Path,
    stop_event: threading.Event,
    on_progress: Progress | None = None,
    on_verify: Progress | None = None,
    policy: DownloadPolicy | None = None,
    client: httpx.Client | None = None,
) -> DownloadResult:
    """Download, verify and install ``file`` (see docs/design/worker.md). Raises :class:`DownloadError`."""
    fetched = fetch_file(
        file,
        hub_url=hub_url,
        models_dir=models_dir,
        stop_event=stop_event,
        on_progress=on_progress,
        policy=policy,
        client=client,
    )
    path = install_file(file, fetched, models_dir=models_dir, stop_event=stop_event, on_verify=on_verify)
    return DownloadResult(path, fetched.size, fetched.sha256, fetched.fetched, fetched.resumed_from)


def fetch_file(
    file: HubFile,
    *,
    hub_url: str,
    models_dir: Path,
    stop_event: threading.Event,
    on_progress: Progress | None = None,
    policy: DownloadPolicy | None = None,
    client: httpx.Client | None = None,
) -> Fetched:
    """The download half: ``HEAD``, the space check, the retried ``GET``s into the partial file."""
    policy = policy or DownloadPolicy()
    timeout = httpx.Timeout(policy.idle_timeout, connect=policy.connect_timeout)
    owned = client is None
    http = client or httpx.Client(timeout=timeout, headers={"User-Agent": USER_AGENT}, verify=_tls_context())
    try:
        with exclusive(partial_path(models_dir, file), stop_event):
            remote = _with_retries(policy, stop_event, lambda: _remote(http, hub_url, models_dir, file))
            size, sha256 = _expected(file, remote)
            part = partial_path(models_dir, file)
            resumed_from = part.stat().st_size if part.exists() else 0
            _check_space(models_dir, size - resumed_from)
            url = file_url(hub_url, file.repo, remote.commit or file.revision, file.filename)
            fetched = [0]

            def one_try() -> None:
                _fetch(url, part, remote.etag, size, policy, stop_event, on_progress, fetched)

            _with_retries(policy, stop_event, one_try)
            return Fetched(part, size, sha256, fetched[0], resumed_from)
    finally:
        if owned:
            http.close()


def install_file(
    file: HubFile, fetched: Fetched, *, models_dir: Path, stop_event: threading.Event, on_verify: Progress | None = None
) -> Path:
    """The verify half: check size and sha256, then rename into place; a bad file is deleted (``model_corrupt``)."""
    with exclusive(fetched.part, stop_event):
        _install(file, fetched, models_dir, stop_event, on_verify)
    return installed_path(models_dir, file)


def _install(
    file: HubFile, fetched: Fetched, models_dir: Path, stop_event: threading.Event, on_verify: Progress | None
) -> None:
    _verify(fetched.part, fetched.size, fetched.sha256, stop_event, on_verify, models_dir, file)
    target = installed_path(models_dir, file)
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(fetched.part, target)
    sidecar_path(models_dir, file).unlink(missing_ok=True)


def _remote(http: httpx.Client, hub_url: str, models_dir: Path, file: HubFile) -> RemoteFile:
    """What the hub said on the first try (from the sidecar), else a fresh ``HEAD``, written down at once."""
    sidecar = sidecar_path(models_dir, file)
    if sidecar.exists() and partial_path(models_dir, file).exists():
        try:
            return RemoteFile(**json.loads(sidecar.read_text(encoding="utf-8")))
        except (ValueError, TypeError):
            pass  # unreadable: ask again, and start the file over (its ETag is unknown)
    remote = head_file(http, hub_url, file)
    partial_path(models_dir, file).unlink(missing_ok=True)
    sidecar.parent.mkdir(parents=True, exist_ok=True)
    sidecar.write_text(json.dumps(remote.__dict__), encoding="utf-8")
    return remote


def _expected(file: HubFile, remote: RemoteFile) -> tuple[int, str]:
    size = file.size if file.size is not None else remote.size
    sha256 = file.sha256 or remote.sha256
    if size is None or sha256 is None:
        raise DownloadError("model_unverifiable", file=file.filename)
    if file.size is not None and remote.size is not None and file.size != remote.size:
        raise DownloadError("model_changed", file=file.filename)
    return size, sha256


def _check_space(models_dir: Path, needed: int) -> None:
    models_dir.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(models_dir).free
    if free < needed + SPACE_MARGIN:
        raise DownloadError("model_no_space", needed_mb=-(-needed // 1_000_000), free_mb=free // 1_000_000)


def _with_retries(policy: DownloadPolicy, stop_event: threading.Event, action: Callable[[], T]) -> T:
    """Run ``action``; retry a transient :class:`DownloadError` with backoff (honouring ``retry_after``)."""
    for attempt in range(1, policy.tries + 1):
        if stop_event.is_set():
            raise DownloadStopped()
        try:
            return action()
        except DownloadError as error:
            if not error.transient or attempt == policy.tries:
                raise
            wait = min(policy.backoff * 2 ** (attempt - 1), policy.max_backoff)
            if error.retry_after is not None:
                wait = min(max(wait, error.retry_after), policy.max_wait)
            if stop_event.wait(wait):
                raise DownloadStopped() from error
    raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises


def _fetch(
    url: str,
    part: Path,
    etag: str | None,
    size: int,
    policy: DownloadPolicy,
    stop_event: threading.Event,
    on_progress: Progress | None,
    fetched: list[int],
) -> None:
    """One try: fetch the rest of the file into ``part`` (network failures raise a transient ``DownloadError``; a
    failing disk raises its ``OSError``)."""
    have = part.stat().st_size if part.exists() else 0
    if have >= size:
        return
    headers = {"Range": f"bytes={have}-", "User-Agent": USER_AGENT}
    if have and etag:
        headers["If-Range"] = etag
    with contextlib.ExitStack() as stack:
        try:
            answer = stack.enter_context(
                transfer.get(
                    url,
                    headers,
                    tls=_tls_context(),
                    connect_timeout=policy.connect_timeout,
                    idle_timeout=policy.idle_timeout,
                )
            )
        except (OSError, http.client.HTTPException) as error:  # refused, reset, timed out, a bad answer
            raise _network_error(error) from error
        if answer.status == 416:
            part.unlink(missing_ok=True)  # the range is past the file: the partial file is not this file's
            raise DownloadError("model_network", transient=True, reason="range")
        if answer.status >= 400:
            raise status_error_for(answer.status, answer.headers.get("Retry-After"))
        mode = "ab" if answer.status == 206 else "wb"  # 200: the server sends the whole file again
        done = have if mode == "ab" else 0
        _receive(answer, part, mode, done, size, stop_event, on_progress, fetched)


def _network_error(error: BaseException) -> DownloadError:
    return DownloadError("model_network", transient=True, reason=type(error).__name__)


def _receive(
    answer: transfer.Answer,
    part: Path,
    mode: str,
    done: int,
    size: int,
    stop_event: threading.Event,
    on_progress: Progress | None,
    fetched: list[int],
) -> None:
    """Write the body into ``part`` as it arrives, each piece at once (unbuffered: a ``kill -9`` loses nothing
    read); report progress every :data:`CHUNK_SIZE` bytes and at the end."""
    buffer = memoryview(bytearray(transfer.BUFFER_SIZE))
    reported = done
    with part.open(mode, buffering=0) as out:
        while True:
            try:
                count = answer.readinto(buffer)
            except (OSError, http.client.HTTPException) as error:  # a drop, an idle timeout, a short body
                raise _network_error(error) from error
            if not count:
                break
            _write_all(out, buffer[:count])
            done += count
            fetched[0] += count
            if on_progress is not None and (done - reported >= CHUNK_SIZE or done >= size):
                on_progress(done, size)
                reported = done
            if stop_event.is_set():
                raise DownloadStopped()
    if on_progress is not None and done != reported:
        on_progress(done, size)
    if done < size:
        raise DownloadError("model_network", transient=True, reason="short")


def _write_all(out: IO[Any], data: memoryview) -> None:
    while data:
        written = out.write(data)
        data = data[written or 0 :]


def _verify(
    part: Path,
    size: int,
    sha256: str,
    stop_event: threading.Event,
    on_verify: Progress | None,
    models_dir: Path,
    file: HubFile,
) -> None:
    """Check the partial file's size and sha256, ``fsync`` it; a bad file is deleted and fails the download."""
    actual_size = part.stat().st_size
    digest = hashlib.sha256()
    done = 0
    with part.open("rb") as source:
        while block := source.read(CHUNK_SIZE * 4):
            digest.update(block)
            done += len(block)
            if on_verify is not None:
                on_verify(done, actual_size)
            if stop_event.is_set():
                raise DownloadStopped()
        os.fsync(source.fileno())
    if actual_size != size or digest.hexdigest() != sha256.lower():
        discard_partial(models_dir, file)
        raise DownloadError("model_corrupt", file=file.filename)

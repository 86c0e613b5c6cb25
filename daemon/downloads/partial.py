"""The files of one model download on disk, and the process's lock on a partial file.

``<models>/.partial/<key>.part`` holds the bytes received so far and ``<key>.json`` (the sidecar) what the hub's
first ``HEAD`` said; the verified file is installed at ``<models>/<owner>--<name>/<file>``
(:mod:`core.app.models.downloads` names the paths, which the window reads too).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path

from core.app.messages.sentences import StoppedOnRequest
from core.app.models import downloads as model_downloads
from daemon.downloads.hub import HubFile

__all__ = ["DownloadStopped", "discard_partial", "exclusive", "installed_path", "partial_path", "sidecar_path"]


class DownloadStopped(StoppedOnRequest):
    """The stop event was set; the partial file stays for a resume. Not a failure (code ``stopped``)."""

    def __init__(self) -> None:
        super().__init__("The download was stopped on request.")


_LOCKS: dict[Path, threading.Lock] = {}
_LOCKS_GUARD = threading.Lock()


@contextlib.contextmanager
def exclusive(part: Path, stop_event: threading.Event) -> Iterator[None]:
    """Hold the process's lock on one partial file: a stopped run's thread, still writing its last piece, ends
    before a new run (a Retry right after a Cancel) reads the file's length or verifies it."""
    with _LOCKS_GUARD:
        lock = _LOCKS.setdefault(part, threading.Lock())
    while not lock.acquire(timeout=0.05):
        if stop_event.is_set():
            raise DownloadStopped()
    try:
        yield
    finally:
        lock.release()


def installed_path(models_dir: Path, file: HubFile) -> Path:
    """Where the verified file lands (:func:`core.app.models.downloads.installed_path`)."""
    return model_downloads.installed_path(models_dir, file.repo, file.filename)


def partial_path(models_dir: Path, file: HubFile) -> Path:
    """The partial file of an unfinished download (:func:`core.app.models.downloads.partial_path`)."""
    return model_downloads.partial_path(models_dir, file.repo, file.revision, file.filename)


def sidecar_path(models_dir: Path, file: HubFile) -> Path:
    """The sidecar of the partial file: what the hub's first ``HEAD`` said (size, sha256, ETag, commit)."""
    return partial_path(models_dir, file).with_suffix(".json")


def discard_partial(models_dir: Path, file: HubFile) -> None:
    """Delete the partial file and its sidecar (a removed or abandoned download). Idempotent."""
    for path in (partial_path(models_dir, file), sidecar_path(models_dir, file)):
        path.unlink(missing_ok=True)

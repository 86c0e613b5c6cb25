"""Model downloads as jobs (the Qt-free side): one ``download_model`` job per file, where files go, queueing and
removing (docs/design/models.md, "Downloads").

Pure functions and async store calls; safe from any thread (the store's calls from its event loop).
"""

from __future__ import annotations

import hashlib
import uuid
from pathlib import Path
from typing import Any

from core.app.models.catalog import Architecture, CatalogModel
from core.app.models.fit import ModelShape

__all__ = [
    "DOWNLOAD_KIND",
    "download_job_id",
    "download_params",
    "enqueue_download",
    "file_key",
    "installed_path",
    "models_dir",
    "partial_path",
    "remove_model_files",
    "shape_from_params",
]

DOWNLOAD_KIND = "download_model"
_NAMESPACE = uuid.UUID("6f0c2a8e-3b7d-4d0e-9a55-2f61c7d0b0d1")


def models_dir(data_dir: Path) -> Path:
    """The folder downloaded models live in."""
    return Path(data_dir) / "models"


def file_key(repo: str, revision: str, filename: str) -> str:
    """A file-system-safe name unique to repo, revision and file."""
    digest = hashlib.sha256(f"{repo}\n{revision}\n{filename}".encode()).hexdigest()[:16]
    return f"{Path(filename).stem}-{digest}"


def installed_path(folder: Path, repo: str, filename: str) -> Path:
    """Where the verified file lands: ``<models>/<owner>--<name>/<file name>``."""
    return folder / repo.replace("/", "--") / Path(filename).name


def partial_path(folder: Path, repo: str, revision: str, filename: str) -> Path:
    """The partial file of an unfinished download (its sidecar: the same path with ``.json``)."""
    return folder / ".partial" / f"{file_key(repo, revision, filename)}.part"


def download_job_id(repo: str, revision: str, filename: str) -> uuid.UUID:
    """The id of the one ``download_model`` job of this file."""
    return uuid.uuid5(_NAMESPACE, f"{repo}\n{revision}\n{filename}")


def download_params(model: CatalogModel) -> dict[str, Any]:
    """The job's ``params``: what the daemon needs to fetch and check the file, and to tell whether the model can
    fit this computer's memory at all before fetching it (``shape``: :func:`shape_from_params`)."""
    arch = model.architecture
    return {
        "catalog_id": model.id,
        "repo": model.repo,
        "revision": model.revision,
        "filename": model.filename,
        # Values only reported elsewhere are not what the file must match: the hub's metadata of the pinned
        # commit is; they are passed on to be compared with it in the job's log.
        "size_bytes": model.size_bytes if model.checked == "seen" else None,
        "sha256": model.sha256 if model.checked == "seen" else None,
        "reported": {"size_bytes": model.size_bytes, "sha256": model.sha256} if model.checked == "reported" else None,
        "gguf_architecture": model.run.gguf_architecture,
        "shape": {
            "name": model.name,
            "weights_bytes": model.size_bytes or model.approx_bytes,
            "trained_context": model.context_length,
            "architecture": {key: getattr(arch, key) for key in Architecture.__slots__},
        },
    }


def shape_from_params(params: dict[str, Any]) -> ModelShape | None:
    """The model's :class:`~core.app.models.fit.ModelShape` from a download job's ``params``; ``None`` when absent."""
    shape = params.get("shape")
    if not isinstance(shape, dict):
        return None
    try:
        return ModelShape(
            name=str(shape["name"]),
            weights_bytes=int(shape["weights_bytes"]),
            architecture=Architecture(**{key: int(shape["architecture"][key]) for key in Architecture.__slots__}),
            trained_context=int(shape["trained_context"]),
        )
    except (KeyError, TypeError, ValueError):
        return None


async def enqueue_download(store: Any, model: CatalogModel) -> Any:
    """Queue the download of ``model`` (a :class:`core.store.JobStore`); the job already there when it exists.

    The caller sends the broker message (or the sweep does). Returns the job row.
    """
    job_id = download_job_id(model.repo, model.revision, model.filename)
    title = model.name
    return await store.enqueue(DOWNLOAD_KIND, job_id=job_id, title=title, params=download_params(model))


def remove_model_files(data_dir: Path, repo: str, revision: str, filename: str) -> int:
    """Delete the model's installed file and any partial download of it; return the bytes freed. Idempotent."""
    folder = models_dir(data_dir)
    part = partial_path(folder, repo, revision, filename)
    freed = 0
    for path in (installed_path(folder, repo, filename), part, part.with_suffix(".json")):
        try:
            freed += path.stat().st_size
            path.unlink()
        except FileNotFoundError:
            continue
    return freed

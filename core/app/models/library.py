"""The models a user can choose, as this computer sees them: the catalog, what is downloaded, what fits, what is in
use; starting and removing downloads (docs/design/models.md, "The model library").

Pure functions and async store calls; safe from any thread (the store's calls from its event loop).
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.app.models.catalog import CATALOG_PATH, CatalogError, CatalogModel, load_catalog
from core.app.models.downloads import (
    DOWNLOAD_KIND,
    download_job_id,
    enqueue_download,
    installed_path,
    models_dir,
    remove_model_files,
)
from core.app.models.fit import fit_model
from core.app.models.memory import MemoryStatus, memory_status
from core.app.settings.config import ModelSettings, Settings
from core.status import OPEN_JOB_STATUSES

__all__ = [
    "ENV_CATALOG",
    "ModelState",
    "available_ram",
    "catalog_entry_for",
    "catalog_path",
    "current_model_id",
    "download_jobs",
    "library_catalog",
    "model_setting",
    "model_states",
    "recommended",
    "remove_model",
    "start_download",
    "writes_summaries",
]

log = logging.getLogger(__name__)

ENV_CATALOG = "STUDYJOBS_CATALOG"
"""Replaces the catalog file (tests: a catalog that names the suite's tiny model)."""


def catalog_path(env: Any = None) -> Path:
    """The catalog file: ``STUDYJOBS_CATALOG`` when set, else the bundled ``resources/models.json``."""
    value = (os.environ if env is None else env).get(ENV_CATALOG, "").strip()
    return Path(value) if value else CATALOG_PATH


def library_catalog(path: Path | None = None) -> list[CatalogModel]:
    """The catalog's entries (:func:`core.app.models.catalog.load_catalog` of :func:`catalog_path`)."""
    return load_catalog(path or catalog_path())


def available_ram() -> int:
    """Bytes of memory this computer can give a model now (:func:`core.app.models.memory.memory_status`, cgroups
    included)."""
    return memory_status().available


@dataclass(frozen=True)
class ModelState:
    """One catalog entry on this computer.

    Attributes:
        model: The catalog entry.
        path: Its downloaded file when it is on this computer, else ``None`` (also for the bundled demo).
        ram_needed: Bytes of RAM it needs at the context it would get (:func:`core.app.models.fit.fit_model`).
        fits: Whether that is no more than the RAM available.
        n_ctx: The context it would get: the ``model.context`` setting, else the largest that fits (to 8,192).
        job: Its download job row (any status), or ``None``.
        in_use: Whether the model setting names it.
    """

    model: CatalogModel
    path: Path | None
    ram_needed: int
    fits: bool
    job: Any | None
    in_use: bool
    n_ctx: int = 0

    @property
    def downloading(self) -> bool:
        """Whether its download is queued or running."""
        return self.job is not None and self.job.status in OPEN_JOB_STATUSES

    @property
    def downloaded(self) -> bool:
        """Whether it can be used now: the bundled demo, or a finished download."""
        return self.model.bundled or self.path is not None


def _installed(settings: Settings, model: CatalogModel) -> Path:
    return installed_path(models_dir(settings.data_dir), model.repo, model.filename)


def model_setting(settings: Settings, model: CatalogModel) -> ModelSettings:
    """The model setting that uses ``model`` (the bundled one, or its downloaded file); the rest of the model
    setting (threads, a server's address, the user's own sampling values) is kept."""
    if model.bundled:
        return dataclasses.replace(settings.model, kind="bundled")
    return dataclasses.replace(settings.model, kind="gguf", gguf_path=_installed(settings, model))


def catalog_entry_for(settings: Settings, catalog: Sequence[CatalogModel]) -> CatalogModel | None:
    """The catalog entry the model setting uses: the bundled demo, or the entry whose downloaded file it names."""
    current = settings.model
    for model in catalog:
        if model.bundled and current.kind == "bundled":
            return model
        if not model.bundled and current.kind == "gguf" and current.gguf_path == _installed(settings, model):
            return model
    return None


def writes_summaries(settings: Settings) -> bool:
    """Whether the model in ``settings`` writes each section's summary: ``model.summaries`` when set, else the
    catalog's word for a catalog model (the bundled demo writes none: its guides quote key passages), else yes
    (a file outside the catalog, a server, or a catalog that cannot be read: logged)."""
    chosen = settings.model.summaries
    if chosen is not None:
        return chosen
    if settings.model.kind not in ("bundled", "gguf"):
        return True
    try:
        entry = catalog_entry_for(settings, library_catalog())
    except CatalogError:
        log.warning("the model catalog cannot be read; the model is taken to write summaries", exc_info=True)
        return True
    return entry.writes_summaries if entry is not None else True


def current_model_id(settings: Settings, catalog: Sequence[CatalogModel]) -> str | None:
    """The id of the catalog entry in use, ``None`` for a model outside the catalog (a file or a server)."""
    entry = catalog_entry_for(settings, catalog)
    return entry.id if entry is not None else None


async def download_jobs(store: Any) -> dict[str, Any]:
    """Every ``download_model`` job, newest first, by the catalog id it was queued for."""
    rows = await store.list_recent(kind=DOWNLOAD_KIND, limit=100)
    jobs: dict[str, Any] = {}
    for row in rows:
        jobs.setdefault(str((row.params or {}).get("catalog_id")), row)
    return jobs


def model_states(
    settings: Settings,
    catalog: Sequence[CatalogModel],
    jobs: dict[str, Any] | None = None,
    *,
    ram: int | None = None,
) -> list[ModelState]:
    """Each catalog entry's :class:`ModelState` (``jobs`` from :func:`download_jobs`; ``ram``: the memory
    available, measured when not given). Fit and context as the worker decides them (:func:`fit_model` with the
    ``model.context`` setting)."""
    memory = memory_status() if ram is None else MemoryStatus(ram, ram)
    in_use = current_model_id(settings, catalog)
    states = []
    for model in catalog:
        installed = None if model.bundled else _installed(settings, model)
        path = installed if installed is not None and installed.is_file() else None
        fit = fit_model(model, context=settings.model.context, memory=memory)
        job = (jobs or {}).get(model.id)
        states.append(ModelState(model, path, fit.needed, fit.fits, job, model.id == in_use, fit.n_ctx))
    return states


def recommended(states: Sequence[ModelState]) -> ModelState | None:
    """The download to offer first: the first catalog entry (the catalog lists its best choices first) that is
    not the demo, whose licence allows commercial use, and that fits this computer; ``None`` when none does."""
    return next((s for s in states if not s.model.bundled and s.model.commercial_use and s.fits), None)


async def start_download(store: Any, model: CatalogModel) -> Any:
    """Queue ``model``'s download and return its job: the running one is followed, a failed or cancelled one is
    retried (it resumes from its partial file), a finished one whose file is gone is queued anew."""
    job_id = download_job_id(model.repo, model.revision, model.filename)
    try:
        existing = await store.get(job_id)
    except LookupError:
        existing = None
    if existing is not None:
        if existing.status in OPEN_JOB_STATUSES:
            return existing
        if existing.status in ("failed", "cancelled"):
            retried = await store.retry(job_id)
            if retried is not None:
                return retried
        await store.delete(job_id)
    return await enqueue_download(store, model)


async def remove_model(store: Any, settings: Settings, model: CatalogModel) -> int:
    """Delete ``model``'s file and any partial download, and forget its finished download job; the bytes freed.

    A queued or running download is cancelled first (its partial file goes too).
    """
    job_id = download_job_id(model.repo, model.revision, model.filename)
    try:
        job = await store.get(job_id)
    except LookupError:
        job = None
    if job is not None and job.status in OPEN_JOB_STATUSES:
        await store.cancel(job_id)
    freed = remove_model_files(settings.data_dir, model.repo, model.revision, model.filename)
    if job is not None:
        await store.delete(job_id)
    return freed


def with_model(settings: Settings, model: CatalogModel) -> Settings:
    """``settings`` using ``model`` (:func:`model_setting`)."""
    return dataclasses.replace(settings, model=model_setting(settings, model))

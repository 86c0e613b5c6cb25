"""StudyJobs' job library: one table that answers "is it waiting, running, done, why did it stop, how long is left".

Qt-free and daemon-free; exact semantics in ``shared/spec/core.md``, design in docs/design/jobs.md. Its names are
imported when first used (:func:`__getattr__`), so a light process does not load the database layer.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.cancellable import run_cancellable
    from core.db import AsyncDatabaseManager
    from core.errors import (
        JobAlreadyFinishedError,
        JobCancelledError,
        JobClaimLostError,
        JobNotFoundError,
        PayloadNotLoadedError,
        StageInterruptedError,
    )
    from core.models import Base, BaseJobModel
    from core.progress import Phase, PhasePlan, eta_seconds
    from core.retry import DEFAULT_BACKOFF, Backoff
    from core.stages import StageMap, StageStatus
    from core.status import CANCELLABLE_JOB_STATUSES, OPEN_JOB_STATUSES, TERMINAL_JOB_STATUSES, JobStatus
    from core.store import Cursor, JobStore
    from core.tracker import ProgressTracker

_HOMES: dict[str, str] = {
    "run_cancellable": "core.cancellable",
    "AsyncDatabaseManager": "core.db",
    "JobAlreadyFinishedError": "core.errors",
    "JobCancelledError": "core.errors",
    "JobClaimLostError": "core.errors",
    "JobNotFoundError": "core.errors",
    "PayloadNotLoadedError": "core.errors",
    "StageInterruptedError": "core.errors",
    "Base": "core.models",
    "BaseJobModel": "core.models",
    "Phase": "core.progress",
    "PhasePlan": "core.progress",
    "eta_seconds": "core.progress",
    "DEFAULT_BACKOFF": "core.retry",
    "Backoff": "core.retry",
    "StageMap": "core.stages",
    "StageStatus": "core.stages",
    "CANCELLABLE_JOB_STATUSES": "core.status",
    "OPEN_JOB_STATUSES": "core.status",
    "TERMINAL_JOB_STATUSES": "core.status",
    "JobStatus": "core.status",
    "Cursor": "core.store",
    "JobStore": "core.store",
    "ProgressTracker": "core.tracker",
}
"""Where each public name lives."""

__version__ = "0.1.0"

__all__ = [
    "CANCELLABLE_JOB_STATUSES",
    "DEFAULT_BACKOFF",
    "OPEN_JOB_STATUSES",
    "TERMINAL_JOB_STATUSES",
    "AsyncDatabaseManager",
    "Backoff",
    "Base",
    "BaseJobModel",
    "Cursor",
    "JobAlreadyFinishedError",
    "JobCancelledError",
    "JobClaimLostError",
    "JobNotFoundError",
    "JobStatus",
    "JobStore",
    "PayloadNotLoadedError",
    "Phase",
    "PhasePlan",
    "ProgressTracker",
    "StageInterruptedError",
    "StageMap",
    "StageStatus",
    "__version__",
    "eta_seconds",
    "run_cancellable",
]


def __getattr__(name: str) -> Any:
    """The public name ``name``, imported from its module on first use (then cached in the package)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'core' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value

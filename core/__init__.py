"""StudyJobs' job library: one table that answers "is it waiting, running, done, why did it stop, how long is left".

Qt-free and daemon-free: the worker daemon, the desktop app and the CLI all build on it. See
``shared/spec/core.md`` for the exact semantics.
"""

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
from core.status import CANCELLABLE_JOB_STATUSES, TERMINAL_JOB_STATUSES, JobStatus
from core.store import Cursor, JobStore
from core.tracker import ProgressTracker

__version__ = "0.1.0"

__all__ = [
    "CANCELLABLE_JOB_STATUSES",
    "DEFAULT_BACKOFF",
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

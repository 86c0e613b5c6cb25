"""The job library's error classes.

None of these is an HTTP error: the store runs in workers, the GUI and the CLI alike. Translate them at the edge.
"""

from __future__ import annotations

__all__ = [
    "JobAlreadyFinishedError",
    "JobCancelledError",
    "JobClaimLostError",
    "JobNotFoundError",
    "PayloadNotLoadedError",
    "StageInterruptedError",
]


class JobNotFoundError(LookupError):
    """The job id does not exist (``get``, ``succeed``, ``fail``, ``watch``)."""


class JobAlreadyFinishedError(RuntimeError):
    """Closing a job that is already terminal: two workers believe the job is theirs."""


class JobCancelledError(JobAlreadyFinishedError):
    """Closing a job the user cancelled: the system did what it was told. Log it and move on; do not alert."""


class JobClaimLostError(JobAlreadyFinishedError):
    """A worker whose claim was superseded (the job was reclaimed, and maybe claimed again) tried to close it."""


class PayloadNotLoadedError(RuntimeError):
    """``payload`` read on a row that was loaded without it (from ``list_recent``, ``watch``, ``due_jobs`` or a state
    change). ``JobStore.get`` and ``JobStore.claim`` return the whole row."""


class StageInterruptedError(Exception):
    """``run_cancellable`` (or a ``ProgressTracker``) saw the cancel. Not a failure: the handler just returns."""

"""Job statuses and the sets of them that the store and the screens reason with."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["CANCELLABLE_JOB_STATUSES", "OPEN_JOB_STATUSES", "TERMINAL_JOB_STATUSES", "JobStatus"]


class JobStatus(StrEnum):
    """Where a job is in its life: ``queued → running → done | failed | cancelled``."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"


TERMINAL_JOB_STATUSES: frozenset[JobStatus] = frozenset({JobStatus.DONE, JobStatus.FAILED, JobStatus.CANCELLED})
"""A job in one of these never changes again, except by a manual ``retry``."""

OPEN_JOB_STATUSES: tuple[str, ...] = (JobStatus.QUEUED.value, JobStatus.RUNNING.value)
"""The plain values a row holds, for ``status in OPEN_JOB_STATUSES`` and ``column.in_(…)``: a job that is "queued or
running" is open (waiting or being worked on). The one spelling of that pair."""

CANCELLABLE_JOB_STATUSES: frozenset[JobStatus] = frozenset(JobStatus(s) for s in OPEN_JOB_STATUSES)
"""A job in one of these can still be stopped: the open ones, as members of :class:`JobStatus`."""

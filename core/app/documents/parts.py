"""The two jobs of one document — its root (``ingest``) and its newest child (``generate``) — as plain snapshots
(:class:`PartSnapshot`), and the document's status from theirs (:func:`pipeline_status`; the table:
docs/design/documents.md, "A document is two jobs").

Pure and Qt-free; a snapshot is a plain frozen copy of a row, safe to keep and compare on any thread.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from core.status import JobStatus

__all__ = ["PART_COLUMNS", "PartSnapshot", "pipeline_status"]

PART_COLUMNS = (
    "id", "kind", "status", "title", "stage", "progress", "message", "detail", "phases", "params", "result_id",
    "error", "error_transient", "attempts", "max_attempts", "run_after", "started_at", "finished_at", "created_at",
    "updated_at", "parent_id",
)  # fmt: skip
"""The job columns a :class:`PartSnapshot` holds (never the payload)."""


@dataclass(frozen=True, slots=True)
class PartSnapshot:
    """One job of a document (its root or its newest child), as read: a plain copy of the row's columns."""

    id: uuid.UUID
    kind: str
    status: str
    title: str
    stage: str
    progress: float
    message: str
    detail: dict[str, Any]
    phases: list[dict[str, Any]]
    params: dict[str, Any]
    result_id: uuid.UUID | None
    error: str | None
    error_transient: bool
    attempts: int
    max_attempts: int
    run_after: datetime | None
    started_at: datetime | None
    finished_at: datetime | None
    created_at: datetime
    updated_at: datetime
    parent_id: uuid.UUID | None

    @classmethod
    def of(cls, job: Any) -> PartSnapshot:
        """A snapshot of anything with the job columns (an ORM ``Job`` or a result row's mapping)."""
        values = job if isinstance(job, Mapping) else {name: getattr(job, name) for name in PART_COLUMNS}
        return cls(
            id=values["id"],
            kind=values["kind"],
            status=values["status"],
            title=values["title"] or "",
            stage=values["stage"] or "",
            progress=float(values["progress"] or 0.0),
            message=values["message"] or "",
            detail=dict(values["detail"] or {}),
            phases=list(values["phases"] or []),
            params=dict(values["params"] or {}),
            result_id=values["result_id"],
            error=values["error"],
            error_transient=bool(values["error_transient"]),
            attempts=int(values["attempts"] or 0),
            max_attempts=int(values["max_attempts"] or 0),
            run_after=values["run_after"],
            started_at=values["started_at"],
            finished_at=values["finished_at"],
            created_at=values["created_at"],
            updated_at=values["updated_at"],
            parent_id=values["parent_id"],
        )


def pipeline_status(root_status: str, wants_guide: bool, child_status: str | None) -> str:
    """The document's status from its parts' (the table in the module docstring)."""
    if root_status != JobStatus.DONE:
        return root_status
    if child_status is not None:
        return child_status
    return JobStatus.QUEUED.value if wants_guide else JobStatus.DONE.value

"""``StageMap``: status, error and result columns for several stages on one record, with the "mark running / mark
failed" logic written once; it refuses two stages that resolve to the same column (docs/design/jobs.md).

Declares no columns. Plain objects; safe from any thread.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Any

__all__ = ["StageMap", "StageStatus"]

_UNSET: Any = object()


class StageStatus(StrEnum):
    """Where one stage of a record is. ``None`` in the column means the stage was never asked for."""

    PENDING = "pending"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"


FINISHED_STAGE_STATUSES: frozenset[StageStatus] = frozenset(
    {StageStatus.DONE, StageStatus.FAILED, StageStatus.CANCELLED}
)


class StageMap:
    """The column names of each stage, and the operations on them.

    Args:
        stages: The stage names, in order.
        prefix: Put before every column name (``"doc_"`` gives ``doc_status_summary``).
        status_template: Column holding the :class:`StageStatus` value; ``{stage}`` is replaced.
        error_template: Column holding the user-facing error of the last run.
        result_template: Column holding the stage's result.

    Raises:
        ValueError: no stages, a repeated stage, or two stages (or two roles of one stage) resolving to the
            same column.
    """

    def __init__(
        self,
        stages: Iterable[str],
        *,
        prefix: str = "",
        status_template: str = "status_{stage}",
        error_template: str = "error_{stage}",
        result_template: str = "result_{stage}",
    ) -> None:
        self.stages: tuple[str, ...] = tuple(stages)
        if not self.stages:
            raise ValueError("a StageMap needs at least one stage")
        if len(set(self.stages)) != len(self.stages):
            raise ValueError(f"repeated stage in {self.stages!r}")
        templates = {"status": status_template, "error": error_template, "result": result_template}
        self._columns: dict[str, tuple[str, str, str]] = {}
        owners: dict[str, str] = {}
        for stage in self.stages:
            names = tuple(prefix + templates[role].format(stage=stage) for role in ("status", "error", "result"))
            for name in names:
                if name in owners:
                    raise ValueError(f"stages {owners[name]!r} and {stage!r} both resolve to column {name!r}")
                owners[name] = stage
            self._columns[stage] = (names[0], names[1], names[2])

    def columns(self, stage: str) -> tuple[str, str, str]:
        """``(status_column, error_column, result_column)`` of ``stage``."""
        try:
            return self._columns[stage]
        except KeyError:
            raise KeyError(f"unknown stage {stage!r}; known: {', '.join(self.stages)}") from None

    def mark(
        self,
        record: Any,
        stage: str,
        status: StageStatus | str,
        *,
        error: str | None = None,
        result: Any = _UNSET,
    ) -> None:
        """Set the stage's status and error on ``record`` (in memory; the caller commits).

        Without ``result`` the previous result is kept: cancelling a regeneration must not lose the last good
        answer.
        """
        status_col, error_col, result_col = self.columns(stage)
        setattr(record, status_col, StageStatus(status).value)
        setattr(record, error_col, error)
        if result is not _UNSET:
            setattr(record, result_col, result)

    def status(self, record: Any, stage: str) -> StageStatus | None:
        """The stage's status, or ``None`` when it was never asked for."""
        value = getattr(record, self.columns(stage)[0])
        return None if value is None else StageStatus(value)

    def owns(self, record: Any, stage: str, status: StageStatus | str) -> bool:
        """Whether the stage is still in ``status`` — a check of ownership, not just of cancellation.

        Re-read the record from the database first: an object loaded before the work began still has the old
        status and would answer ``True`` whatever happened.
        """
        return self.status(record, stage) == StageStatus(status)

    def cancel(self, record: Any, stages: Iterable[str] | None = None) -> tuple[list[str], list[str]]:
        """Cancel the stages that are pending or running; returns ``(cancelled, ignored)``.

        A finished (or never asked for) stage is ignored, not an error: a polling screen routinely cancels
        something that completed an instant ago. There is no cascade: a stage that only enqueues the next one on
        success makes the next one never exist.
        """
        cancelled: list[str] = []
        ignored: list[str] = []
        for stage in self.stages if stages is None else tuple(stages):
            current = self.status(record, stage)
            if current in (StageStatus.PENDING, StageStatus.RUNNING):
                self.mark(record, stage, StageStatus.CANCELLED)
                cancelled.append(stage)
            else:
                ignored.append(stage)
        return cancelled, ignored

    def snapshot(self, record: Any) -> dict[str, dict[str, Any]]:
        """Every stage's ``{"status", "error", "result"}``, for a screen or a log line."""
        out: dict[str, dict[str, Any]] = {}
        for stage in self.stages:
            status_col, error_col, result_col = self.columns(stage)
            out[stage] = {
                "status": getattr(record, status_col),
                "error": getattr(record, error_col),
                "result": getattr(record, result_col),
            }
        return out

    def __repr__(self) -> str:
        return f"StageMap({list(self.stages)!r})"

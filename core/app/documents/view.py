"""One document as one thing: :func:`document_view` turns its root job and newest child into a :class:`DocumentView`
(status, one progress, phases, the message and error that matter, the time left; docs/design/documents.md).

Pure and Qt-free; a view is a plain frozen snapshot, safe to keep and compare on any thread.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from core.app.documents.parts import PartSnapshot, pipeline_status
from core.app.timing.document_time import document_time_left, expected_seconds, guide_share_seconds, shipped_plan
from core.status import OPEN_JOB_STATUSES, JobStatus

__all__ = ["DocumentView", "PipelinePhase", "document_view", "views_of"]


@dataclass(frozen=True, slots=True)
class PipelinePhase:
    """One phase of a document's pipeline, placed on the document's one bar.

    Attributes:
        name: The plan's phase name (``read`` … ``export``).
        part: The kind of the job it belongs to (``"ingest"`` or ``"generate"``).
        state: ``"done"``, ``"running"``, ``"stopped"`` (where a failed or cancelled part stopped) or ``"waiting"``.
        fraction: How much of the phase is done (0..1).
        start: Where the phase begins on the document's bar (0..1).
        end: Where it ends.
        seconds: Its expected seconds.
    """

    name: str
    part: str
    state: str
    fraction: float
    start: float
    end: float
    seconds: float


@dataclass(frozen=True, slots=True)
class DocumentView:
    """What every screen shows of one document. Compare two views with ``==`` to know whether to repaint.

    ``id`` is the root job's id: the document's id everywhere (the window's row, ``studyjobs show ID``). The
    ``active`` part is the one the status, message, error and attempts come from: the child once the root is done
    and a child exists, else the root. ``detail`` is the root's, overlaid by the child's while the child is the
    active part, so the counts of both parts read together (*page 12 of 12 · section 2 of 5*).
    """

    id: uuid.UUID
    title: str
    root: PartSnapshot
    guide: PartSnapshot | None
    wants_guide: bool
    status: str
    progress: float
    stage: str
    message: str
    error: str | None
    error_transient: bool
    attempts: int
    max_attempts: int
    run_after: datetime | None
    phases: tuple[PipelinePhase, ...]
    detail: dict[str, Any]
    params: dict[str, Any]
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    updated_at: datetime
    eta: float | None = field(default=None, compare=False)
    """Seconds left for the whole document; ``None`` while it cannot be estimated (or the document is not open)."""
    seen_at: datetime = field(default_factory=lambda: datetime.now(UTC), compare=False)
    """When :attr:`eta` was worked out (the view was made)."""

    def time_left(self, now: datetime | None = None) -> float | None:
        """:attr:`eta` counted down to ``now`` (default: the clock), never below zero; ``None`` as :attr:`eta`.

        A screen that repaints every second shows a time that moves between the worker's writes.
        """
        if self.eta is None:
            return None
        elapsed = ((now or datetime.now(UTC)) - self.seen_at).total_seconds()
        return max(self.eta - max(elapsed, 0.0), 0.0)

    @property
    def active(self) -> PartSnapshot | None:
        """The part the status comes from (``None``: the guide is wanted but its job does not exist yet)."""
        if self.root.status != JobStatus.DONE or not self.wants_guide:
            return self.root
        return self.guide

    @property
    def only_extract(self) -> bool:
        """Whether the document is "text only" (no study guide)."""
        return not self.wants_guide

    @property
    def kind(self) -> str:
        """``"guide"`` (a study guide is made) or ``"text"`` (text only)."""
        return "guide" if self.wants_guide else "text"

    @property
    def display_name(self) -> str:
        """The title, or the file name of the document, or the start of the id."""
        return self.title or str(self.params.get("path", "")).rsplit("/", 1)[-1] or str(self.id)[:8]

    @property
    def guide_job_id(self) -> uuid.UUID | None:
        """The newest ``generate`` job of the document, if any."""
        return self.guide.id if self.guide is not None else None

    @property
    def cursor(self) -> tuple[datetime, uuid.UUID]:
        """The keyset cursor that continues a listing after this document."""
        return (self.created_at, self.id)

    def duration(self, now: datetime | None = None) -> float | None:
        """Seconds from the first part's start to the pipeline's end (to now while it is open)."""
        if self.started_at is None:
            return None
        end = self.finished_at or (now or datetime.now(UTC))
        return max((end - self.started_at).total_seconds(), 0.0)


def _entries(part: PartSnapshot | None, kind: str) -> list[dict[str, Any]]:
    """The part's phase entries, or its kind's planned phases (spans from the medians) before it has any."""
    if part is not None and part.phases and part.status != JobStatus.QUEUED:
        return part.phases
    plan = shipped_plan(kind)
    total = sum(s for _n, s in plan) or 1.0
    entries, start = [], 0.0
    for i, (name, seconds) in enumerate(plan):
        end = 1.0 if i == len(plan) - 1 else start + seconds / total
        entries.append({"name": name, "start": start, "end": end, "seconds": seconds})
        start = end
    return entries


def _phase_state(part: PartSnapshot | None, entry: Mapping[str, Any]) -> tuple[str, float]:
    """``(state, fraction)`` of one phase of a part (``None``: the part does not exist yet)."""
    if part is None or part.status == JobStatus.QUEUED:
        return "waiting", 0.0
    if part.status == JobStatus.DONE:
        return "done", 1.0
    start, end = float(entry.get("start", 0.0)), float(entry.get("end", 0.0))
    width = end - start
    fraction = min(max((part.progress - start) / width, 0.0), 1.0) if width > 0 else 0.0
    if entry.get("finished_at") or (width > 0 and part.progress >= end - 1e-9):
        return "done", 1.0
    if entry.get("name") == part.stage:
        return ("running" if part.status == JobStatus.RUNNING else "stopped"), fraction
    if fraction > 0 and part.status == JobStatus.RUNNING:
        return "running", fraction
    return "waiting", 0.0


def _place(part: PartSnapshot | None, kind: str, low: float, high: float) -> list[PipelinePhase]:
    """The part's phases laid on ``[low, high]`` of the document's bar."""
    out = []
    for entry in _entries(part, kind):
        state, fraction = _phase_state(part, entry)
        start, end = float(entry.get("start", 0.0)), float(entry.get("end", 0.0))
        out.append(
            PipelinePhase(
                name=str(entry.get("name", "")),
                part=kind,
                state=state,
                fraction=fraction,
                start=low + (high - low) * start,
                end=low + (high - low) * end,
                seconds=float(entry.get("seconds") or 0.0),
            )
        )
    return out


def _part_progress(part: PartSnapshot | None) -> float:
    if part is None or part.status == JobStatus.QUEUED:
        return 0.0
    return 1.0 if part.status == JobStatus.DONE else min(max(part.progress, 0.0), 1.0)


def document_view(root: PartSnapshot, guide: PartSnapshot | None) -> DocumentView:
    """The view of the document whose root is ``root`` and whose newest child is ``guide``."""
    wants_guide = guide is not None or not bool(root.params.get("only_extract", False))
    status = pipeline_status(root.status, wants_guide, guide.status if guide is not None else None)
    root_seconds = expected_seconds(root, "ingest")
    guide_seconds = guide_share_seconds(root, guide) if wants_guide else 0.0
    split = root_seconds / (root_seconds + guide_seconds) if root_seconds + guide_seconds > 0 else 1.0
    phases = _place(root, "ingest", 0.0, split)
    if wants_guide:
        phases += _place(guide, "generate", split, 1.0)
    progress = 1.0 if status == JobStatus.DONE else _part_progress(root) * split
    if root.status == JobStatus.DONE and wants_guide and status != JobStatus.DONE:
        progress = split + _part_progress(guide) * (1.0 - split)
    active = root if root.status != JobStatus.DONE or not wants_guide else guide
    ended = status not in OPEN_JOB_STATUSES
    return DocumentView(
        id=root.id,
        title=root.title,
        root=root,
        guide=guide,
        wants_guide=wants_guide,
        status=status,
        progress=progress,
        stage=active.stage if active is not None else "",
        message=active.message if active is not None else "",
        error=active.error if active is not None else None,
        error_transient=bool(active.error_transient) if active is not None else False,
        attempts=active.attempts if active is not None else 0,
        max_attempts=active.max_attempts if active is not None else 0,
        run_after=active.run_after if active is not None else None,
        phases=tuple(phases),
        detail={**root.detail, **guide.detail} if active is guide and guide is not None else dict(root.detail),
        params=root.params,
        created_at=root.created_at,
        started_at=root.started_at,
        finished_at=(active.finished_at if active is not None else root.finished_at) if ended else None,
        updated_at=max(root.updated_at, guide.updated_at) if guide is not None else root.updated_at,
        eta=document_time_left(root, guide),
    )


def views_of(pairs: Sequence[tuple[PartSnapshot, PartSnapshot | None]]) -> list[DocumentView]:
    """:func:`document_view` of each ``(root, newest child)`` pair."""
    return [document_view(root, guide) for root, guide in pairs]

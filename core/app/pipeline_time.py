"""How long a document's jobs take: the shipped plans of each kind, a part's expected seconds, and the time left for
the whole document (:func:`document_time_left`: the one implementation the window, the CLI and
``bench/eta_bench.py`` use).

Pure and Qt-free (the shipped plans are read once from ``resources/plans``); thread-safe.
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from core.app.pipeline_parts import OPEN_STATUSES, PartSnapshot, pipeline_status
from core.progress import ETA_AT, EXPECTED_SECONDS, FOLLOW_UP_SECONDS, eta_seconds
from core.status import JobStatus

__all__ = [
    "PLANS_DIR",
    "document_time_left",
    "expected_seconds",
    "guide_share_seconds",
    "planned_seconds",
    "shipped_plan",
]

PLANS_DIR = Path(__file__).resolve().parents[2] / "resources" / "plans"
_FALLBACK_PLANS: dict[str, tuple[tuple[str, float], ...]] = {
    "ingest": (("read", 1.0), ("clean", 0.05), ("save", 0.1)),
    "generate": (("load_model", 1.0), ("outline", 8.0), ("sections", 30.0), ("export", 0.1)),
}


@cache
def shipped_plan(kind: str) -> tuple[tuple[str, float], ...]:
    """``(name, median seconds)`` of the shipped plan of ``kind`` (``resources/plans/{kind}.json``)."""
    try:
        data = json.loads((PLANS_DIR / f"{kind}.json").read_text(encoding="utf-8"))
        return tuple((str(p["name"]), float(p["seconds"])) for p in data["phases"])
    except (OSError, ValueError, KeyError, TypeError):
        return _FALLBACK_PLANS.get(kind, ())


def planned_seconds(kind: str) -> float:
    """The expected seconds of a job of ``kind`` before it knows its input (its plan's medians added up)."""
    return sum(seconds for _name, seconds in shipped_plan(kind))


def expected_seconds(part: PartSnapshot | None, kind: str) -> float:
    """Expected seconds of a part: its own phases once it has them, else ``detail["expected_seconds"]``, else its
    kind's plan."""
    if part is not None:
        if part.phases:
            return sum(float(p.get("seconds") or 0.0) for p in part.phases)
        given = part.detail.get("expected_seconds")
        if isinstance(given, int | float) and given > 0:
            return float(given)
    return planned_seconds(kind)


def guide_share_seconds(root: PartSnapshot, guide: PartSnapshot | None) -> float:
    """The guide part's expected seconds for the bar's layout: the root's estimate of its follow-up while it has
    one (the same number from the first second to the last, so the bar never jumps), else the child's own."""
    given = root.detail.get("follow_up_seconds")
    if isinstance(given, int | float) and given > 0:
        return float(given)
    return expected_seconds(guide, "generate")


def document_time_left(root: PartSnapshot, guide: PartSnapshot | None, now: datetime | None = None) -> float | None:
    """Seconds left for the whole document at ``now`` (default: the clock): what the window and the CLI show.

    ``root`` is the document's root part, ``guide`` its newest child (:meth:`PartSnapshot.of` a job row). ``None``
    while the part that matters has no estimate (the screen says "estimating…"), or when the document is not open.

    * the root (``ingest``) open: its time left (the worker's figure while it runs, its expected seconds while it
      waits) plus the guide's share (:func:`guide_share_seconds`) when a guide is wanted; ``None`` while it runs
      without a figure, or when it wrote ``follow_up_seconds`` as ``None`` (no basis for the guide yet);
    * the guide wanted but its job not made yet: the guide's share;
    * the guide (``generate``) waiting: its ``expected_seconds``; running: its worker's figure, or before its
      first write its ``expected_seconds`` counted down from its start.
    """
    detail = root.detail
    wants_guide = guide is not None or not bool(root.params.get("only_extract", False))
    status = pipeline_status(root.status, wants_guide, guide.status if guide is not None else None)
    if status not in OPEN_STATUSES:
        return None
    if root.status in OPEN_STATUSES:
        left = eta_seconds(root, now) if root.status == JobStatus.RUNNING else expected_seconds(root, "ingest")
        if left is None or not wants_guide:
            return left
        if FOLLOW_UP_SECONDS in detail and not _positive(detail[FOLLOW_UP_SECONDS]):
            return None
        return left + guide_share_seconds(root, guide)
    if guide is None:
        return guide_share_seconds(root, None)
    expected = _positive(guide.detail.get(EXPECTED_SECONDS))
    if guide.status == JobStatus.RUNNING:
        left = eta_seconds(guide, now)
        if left is not None or ETA_AT in guide.detail or expected is None or guide.started_at is None:
            return left
        since = ((now or datetime.now(UTC)) - guide.started_at).total_seconds()  # before the worker's first write
        return max(expected - max(since, 0.0), 0.0)
    return expected if expected is not None else guide_share_seconds(root, guide)


def _positive(value: Any) -> float | None:
    """``value`` as a number of seconds when it is one (finite, above zero), else ``None``."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value <= 0:
        return None
    return float(value)

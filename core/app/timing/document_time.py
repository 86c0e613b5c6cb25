"""How long a document's jobs take: the shipped phase plans of each kind (:func:`plan_for`, their one loader), a
part's expected seconds, and the time left for the whole document (:func:`document_time_left`: the one
implementation the window, the CLI and ``bench/eta_bench.py`` use).

Pure and Qt-free (the shipped plans are read once from ``resources/plans``); thread-safe.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from core.app.documents.parts import PartSnapshot, pipeline_status
from core.progress import ETA_AT, EXPECTED_SECONDS, FOLLOW_UP_SECONDS, PhasePlan, eta_seconds
from core.status import OPEN_JOB_STATUSES, JobStatus

__all__ = [
    "PLANS_DIR",
    "READER_FAMILIES",
    "document_time_left",
    "expected_seconds",
    "guide_share_seconds",
    "plan_for",
    "planned_seconds",
    "reader_family",
    "shipped_plan",
]

PLANS_DIR = Path(__file__).resolve().parents[3] / "resources" / "plans"
"""Where the calibrated phase plans ship (``bench/calibrate.py`` writes them)."""

READER_FAMILIES: dict[str, tuple[str, ...]] = {"pdf": ("pdf",), "text": ("text", "markdown", "html")}
"""Family name → the document formats (``core.app.documents.formats``) whose reading speed it shares: reading plain text
runs about ten times faster per character than laying out PDF pages, so a family has its own ``ingest`` plan
(``ingest-pdf.json``, ``ingest-text.json``); a format without one (DOCX, EPUB) takes the kind's plan."""

# Used only when the calibrated file is missing or unreadable (a broken install): rough figures from a 2-core machine.
_FALLBACK: dict[str, PhasePlan] = {
    "ingest": PhasePlan.from_seconds(
        {"read": 1.0, "clean": 0.05, "save": 0.1}, per_kilochar={"read": 0.01, "clean": 0.0005, "save": 0.001}
    ),
    "generate": PhasePlan.from_seconds(
        {"load_model": 1.0, "outline": 8.0, "sections": 30.0, "export": 0.1},
        per_kilochar={"outline": 0.3, "sections": 1.0},
    ),
}


def reader_family(document_format: str | None) -> str | None:
    """The family of a format (``"pdf"`` → ``"pdf"``, ``"markdown"`` → ``"text"``), ``None`` for the others."""
    for family, formats in READER_FAMILIES.items():
        if document_format in formats:
            return family
    return None


@cache
def plan_for(kind: str, family: str | None = None) -> PhasePlan:
    """The shipped plan of job kind ``kind`` (``"ingest"`` or ``"generate"``), for input of reader ``family`` when
    given: ``resources/plans/{kind}-{family}.json`` when it exists, else ``{kind}.json``, else a rough built-in
    plan (``KeyError`` for a kind without any). The one loader of phase plans: the worker's bars and the screens'
    estimates both read them here."""
    candidates = [f"{kind}-{family}.json"] if family else []
    for name in [*candidates, f"{kind}.json"]:
        path = PLANS_DIR / name
        if path.is_file():
            try:
                return PhasePlan.load(path)
            except (OSError, ValueError, KeyError, TypeError):
                break
    return _FALLBACK[kind]


def shipped_plan(kind: str) -> tuple[tuple[str, float], ...]:
    """``(name, median seconds)`` of each phase of the shipped plan of ``kind`` (:func:`plan_for`); ``()`` for a
    kind that has none."""
    try:
        return tuple((phase.name, phase.weight) for phase in plan_for(kind).phases)
    except KeyError:
        return ()


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
    if status not in OPEN_JOB_STATUSES:
        return None
    if root.status in OPEN_JOB_STATUSES:
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

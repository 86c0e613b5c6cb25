"""The phase plans of each job kind, measured by ``bench/calibrate.py`` and shipped in ``resources/plans``.

A kind may also have plans per *reader family* (``ingest-pdf.json``, ``ingest-text.json``): reading plain text
runs about ten times faster per character than laying out PDF pages, so one ``read`` rate for every format gives
a text file's bar far too much room for reading and none for the fixed cost of saving. A format without a family
plan (DOCX, EPUB) takes the kind's plan, fitted over every format.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from core.progress import Phase, PhasePlan

__all__ = ["PLANS_DIR", "READER_FAMILIES", "plan_for", "quoting_plan", "reader_family", "with_wait"]

PLANS_DIR = Path(__file__).resolve().parents[1] / "resources" / "plans"

READER_FAMILIES: dict[str, tuple[str, ...]] = {"pdf": ("pdf",), "text": ("text", "markdown", "html")}
"""Family name → the document formats (``core.app.formats``) whose reading speed it shares."""

# Used only when the calibrated file is missing (a broken install): rough figures from a 2-core machine.
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
    """The plan of job kind ``kind`` (``"ingest"`` or ``"generate"``), for input of reader ``family`` when given.

    ``resources/plans/{kind}-{family}.json`` when it exists, else ``{kind}.json``, else a rough built-in plan.
    """
    candidates = [f"{kind}-{family}.json"] if family else []
    for name in [*candidates, f"{kind}.json"]:
        path = PLANS_DIR / name
        if path.is_file():
            return PhasePlan.load(path)
    return _FALLBACK[kind]


def quoting_plan(plan: PhasePlan) -> PhasePlan:
    """``plan`` (a ``generate`` plan, measured with a model that writes summaries) for a writer that writes none
    (``daemon.llm.guide.GuideWriter.summaries`` false): its ``sections`` phase quotes passages and asks the model
    nothing, so it takes the ``export`` phase's few milliseconds; the model's phases keep their measured share."""
    quick = plan.phase("export")
    phases = [
        Phase(p.name, quick.weight, quick.per_kilochar, quick.reference_kilochars) if p.name == "sections" else p
        for p in plan.phases
    ]
    return PhasePlan(phases, ceiling_margin=plan.ceiling_margin)


def with_wait(plan: PhasePlan, phase: str, seconds: float) -> PhasePlan:
    """``plan`` with ``seconds`` more expected of ``phase``: a wait before its work that the calibration never
    saw (a reader process still starting), so the bar and the time left count it instead of reaching the
    phase's ceiling early. ``plan`` itself when there is no wait."""
    if seconds <= 0:
        return plan
    phases = [
        Phase(p.name, p.weight + seconds, p.per_kilochar, p.reference_kilochars) if p.name == phase else p
        for p in plan.phases
    ]
    return PhasePlan(phases, ceiling_margin=plan.ceiling_margin)

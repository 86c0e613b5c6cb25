"""The worker's changes to a shipped phase plan (:func:`core.app.timing.document_time.plan_for` loads them): a writer
that quotes instead of summarising, a wait before a phase."""

from __future__ import annotations

from core.progress import Phase, PhasePlan

__all__ = ["quoting_plan", "with_wait"]


def quoting_plan(plan: PhasePlan) -> PhasePlan:
    """``plan`` (a ``generate`` plan, measured with a model that writes summaries) for a writer that writes none
    (``daemon.guide_writer.writer.GuideWriter.summaries`` false): its ``sections`` phase quotes passages and asks the
    model nothing, so it takes the ``export`` phase's few milliseconds; the model's phases keep their measured share."""
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

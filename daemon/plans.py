"""The phase plans of each job kind, measured by ``bench/calibrate.py`` and shipped in ``resources/plans``."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from core.progress import PhasePlan

__all__ = ["PLANS_DIR", "plan_for"]

PLANS_DIR = Path(__file__).resolve().parents[1] / "resources" / "plans"

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


@cache
def plan_for(kind: str) -> PhasePlan:
    """The plan of job kind ``kind`` (``"ingest"`` or ``"generate"``)."""
    path = PLANS_DIR / f"{kind}.json"
    if path.is_file():
        return PhasePlan.load(path)
    return _FALLBACK[kind]

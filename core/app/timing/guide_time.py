"""How long a study guide of a given length would take with a model on this computer, before any job runs: the
worker's own :class:`core.app.timing.guide_estimate.GenerateEstimate` at :func:`core.app.timing.speeds.speeds_for`'s
speeds;
:class:`GuideTime` says which speeds (docs/design/timing.md).

Pure functions and a small file read; safe from any thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core.app.guides.progress import GuideBudgets
from core.app.timing.guide_estimate import GenerateEstimate
from core.app.timing.model_speed import default_threads
from core.app.timing.speeds import Basis, speeds_for

__all__ = ["DEFAULT_CONTEXT", "PAGE_CHARS", "Basis", "GuideTime", "guide_seconds"]

PAGE_CHARS = 2_000
"""Characters of text on a page of a typical textbook or article."""
DEFAULT_CONTEXT = 8192
"""The context a guide's estimate assumes when none is given (the bundled model's)."""


@dataclass(frozen=True)
class GuideTime:
    """A guide's expected seconds and the :class:`core.app.timing.speeds.Basis` of the speeds behind them."""

    seconds: float
    basis: str

    @property
    def measured_here(self) -> bool:
        """Whether the model's own speeds on this computer gave the figure."""
        return self.basis == Basis.MEASURED


def guide_seconds(
    model_bytes: int,
    *,
    model_file: str = "",
    pages: int = 50,
    data_dir: Path,
    threads: int | None = None,
    n_ctx: int | None = None,
    summaries: bool = True,
) -> GuideTime | None:
    """The seconds a guide of ``pages`` pages takes with the model file ``model_file`` of ``model_bytes`` bytes,
    not yet loaded, at ``n_ctx`` tokens of context (:data:`DEFAULT_CONTEXT` when ``None``) and ``threads`` threads
    (the worker's default when ``None``).
    ``summaries`` false: the model writes no sections (``CatalogModel.writes_summaries``), only the outline.
    ``None`` only when the estimate has no figure (it always has one for a local model)."""
    threads = threads or default_threads()
    speeds, basis = speeds_for(data_dir, model_file, model_bytes, threads)
    estimate = GenerateEstimate(
        speeds,
        GuideBudgets(context_window=n_ctx or DEFAULT_CONTEXT, summaries=summaries),
        model_bytes=model_bytes,
        loaded=False,
    )
    estimate.prepare(chars=pages * PAGE_CHARS, chapters=0)  # the longest case: the model plans the sections
    seconds = estimate.expected_seconds()
    return None if seconds is None else GuideTime(seconds, basis)

"""The estimate of a guide whose sections quote their passages (a model that writes no summaries)."""

from __future__ import annotations

import itertools
import time

import pytest

from core.app.guides.progress import GuideBudgets, GuideProgress
from core.app.timing.guide_estimate import GenerateEstimate
from core.app.timing.speeds import calibration

CHARS = 576_051  # R-exts.pdf's text: 24 sections from its chapters, 10.5 s of generate job on the 2-core machine


def _estimate(summaries: bool, chapters: int | None) -> GenerateEstimate:
    base = calibration()
    estimate = GenerateEstimate(
        base.speeds, GuideBudgets(8192, summaries=summaries), model_bytes=base.model_bytes, loaded=False
    )
    estimate.prepare(chars=CHARS, passages=CHARS // 650, chapters=chapters)
    return estimate


def test_a_book_with_chapters_quoted_takes_seconds_not_the_minutes_of_a_model_outline() -> None:
    chapters = _estimate(summaries=False, chapters=11).expected_seconds()
    outlined = _estimate(summaries=False, chapters=0).expected_seconds()
    assert chapters is not None and outlined is not None
    assert 3 < chapters < 30 < 10 * 60 < outlined  # measured: 10.5 s; a model outline of 250k tokens: minutes


def test_a_quoting_guide_has_no_figure_until_it_is_known_whether_the_model_must_plan_it() -> None:
    assert _estimate(summaries=False, chapters=None).expected_seconds() is None
    assert _estimate(summaries=True, chapters=None).expected_seconds() is not None  # the summaries' path is as it was


def test_quoted_sections_take_room_on_the_bar_and_their_share_rises_as_they_are_quoted() -> None:
    estimate = _estimate(summaries=False, chapters=4)
    speeds = estimate.speeds()
    assert speeds is not None and estimate.phase_seconds("sections", speeds) > 1.0
    estimate.outlined([10_000, 30_000, 10_000, 50_000])
    began = time.monotonic() - 2.0
    shares = []
    for step in range(1, 5):
        estimate.on_progress(GuideProgress("section", step, 4, 0, 0, f"Capítulo {step}", 0), began + 0.5 * step)
        shares.append(estimate.phase_done())
    assert shares[0] > 0.0 and all(a < b < 1.0 for a, b in itertools.pairwise(shares)), shares  # terms first
    first, second = shares[1] - shares[0], shares[2] - shares[1]
    assert second > 3 * first  # a section three times longer is more than three times the work


def test_the_time_left_quoting_follows_the_jobs_own_pace() -> None:
    estimate = _estimate(summaries=False, chapters=2)
    estimate.outlined([CHARS // 2, CHARS // 2])
    now = time.monotonic()
    estimate.on_progress(GuideProgress("section", 1, 2, 0, 0, "Um", 0), now - 20.0)
    estimate.on_progress(GuideProgress("section", 2, 2, 0, 0, "Dois", 0), now)  # the terms and one half: 20 s
    left = estimate.remaining("sections", 20.0, 0.5)
    assert left is not None and 10.0 < left < 20.0  # the other half, at that pace


def _searching(share: float | None, elapsed: float) -> float:
    """Seconds left ``elapsed`` seconds into the sections of R-exts.pdf's 24 chapters, with the key-term search
    reported ``share`` done just now (``None``: no report yet)."""
    estimate = _estimate(summaries=False, chapters=24)
    estimate.outlined([CHARS // 24] * 24)
    if share is not None:
        estimate.on_progress(GuideProgress("terms", round(share * 24), 24, 0, 0), time.monotonic())
    left = estimate.remaining("sections", elapsed, 0.0)
    assert left is not None
    return left


def test_the_key_term_search_sets_the_pace_of_the_quoting_time_left_once_it_has_run_a_moment() -> None:
    unmeasured = _searching(None, 0.5)
    fast = _searching(0.5, 0.5)  # half of the terms in half a second: about three times the figure's speed
    slow = _searching(0.25, 3.0)  # a quarter in three seconds: a busy machine, about four times slower
    assert fast < 0.6 * unmeasured < unmeasured < slow, (fast, unmeasured, slow)
    # a tenth of a second measures nothing yet
    assert _searching(0.5, 0.1) == pytest.approx(_searching(None, 0.1), rel=1e-3)

"""The window's "a guide of 50 pages" figure: the worker's own estimate, and where its speeds come from.

Real files: the shipped calibration and a ``speeds.json`` in a temporary data folder, written by the worker's own
:class:`core.app.timing.speeds.SpeedBook`. (The figure against a real worker's estimate for a real GGUF:
``tests/daemon/llm/test_estimate.py``; on the Model page's cards: ``tests/gui/models/test_page.py``.)
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from core.app.guides.progress import GuideBudgets
from core.app.timing.guide_estimate import GenerateEstimate
from core.app.timing.guide_time import PAGE_CHARS, guide_seconds
from core.app.timing.model_speed import decode_size_factor, prompt_size_factor
from core.app.timing.speeds import Basis, ModelKey, calibration, prior_speeds, speed_book, speeds_for

GB = 1_000_000_000
NAME = "Qwen_Qwen3-4B-Instruct-2507-Q4_K_M.gguf"
SIZE = 2_497_280_736


def test_a_fresh_install_times_a_model_from_the_calibrated_speeds_scaled_to_its_size(tmp_path: Path) -> None:
    small = guide_seconds(calibration().model_bytes, data_dir=tmp_path, threads=1)
    big = guide_seconds(SIZE, model_file=NAME, data_dir=tmp_path, threads=1)
    assert small is not None and big is not None
    assert small.basis == big.basis == Basis.CALIBRATED and not big.measured_here
    assert 10 < small.seconds < big.seconds < small.seconds * SIZE / calibration().model_bytes  # below linear
    longer = guide_seconds(SIZE, model_file=NAME, pages=100, data_dir=tmp_path, threads=1)
    assert longer is not None and longer.seconds > big.seconds


def test_the_figure_is_the_workers_estimate_of_a_cold_job_of_that_many_characters(tmp_path: Path) -> None:
    for summaries in (True, False):
        shown = guide_seconds(SIZE, model_file=NAME, data_dir=tmp_path, threads=1, n_ctx=4096, summaries=summaries)
        estimate = GenerateEstimate(
            prior_speeds(SIZE, 1), GuideBudgets(4096, summaries=summaries), model_bytes=SIZE, loaded=False
        )
        estimate.prepare(chars=50 * PAGE_CHARS, chapters=0)  # the figure assumes the model plans the sections
        assert shown is not None and shown.seconds == estimate.expected_seconds()
    writing = guide_seconds(SIZE, model_file=NAME, data_dir=tmp_path, threads=1)
    quoting = guide_seconds(SIZE, model_file=NAME, data_dir=tmp_path, threads=1, summaries=False)
    assert writing is not None and quoting is not None and quoting.seconds < writing.seconds


def test_the_bundled_models_speed_on_this_computer_is_scaled_until_the_model_has_run_here(tmp_path: Path) -> None:
    base = calibration()
    before = guide_seconds(SIZE, model_file=NAME, data_dir=tmp_path, threads=1)
    slower = base.speeds.faster(0.5)  # this computer runs the bundled model at half the calibrated speed
    speed_book(tmp_path).remember(ModelKey("SmolLM2-135M-Instruct.Q4_1.gguf", base.model_bytes, 1), slower)
    scaled = guide_seconds(SIZE, model_file=NAME, data_dir=tmp_path, threads=1)
    assert before is not None and scaled is not None
    assert scaled.basis == Basis.BUNDLED_HERE and not scaled.measured_here
    assert scaled.seconds > before.seconds * 1.5
    speeds, basis = speeds_for(tmp_path, NAME, SIZE, 1)
    assert basis == Basis.BUNDLED_HERE
    assert speeds.prompt_rate == pytest.approx(slower.prompt_rate * prompt_size_factor(SIZE, base.model_bytes))
    assert speeds.section_decode_rate == pytest.approx(
        slower.section_decode_rate * decode_size_factor(SIZE, base.model_bytes)
    )

    own = replace(slower.faster(3.0), section_tokens=200.0)  # the model has run here: its own figures
    speed_book(tmp_path).remember(ModelKey(NAME, SIZE, 1), own)
    measured = guide_seconds(SIZE, model_file=NAME, data_dir=tmp_path, threads=1)
    assert measured is not None and measured.basis == Basis.MEASURED and measured.measured_here
    assert speeds_for(tmp_path, NAME, SIZE, 1) == (speed_book(tmp_path).recall(ModelKey(NAME, SIZE, 1)), Basis.MEASURED)
    assert measured.seconds < scaled.seconds / 2
    other_file = guide_seconds(SIZE, model_file="another.gguf", data_dir=tmp_path, threads=1)
    assert other_file is not None and other_file.basis == Basis.BUNDLED_HERE  # a file's speeds are its own


def test_speeds_remembered_at_other_threads_are_scaled_to_these(tmp_path: Path) -> None:
    own = calibration().speeds
    speed_book(tmp_path).remember(ModelKey(NAME, SIZE, 1), own)
    speeds, basis = speeds_for(tmp_path, NAME, SIZE, 3, cores=4)
    assert basis == Basis.MEASURED
    assert speeds.prompt_rate == pytest.approx(own.prompt_rate * 3**0.8)

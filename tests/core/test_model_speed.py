"""A model's speed from its file size and thread count, relative to a measured model: one rule for the worker's
estimate and the welcome panel's figure, fitted to llama.cpp's speeds on models of 85 MB to 1.9 GB."""

from __future__ import annotations

import math

import pytest

from core.app.guide_time import PAGE_CHARS, GuideSpeeds, guide_seconds
from core.app.model_speed import (
    DECODE_FIXED_BYTES,
    PROMPT_FIXED_BYTES,
    decode_size_factor,
    prompt_size_factor,
    size_factor,
    thread_factor,
)

CALIBRATED_BYTES = 98_362_432
MEASURED = {
    # bench/model_sizes.py's random-weight Q4_1 models (file bytes): their prompt and decode speed over the 85 MB
    # model's, 1 thread, 1,000 prompt tokens after 3,000 (docs/performance.md, "Calibration")
    227_239_680: (0.464, 0.469),  # SmolLM2 360M's shape
    311_689_728: (0.521, 0.490),  # Qwen2.5 0.5B's
    967_871_584: (0.204, 0.175),  # Qwen2.5 1.5B's
    1_931_953_472: (0.097, 0.085),  # Qwen2.5 3B's
}
SMALLEST = 85_080_256


@pytest.mark.parametrize("factor", [prompt_size_factor, decode_size_factor])
def test_a_model_of_the_measured_size_runs_at_the_measured_speed_and_bigger_ones_run_slower(factor) -> None:
    assert factor(CALIBRATED_BYTES, CALIBRATED_BYTES) == 1.0
    sizes = [10**6, 10**7, CALIBRATED_BYTES, 5 * 10**8, 2 * 10**9, 8 * 10**9]
    speeds = [factor(size, CALIBRATED_BYTES) for size in sizes]
    assert speeds == sorted(speeds, reverse=True) and len(set(speeds)) == len(speeds)


def test_the_fixed_part_makes_a_big_model_lose_less_than_its_size_ratio() -> None:
    assert PROMPT_FIXED_BYTES >= 0 and DECODE_FIXED_BYTES >= 0
    assert size_factor(2 * 10**9, 10**8, 0) == pytest.approx(0.05)  # no fixed part: the sizes' ratio
    assert size_factor(2 * 10**9, 10**8, 10**8) == pytest.approx(2 / 21)
    assert size_factor(10**8, 2 * 10**9, 10**8) == pytest.approx(21 / 2)  # and a small one gains less


@pytest.mark.parametrize(("size", "prompt", "decode"), [(s, p, d) for s, (p, d) in MEASURED.items()])
def test_the_rule_gives_the_measured_ratios_at_the_measured_sizes(size: int, prompt: float, decode: float) -> None:
    # within 15 % for the Qwen2.5 shapes; SmolLM2 360M's (small vocabulary, more layers) is 15-27 % slower than its
    # bytes say
    tolerance = 0.3 if size < 300_000_000 else 0.15
    assert prompt_size_factor(size, SMALLEST) == pytest.approx(prompt, rel=tolerance)
    assert decode_size_factor(size, SMALLEST) == pytest.approx(decode, rel=tolerance)


def test_a_2_gb_download_runs_about_twice_as_fast_as_the_sizes_ratio_says() -> None:
    linear = CALIBRATED_BYTES / 2_100_000_000
    assert prompt_size_factor(2_100_000_000, CALIBRATED_BYTES) == pytest.approx(2.08 * linear, rel=0.01)
    assert decode_size_factor(2_100_000_000, CALIBRATED_BYTES) == pytest.approx(1.76 * linear, rel=0.01)


def test_threads_help_up_to_all_cores_but_one() -> None:
    assert thread_factor(2, 1, cores=4) == pytest.approx(2**0.8)
    assert thread_factor(8, 1, cores=4) == thread_factor(3, 1, cores=4)
    assert thread_factor(2, 1, cores=2) == 1.0  # the other core runs the desktop
    assert thread_factor(1, 2, cores=4) == pytest.approx(2**-0.8)


def _guide_speeds(prompt_rate: float, decode_rate: float) -> GuideSpeeds:
    figures = {
        "prompt_rate": prompt_rate, "outline_decode_rate": decode_rate, "section_decode_rate": decode_rate,
        "outline_tokens": 50.0, "section_tokens": 600.0, "sections_per_chunk": 1.5, "chars_per_token": 2.3,
        "load_bytes_per_second": 1e15,
    }  # fmt: skip
    return GuideSpeeds(figures, CALIBRATED_BYTES, 1, measured_here=False)


@pytest.mark.parametrize(("phase", "rates"), [("prompt", (50.0, 1e12)), ("decode", (1e12, 20.0))])
def test_the_guide_time_scales_each_phase_by_its_own_factor(phase: str, rates: tuple[float, float]) -> None:
    speeds = _guide_speeds(*rates)
    small = guide_seconds(CALIBRATED_BYTES, threads=1, speeds=speeds)
    big = guide_seconds(2 * 10**9, threads=1, speeds=speeds)
    assert small is not None and big is not None
    factor = (prompt_size_factor if phase == "prompt" else decode_size_factor)(2 * 10**9, CALIBRATED_BYTES)
    assert big[0] == pytest.approx(small[0] / factor, rel=1e-6)


def test_a_model_that_writes_no_summaries_is_timed_for_its_outline_alone() -> None:
    speeds = _guide_speeds(50.0, 20.0)
    writing = guide_seconds(CALIBRATED_BYTES, threads=1, speeds=speeds)
    quoting = guide_seconds(CALIBRATED_BYTES, threads=1, speeds=speeds, summaries=False)
    assert writing is not None and quoting is not None
    tokens = 50 * PAGE_CHARS / 2.3
    chunks = math.ceil(tokens / (8192 - 1024))
    sections = round(chunks * 1.5)
    assert writing[0] - quoting[0] == pytest.approx(tokens / 50.0 + sections * 600.0 / 20.0, rel=1e-6)

"""A model's speed from its file size and thread count, relative to a measured model: one rule for the worker's
estimate and the welcome panel's figure (both through ``core.app.timing.speeds.speeds_for``,
tests/core/app/timing/test_guide_time.py), fitted to llama.cpp's speeds on models of 85 MB to 1.9 GB."""

from __future__ import annotations

import pytest

from core.app.timing.model_speed import (
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

"""How a local model's speed on this computer follows from its file size and thread count.

The worker's estimates (``core.app.speeds.prior_speeds``) and the figure on the welcome panel and the Model page
(:func:`core.app.guide_time.guide_seconds`) both take a model's speeds from another model's, measured: the
bundled model's calibrated speeds (``resources/plans/generate-speeds.json``) or the speeds remembered on this
computer. These functions give the factor between the two.

Size. Per token, llama.cpp spends a part that grows less than the weights (attention over the tokens already in
the context, the graph's per-step work, the library's own calls) and a part proportional to the weights it
streams, about proportional to the file's bytes. So the seconds per token of a model of ``s`` bytes are
``k · (FIXED + s)``, where ``FIXED`` is the size in bytes whose streaming takes as long as the first part, one
figure per phase: reading a prompt (:data:`PROMPT_FIXED_BYTES`) and writing tokens (:data:`DECODE_FIXED_BYTES`).
Both are least-squares fits of ``bench/model_sizes.py`` (llama.cpp with random-weight Q4_1 models of 85 MB to
1.9 GB, 1,000 prompt tokens read after 3,000 as a guide's long prompts are; docs/performance.md, "Calibration").
A model's speed relative to a measured one of ``b`` bytes is then ``(FIXED + b) / (FIXED + s)``: exactly 1 at the
measured size, falling with size, more slowly than the sizes' ratio.

Threads. Threads beyond the cores but one do not count (the last core runs the event loop, the database and the
rest of the desktop, and llama.cpp's threads wait for the slowest of them); each added thread helps a little
less (exponent :data:`THREAD_EXPONENT`).

Pure functions; safe from any thread.
"""

from __future__ import annotations

import os

__all__ = [
    "DECODE_FIXED_BYTES",
    "PROMPT_FIXED_BYTES",
    "THREAD_EXPONENT",
    "decode_size_factor",
    "default_threads",
    "prompt_size_factor",
    "size_factor",
    "thread_factor",
]

PROMPT_FIXED_BYTES = 118_000_000
"""Bytes whose streaming costs as long as the fixed part of a prompt token's time (bench/model_sizes.py fit)."""
DECODE_FIXED_BYTES = 82_000_000
"""Bytes whose streaming costs as long as the fixed part of a written token's time (bench/model_sizes.py fit)."""
THREAD_EXPONENT = 0.8
"""``n`` threads run ``n ** THREAD_EXPONENT`` times as fast as one (within the usable cores)."""


def size_factor(model_bytes: int, measured_bytes: int, fixed_bytes: float) -> float:
    """How much faster a model of ``model_bytes`` runs than one of ``measured_bytes`` (below 1 when larger), with
    ``fixed_bytes`` the phase's fixed part of a token's time expressed in bytes streamed."""
    fixed = max(fixed_bytes, 0.0)
    return (fixed + max(measured_bytes, 1)) / (fixed + max(model_bytes, 1))


def prompt_size_factor(model_bytes: int, measured_bytes: int) -> float:
    """:func:`size_factor` for reading prompt tokens."""
    return size_factor(model_bytes, measured_bytes, PROMPT_FIXED_BYTES)


def decode_size_factor(model_bytes: int, measured_bytes: int) -> float:
    """:func:`size_factor` for writing tokens."""
    return size_factor(model_bytes, measured_bytes, DECODE_FIXED_BYTES)


def default_threads() -> int:
    """The threads a local model runs with when the settings give none: cores − 1, at least 1 (leave one core to
    the event loop, the GUI and the database)."""
    return max(1, (os.cpu_count() or 1) - 1)


def thread_factor(threads: int, measured_threads: int, cores: int | None = None) -> float:
    """How much faster ``threads`` run than ``measured_threads`` on a computer with ``cores`` cores (this one's
    when ``None``)."""
    usable = max((cores or os.cpu_count() or 1) - 1, 1)
    used, base = min(max(threads, 1), usable), min(max(measured_threads, 1), usable)
    return float((used / base) ** THREAD_EXPONENT)

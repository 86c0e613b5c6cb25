"""How a local model's speed on this computer follows from its file size and thread count: the factor between a
measured model's speeds and another's (fits and calibration: docs/design/timing.md, "Scaling speeds to another
model").

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

"""How long a study guide of a given length would take with a model on this computer, before any job runs.

The figure the welcome panel and the Model page show ("a guide of 50 pages: about 40 minutes"). It uses the
worker's own speed figures, read as files (``core`` does not import the daemon):

1. the speeds measured on this computer: ``<data folder>/speeds.json``, written by the worker after each guide
   (``daemon.speeds.SpeedBook``; keys ``<file name>|<bytes>|<threads>``) — the entry with the most jobs;
2. else the calibrated speeds shipped with the app (``resources/plans/generate-speeds.json``).

Either is scaled to the model's file size and to the thread count by the worker's own rule
(:mod:`core.app.model_speed`: each token costs a fixed part plus a part proportional to the file's bytes, fitted
per phase, prompt and decode). The guide is timed as the worker plans it: the model loads, reads the text once for
the outline (one step per context-sized chunk) and once more across the sections, and writes one outline per chunk
and about two sections per chunk (no sections for a model that writes no summaries: they quote the document).

Pure functions and small file reads; safe from any thread.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.app.model_speed import decode_size_factor, prompt_size_factor, thread_factor

__all__ = ["CALIBRATED_SPEEDS_PATH", "PAGE_CHARS", "GuideSpeeds", "guide_seconds", "measured_speeds"]

CALIBRATED_SPEEDS_PATH = Path(__file__).resolve().parents[2] / "resources" / "plans" / "generate-speeds.json"
PAGE_CHARS = 2_000
"""Characters of text on a page of a typical textbook or article."""
_PROMPT_OVERHEAD = 1_024
"""Tokens of each step's context taken by instructions and the answer's room, not the document's text."""
_FIELDS = (
    "prompt_rate", "outline_decode_rate", "section_decode_rate", "outline_tokens", "section_tokens",
    "sections_per_chunk", "chars_per_token", "load_bytes_per_second",
)  # fmt: skip


@dataclass(frozen=True)
class GuideSpeeds:
    """A model's speeds (the fields of ``daemon.speeds.Speeds``), the file size and threads they were measured
    with, and whether they were measured on this computer."""

    figures: Mapping[str, float]
    model_bytes: int
    threads: int
    measured_here: bool


def _figures(data: Any) -> dict[str, float] | None:
    if not isinstance(data, dict):
        return None
    try:
        figures = {name: float(data[name]) for name in _FIELDS}
    except (KeyError, TypeError, ValueError):
        return None
    return figures if all(math.isfinite(v) and v > 0 for v in figures.values()) else None


def measured_speeds(data_dir: Path) -> GuideSpeeds | None:
    """The speeds the worker remembered on this computer (the model it ran most), ``None`` when none."""
    try:
        models = json.loads((Path(data_dir) / "speeds.json").read_text(encoding="utf-8")).get("models")
    except (OSError, ValueError, AttributeError):
        return None
    best: tuple[int, GuideSpeeds] | None = None
    for key, entry in (models or {}).items() if isinstance(models, dict) else ():
        parts = str(key).rsplit("|", 2)
        figures = _figures(entry)
        if len(parts) != 3 or figures is None or not parts[1].isdigit() or not parts[2].isdigit():
            continue
        jobs = int(entry.get("jobs", 0)) if isinstance(entry.get("jobs"), int) else 0
        speeds = GuideSpeeds(figures, int(parts[1]), int(parts[2]), measured_here=True)
        if best is None or jobs > best[0]:
            best = (jobs, speeds)
    return best[1] if best is not None else None


def _calibrated(path: Path = CALIBRATED_SPEEDS_PATH) -> GuideSpeeds | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        figures = _figures(data.get("speeds"))
        if figures is None:
            return None
        return GuideSpeeds(figures, int(data["model_bytes"]), int(data["n_threads"]), measured_here=False)
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def guide_seconds(
    model_bytes: int,
    *,
    pages: int = 50,
    data_dir: Path | None = None,
    threads: int | None = None,
    n_ctx: int = 8192,
    speeds: GuideSpeeds | None = None,
    summaries: bool = True,
) -> tuple[float, bool] | None:
    """Seconds a guide of ``pages`` pages takes with a model file of ``model_bytes``, and whether the speeds behind
    the figure were measured on this computer. ``None`` when no speeds are known at all (a broken install).
    ``summaries`` false: the model writes no sections (``CatalogModel.writes_summaries``), only the outline."""
    base = speeds or (measured_speeds(data_dir) if data_dir is not None else None) or _calibrated()
    if base is None:
        return None
    threads = threads or max((os.cpu_count() or 2) - 1, 1)
    threaded = thread_factor(threads, base.threads)
    scale = {
        "prompt_rate": prompt_size_factor(model_bytes, base.model_bytes) * threaded,
        "outline_decode_rate": decode_size_factor(model_bytes, base.model_bytes) * threaded,
        "section_decode_rate": decode_size_factor(model_bytes, base.model_bytes) * threaded,
    }
    f = {name: value * scale.get(name, 1.0) for name, value in base.figures.items()}
    tokens = pages * PAGE_CHARS / f["chars_per_token"]
    chunks = max(math.ceil(tokens / max(n_ctx - _PROMPT_OVERHEAD, 256)), 1)
    sections = max(round(chunks * f["sections_per_chunk"]), 1)
    reads = 2 if summaries else 1  # the outline reads the text once, the sections once more
    seconds = (
        model_bytes / f["load_bytes_per_second"]
        + reads * tokens / f["prompt_rate"]
        + chunks * f["outline_tokens"] / f["outline_decode_rate"]
        + (sections * f["section_tokens"] / f["section_decode_rate"] if summaries else 0.0)
    )
    return seconds, base.measured_here

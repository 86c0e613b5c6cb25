"""The time-left estimate of a job's guide on a runtime's model, and what a finished guide teaches the next ones.

:func:`generate_estimate` makes a :class:`daemon.estimate.GenerateEstimate` for the model the runtime would use
now (its remembered speeds, else the calibrated ones scaled for its file size and thread count); :func:`remember`
blends what a finished ``generate`` job measured into ``<data folder>/speeds.json`` (:class:`daemon.speeds.
SpeedBook`). Both run on the job's event loop.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from daemon.estimate import GenerateEstimate
from daemon.llm.errors import LLMError
from daemon.llm.guide import GuideWriter
from daemon.speeds import ModelKey, SpeedBook, prior_speeds

__all__ = ["generate_estimate", "remember"]

log = logging.getLogger(__name__)


async def generate_estimate(runtime: Any) -> tuple[GenerateEstimate, GuideWriter, ModelKey | None] | None:
    """A fresh estimate for a ``generate`` job on ``runtime``'s model, its writer and the model's key.

    ``None`` when the model cannot be made (its file is missing: the job itself will say so). Reads the remembered
    speeds (``<data folder>/speeds.json``, a small file) on the loop.
    """
    try:
        generator = await runtime.generator()
    except LLMError:
        return None
    writer = GuideWriter(generator, summaries=runtime.summaries)
    path = getattr(generator, "model_path", None)
    book = SpeedBook(Path(runtime.settings.data_dir) / "speeds.json")
    if isinstance(path, Path):
        threads = int(getattr(generator, "n_threads", 1) or 1)
        try:
            key: ModelKey | None = ModelKey.of(path, threads)
        except OSError:
            return None
        assert key is not None
        speeds = book.recall(key) or prior_speeds(key.size, threads)
        loaded = bool(getattr(generator, "loaded", False))
        return GenerateEstimate(speeds, writer, model_bytes=key.size, loaded=loaded), writer, key
    name = str(getattr(generator, "model_name", "") or "server")
    key = ModelKey(f"server:{name}", 0, 0)
    return GenerateEstimate(book.recall(key), writer, model_bytes=0, loaded=True), writer, key


def remember(runtime: Any, key: ModelKey | None, estimate: GenerateEstimate) -> None:
    """Blend what ``estimate``'s job measured into the remembered speeds of ``key`` (best effort)."""
    learned = estimate.learned()
    if key is None or learned is None:
        return
    SpeedBook(Path(runtime.settings.data_dir) / "speeds.json").remember(key, learned)
    log.debug("remembered the speeds of %s: %s", key, learned)

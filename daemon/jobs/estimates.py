"""The time-left estimate of a job's guide on a runtime's model, and what a finished guide teaches the next ones.

:func:`generate_estimate` builds the estimate for the model the runtime would use now; :func:`remember` blends a
finished job's speeds into ``speeds.json``. Both run on the job's event loop.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from core.app.documents.structure import DocumentStructure
from core.app.timing.guide_estimate import GenerateEstimate
from core.app.timing.speeds import ModelKey, speed_book, speeds_for
from daemon.guide_writer.outline import sections_from_chapters
from daemon.guide_writer.writer import GuideWriter, split_passages
from daemon.llm.errors import LLMError

__all__ = ["chapters_of", "generate_estimate", "prepare_text", "remember"]

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
    data_dir = Path(runtime.settings.data_dir)
    if isinstance(path, Path):
        threads = int(getattr(generator, "n_threads", 1) or 1)
        try:
            key: ModelKey | None = ModelKey.of(path, threads)
        except OSError:
            return None
        assert key is not None
        speeds, _basis = speeds_for(data_dir, key.name, key.size, threads)
        loaded = bool(getattr(generator, "loaded", False))
        return GenerateEstimate(speeds, writer, model_bytes=key.size, loaded=loaded), writer, key
    name = str(getattr(generator, "model_name", "") or "server")
    key = ModelKey(f"server:{name}", 0, 0)
    return GenerateEstimate(speed_book(data_dir).recall(key), writer, model_bytes=0, loaded=True), writer, key


def remember(runtime: Any, key: ModelKey | None, estimate: GenerateEstimate) -> None:
    """Blend what ``estimate``'s job measured into the remembered speeds of ``key`` (best effort)."""
    learned = estimate.learned()
    if key is None or learned is None:
        return
    speed_book(Path(runtime.settings.data_dir)).remember(key, learned)
    log.debug("remembered the speeds of %s: %s", key, learned)


def prepare_text(estimate: GenerateEstimate, text: str, structure: DocumentStructure | None = None) -> None:
    """Give ``estimate`` the document's text: its characters and its passages as the writer cuts them, and with
    its ``structure``, the sections its chapters give (then the model plans nothing)."""
    estimate.prepare(chars=len(text), passages=len(split_passages(text)), chapters=chapters_of(text, structure))


def chapters_of(text: str, structure: DocumentStructure | None) -> int:
    """The sections the chapters in ``structure`` give ``text`` (0 when the model is to outline it)."""
    return sections_from_chapters(text, structure) if structure is not None else 0

"""How a local model picks its next token: the sampling settings per model, and the second try's settings.

:data:`BUNDLED_SAMPLING` for the bundled model; :func:`retry_sampling` for the second try after a failed check.
Pure data, thread-safe. Tuning notes: docs/design/model-backends.md.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from core.app.models.catalog import CatalogModel
from core.app.settings.config import ModelSettings

__all__ = [
    "BUNDLED_SAMPLING",
    "DEFAULT_SAMPLING",
    "SamplingSettings",
    "catalog_sampling",
    "retry_sampling",
    "sampling_from",
]


@dataclass(frozen=True, slots=True)
class SamplingSettings:
    """llama.cpp's sampling parameters for one model.

    Attributes:
        temperature: 0 means greedy decoding (deterministic; the seed is then ignored).
        top_p: Nucleus sampling: the smallest set of tokens whose probabilities add up to this.
        top_k: Only the ``top_k`` likeliest tokens are considered (0: all).
        min_p: Tokens less likely than ``min_p`` × the likeliest one are dropped.
        repeat_penalty: Penalty for tokens seen in the last ``repeat_last_n`` tokens (1.0: off).
        repeat_last_n: How far back the repetition penalty looks, in tokens.
        seed: Sampling seed for temperature > 0: the same settings and prompt give the same text.
    """

    temperature: float = 0.0
    top_p: float = 0.95
    top_k: int = 40
    min_p: float = 0.05
    repeat_penalty: float = 1.1
    repeat_last_n: int = 64
    seed: int = 0


DEFAULT_SAMPLING = SamplingSettings()
"""For a model StudyJobs knows nothing about: greedy, with a light repetition penalty."""

BUNDLED_SAMPLING = SamplingSettings(
    temperature=0.2, top_p=0.9, top_k=40, min_p=0.05, repeat_penalty=1.3, repeat_last_n=128, seed=7
)
"""SmolLM2-135M-Instruct: a strong repetition penalty over a long window, and little randomness."""


def retry_sampling(first: SamplingSettings) -> SamplingSettings:
    """The settings of the second try after ``first`` gave a text that failed its check.

    More repetition penalty (up to 1.5), a longer penalty window, a little more temperature (up to 0.5) and
    another seed, so the second text is a different one even when the first was greedy.
    """
    return replace(
        first,
        temperature=min(max(first.temperature, 0.1) + 0.2, 0.5),
        repeat_penalty=min(first.repeat_penalty + 0.2, 1.5),
        repeat_last_n=max(first.repeat_last_n, 256),
        seed=first.seed + 1,
    )


def catalog_sampling(entry: CatalogModel) -> SamplingSettings:
    """The sampling settings the catalog gives for ``entry`` (the bundled demo keeps :data:`BUNDLED_SAMPLING`)."""
    if entry.bundled:
        return BUNDLED_SAMPLING
    values = entry.sampling
    return replace(
        DEFAULT_SAMPLING,
        temperature=float(values["temperature"]),
        top_p=float(values["top_p"]),
        top_k=int(values["top_k"]),
        min_p=float(values["min_p"]),
        repeat_penalty=float(values["repeat_penalty"]),
        repeat_last_n=int(values["repeat_last_n"]),
    )


def sampling_from(model: ModelSettings, base: SamplingSettings | None = None) -> SamplingSettings | None:
    """The sampling the user's settings ask for: ``base`` (the catalog's settings for a catalog model), else the
    model's own defaults, with the values the settings give replaced; ``None`` when neither ``base`` nor the
    settings give any (the model's defaults apply)."""
    given: dict[str, Any] = {
        key: getattr(model, key)
        for key in ("temperature", "top_p", "top_k", "repeat_penalty")
        if getattr(model, key) is not None
    }
    if not given:
        return base
    return replace(base or (BUNDLED_SAMPLING if model.kind == "bundled" else DEFAULT_SAMPLING), **given)

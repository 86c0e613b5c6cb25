"""Whether a model fits this computer's memory, and the context size it gets, decided before anything is loaded:
:func:`fit_model` answers with a :class:`Fit`; :func:`refusal` words a refusal (docs/design/models.md).

Pure functions over the file system; safe from any thread. Reading a header is file I/O (milliseconds): call it off
the event loop.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.app.messages.sentences import CodedError
from core.app.models.catalog import DEFAULT_N_UBATCH, Architecture, CatalogModel, load_catalog, ram_needed
from core.app.models.gguf_header import ArrayInfo, GGUFHeaderError, read_metadata
from core.app.models.memory import MemoryStatus, memory_status

__all__ = [
    "CONTEXT_STEP",
    "DAEMON_N_BATCH",
    "MAX_AUTO_CONTEXT",
    "MIN_CONTEXT",
    "Fit",
    "ModelFileError",
    "ModelShape",
    "choose_context",
    "fit_at",
    "fit_model",
    "read_gguf_shape",
    "refusal",
    "shape_of",
    "smaller_model",
]

MAX_AUTO_CONTEXT = 8192
"""The largest context chosen automatically: a guide's sections fit it, and on a CPU a longer prompt takes minutes.
The ``context`` setting goes up to the model's trained context."""
MIN_CONTEXT = 2048
"""The smallest context the guide writer works with (an outline or a section prompt and its answer)."""
CONTEXT_STEP = 512
FALLBACK_CONTEXT = 4096
"""For a model whose header gives no trained context."""
DAEMON_N_BATCH = DEFAULT_N_UBATCH
"""The micro-batch the daemon loads local models with (``n_batch = n_ubatch``); the compute buffer grows with it."""


class ModelFileError(CodedError):
    """The file is missing, unreadable or not a GGUF model (``code``: ``model_missing`` or ``model_unreadable``;
    ``detail``: the path and what was wrong with it, for the log)."""

    def __init__(self, code: str, path: Path, detail: str) -> None:
        super().__init__(code, detail=f"{path}: {detail}")
        self.path = path


@dataclass(frozen=True, slots=True)
class ModelShape:
    """What decides a model's memory: its weights' bytes, its layer shape and the context it was trained with."""

    name: str
    weights_bytes: int
    architecture: Architecture
    trained_context: int
    kind: str = ""
    """The GGUF ``general.architecture`` (``llama``, ``qwen2`` …); ``""`` for a catalog entry."""


@dataclass(frozen=True, slots=True)
class Fit:
    """The answer of :func:`fit_model`.

    Attributes:
        needed: Bytes of RAM the model needs loaded at ``n_ctx`` with the context full.
        available: Bytes of RAM available now (free and reclaimable, within this process's cgroup limit).
        total: Bytes of RAM of this computer (or the cgroup limit, when lower).
        n_ctx: The context size chosen (tokens).
        trained_context: The model's trained context (tokens).
        fits: ``needed <= available``: the model can be loaded now.
        fits_computer: ``needed <= total``: the model could be loaded here once other programs free memory.
        shape: What the decision was made from.
    """

    needed: int
    available: int
    total: int
    n_ctx: int
    trained_context: int
    fits: bool
    fits_computer: bool
    shape: ModelShape


def _count(value: Any) -> int | None:
    """An integer field, or a per-layer array of them (its largest value, a conservative bound)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, list):
        numbers = [item for item in value if isinstance(item, int) and not isinstance(item, bool)]
        return max(numbers) if numbers else None
    return None


def read_gguf_shape(path: Path | str) -> ModelShape:
    """The :class:`ModelShape` of a GGUF file, from its header (:func:`core.app.models.gguf_header.read_metadata`).

    Read once per process and version of the file (its path, size and modification time): walking the header of
    a model with a 49,000-token vocabulary takes 0.06–0.3 s, which a worker spends when it starts
    (``daemon.llm.models.warm_model_checks``) rather than in its first job's time.

    Raises:
        ModelFileError: No file at ``path``, or not a readable GGUF file.
    """
    path = Path(path)
    if not path.is_file():
        raise ModelFileError("model_missing", path, "no such file")
    try:
        stat = path.stat()
    except OSError as error:
        raise ModelFileError("model_unreadable", path, f"unreadable header ({error})") from error
    return _header_shape(str(path), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=16)
def _header_shape(name: str, size: int, modified_ns: int) -> ModelShape:
    """The shape of the file ``name`` while it has ``size`` bytes and was last modified at ``modified_ns``."""
    path = Path(name)
    try:
        fields = read_metadata(path)
    except (OSError, GGUFHeaderError) as error:
        raise ModelFileError("model_unreadable", path, f"unreadable header ({error})") from error
    kind = fields.get("general.architecture")
    if not isinstance(kind, str):
        raise ModelFileError("model_unreadable", path, "no general.architecture")
    model_name = fields.get("general.name")
    return ModelShape(
        name=model_name if isinstance(model_name, str) and model_name else path.stem,
        weights_bytes=size,
        architecture=_architecture(fields, kind),
        trained_context=_count(fields.get(f"{kind}.context_length")) or FALLBACK_CONTEXT,
        kind=kind,
    )


def _architecture(fields: dict[str, Any], kind: str) -> Architecture:
    attention = f"{kind}.attention"
    n_layers = _count(fields.get(f"{kind}.block_count")) or 0
    n_embd = _count(fields.get(f"{kind}.embedding_length")) or 0
    n_head = _count(fields.get(f"{attention}.head_count")) or 0
    n_head_kv = _count(fields.get(f"{attention}.head_count_kv"))
    n_head_kv = n_head if n_head_kv is None else n_head_kv
    plain_dim = n_embd // n_head if n_head else 0
    key_dim = _count(fields.get(f"{attention}.key_length")) or plain_dim
    value_dim = _count(fields.get(f"{attention}.value_length")) or plain_dim
    tokens = fields.get("tokenizer.ggml.tokens")
    n_vocab = _count(fields.get(f"{kind}.vocab_size"))
    if n_vocab is None:
        n_vocab = tokens.count if isinstance(tokens, ArrayInfo) else len(tokens) if isinstance(tokens, list) else 0
    return Architecture(
        n_layers=n_layers,
        n_head=n_head,
        n_head_kv=n_head_kv,
        head_dim=-(-(key_dim + value_dim) // 2),  # K and V rows: their mean gives the cache's exact size
        n_vocab=n_vocab,
    )


def shape_of(model: Path | str | CatalogModel | ModelShape) -> ModelShape:
    """The shape of a GGUF file (its header), a catalog entry (its published facts) or a shape itself."""
    if isinstance(model, ModelShape):
        return model
    if isinstance(model, CatalogModel):
        return ModelShape(
            name=model.name,
            weights_bytes=model.size_bytes or model.approx_bytes,
            architecture=model.architecture,
            trained_context=model.context_length,
        )
    return read_gguf_shape(Path(model))


def choose_context(
    shape: ModelShape, available: int, *, context: int = 0, n_batch: int = DAEMON_N_BATCH
) -> tuple[int, int]:
    """The context size for ``shape`` and the bytes it then needs (see the module's rules).

    ``context`` > 0 is the user's setting: kept (up to the trained context) even when it does not fit, so the
    refusal names what was asked for.
    """
    trained = max(shape.trained_context, 1)
    if context > 0:
        n_ctx = min(context, trained)
        return n_ctx, ram_needed(shape.weights_bytes, shape.architecture, n_ctx, n_batch)
    floor = min(MIN_CONTEXT, trained)
    n_ctx = min(trained, MAX_AUTO_CONTEXT)
    while True:
        needed = ram_needed(shape.weights_bytes, shape.architecture, n_ctx, n_batch)
        if needed <= available or n_ctx <= floor:
            return n_ctx, needed
        n_ctx = max(floor, (n_ctx - 1) // CONTEXT_STEP * CONTEXT_STEP)


def fit_model(
    model: Path | str | CatalogModel | ModelShape,
    *,
    context: int = 0,
    memory: MemoryStatus | None = None,
    n_batch: int = DAEMON_N_BATCH,
) -> Fit:
    """Whether ``model`` fits the memory now, at which context, needing how many bytes.

    Args:
        model: A GGUF file, a catalog entry or a :class:`ModelShape`.
        context: The ``model.context`` setting: ``0`` chooses automatically.
        memory: The memory to fit in; default: this computer's now (:func:`core.app.models.memory.memory_status`).
        n_batch: The micro-batch the model will be loaded with.

    Raises:
        ModelFileError: ``model`` is a path to a missing or unreadable file.
    """
    shape = shape_of(model)
    status = memory or memory_status()
    n_ctx, _needed = choose_context(shape, status.available, context=context, n_batch=n_batch)
    return fit_at(shape, n_ctx, memory=status, n_batch=n_batch)


def fit_at(
    model: Path | str | CatalogModel | ModelShape,
    n_ctx: int,
    *,
    memory: MemoryStatus | None = None,
    n_batch: int = DAEMON_N_BATCH,
) -> Fit:
    """Whether ``model`` fits the memory now at exactly ``n_ctx`` tokens (a context already decided).

    Raises:
        ModelFileError: ``model`` is a path to a missing or unreadable file.
    """
    shape = shape_of(model)
    status = memory or memory_status()
    needed = ram_needed(shape.weights_bytes, shape.architecture, n_ctx, n_batch)
    return Fit(
        needed=needed,
        available=status.available,
        total=status.total,
        n_ctx=n_ctx,
        trained_context=shape.trained_context,
        fits=needed <= status.available,
        fits_computer=needed <= status.total,
        shape=shape,
    )


def smaller_model(
    available: int, catalog: list[CatalogModel] | None = None, *, below: int | None = None
) -> CatalogModel | None:
    """The largest catalog download that fits ``available`` bytes at :data:`MIN_CONTEXT` (and weighs less than
    ``below`` bytes, when given); ``None`` when none does."""
    models = catalog if catalog is not None else load_catalog()
    fitting = [
        model
        for model in models
        if not model.demo
        and model.ram_needed(MIN_CONTEXT, DAEMON_N_BATCH) <= available
        and (below is None or (model.size_bytes or model.approx_bytes) < below)
    ]
    return max(fitting, key=lambda model: model.size_bytes or model.approx_bytes, default=None)


def refusal(fit: Fit, catalog: list[CatalogModel] | None = None, *, now: bool = True) -> tuple[str, dict[str, Any]]:
    """The message code and values that refuse a model that does not fit (:mod:`core.app.messages.catalog`).

    With ``now`` (loading): ``model_too_big`` names the needed and available megabytes, the context and a smaller
    catalog model that fits; ``model_too_big_no_smaller`` when no catalog download fits either. Without (a
    download): ``model_too_big_computer`` compares with the computer's whole memory.
    """
    room = fit.available if now else fit.total
    values: dict[str, Any] = {
        "model": fit.shape.name,
        "needed_mb": -(-fit.needed // 1_000_000),
        "available_mb": fit.available // 1_000_000,
        "total_mb": fit.total // 1_000_000,
        "context": fit.n_ctx,
    }
    suggestion = smaller_model(room, catalog, below=fit.shape.weights_bytes)
    values["suggestion"] = suggestion.name if suggestion is not None else ""
    if not now:
        return "model_too_big_computer", values
    return ("model_too_big" if suggestion is not None else "model_too_big_no_smaller"), values

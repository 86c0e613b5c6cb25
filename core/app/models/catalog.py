"""The model catalog (``resources/models.json``): :func:`load_catalog` reads and checks it into :class:`CatalogModel`
entries (a malformed file raises :class:`CatalogError`); :func:`ram_needed` is the RAM estimate every screen shows.

The formula and its calibration against llama.cpp: docs/design/models.md, "Memory a model needs".
Pure data and functions; safe from any thread.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "CATALOG_PATH",
    "DEFAULT_N_UBATCH",
    "Architecture",
    "CatalogError",
    "CatalogModel",
    "RunSettings",
    "load_catalog",
    "ram_needed",
]

CATALOG_PATH = Path(__file__).resolve().parents[3] / "resources" / "models.json"
DEFAULT_N_UBATCH = 256
"""llama.cpp's micro-batch, as the daemon loads local models (``n_batch = n_ubatch = 256``)."""

BASE_BYTES = 8 << 20
VOCAB_ENTRY_BYTES = 270
_SAMPLING_KEYS = frozenset({"temperature", "top_p", "top_k", "min_p", "repeat_penalty", "repeat_last_n"})
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_COMMIT = re.compile(r"^[0-9a-f]{40}$")


class CatalogError(ValueError):
    """The catalog file is missing a field or has a wrong value (the message names the entry and the field)."""


@dataclass(frozen=True, slots=True)
class Architecture:
    """The shape that decides the memory a model needs (from its ``config.json`` / GGUF metadata)."""

    n_layers: int
    n_head: int
    n_head_kv: int
    head_dim: int
    n_vocab: int


@dataclass(frozen=True, slots=True)
class RunSettings:
    """How a model must run in llama.cpp, from its catalog entry's ``run``.

    Attributes:
        chat_template_kwargs: Extra variables for the model's chat template (``enable_thinking: false`` turns off
            the reasoning of a model that thinks by default).
        max_context: The most context tokens it is loaded with (llama.cpp misbehaves above, or RAM is wasted).
        max_output_tokens: A bound on each answer for a model known to repeat itself (``None``: the job's own).
        min_llama_cpp_python: The oldest llama-cpp-python that runs it (``None``: any the app ships).
        gguf_architecture: The GGUF file's ``general.architecture``.
    """

    chat_template_kwargs: dict[str, Any]
    max_context: int
    max_output_tokens: int | None
    min_llama_cpp_python: str | None
    gguf_architecture: str


@dataclass(frozen=True, slots=True)
class CatalogModel:
    """One catalog entry. ``size_bytes``/``sha256`` are ``None`` when unknown (the hub's LFS metadata decides)."""

    id: str
    name: str
    repo: str
    filename: str
    revision: str
    size_bytes: int | None
    approx_bytes: int
    sha256: str | None
    licence: str
    licence_url: str
    languages: tuple[str, ...]
    context_length: int
    architecture: Architecture
    sampling: dict[str, float | int]
    good_for: str
    run: RunSettings
    commercial_use: bool
    """Whether the licence allows commercial use (the welcome panel recommends no model without it)."""
    checked: str = "seen"
    """Where ``size_bytes``/``sha256`` come from: ``seen`` (the hub's page or the file: a download must match them)
    or ``reported`` (other projects' catalogs: a download is checked against the hub's metadata of the pinned
    commit, and its log says whether the reported values agreed)."""
    bundled: bool = False
    demo: bool = False
    writes_summaries: bool = True
    """Whether the model's summaries are worth a guide: ``False`` for a model too small to summarise without
    inventing (the bundled demo), whose guides then quote the document's key passages instead
    (``daemon.guide_writer.writer``)."""

    def ram_needed(self, n_ctx: int, n_ubatch: int = DEFAULT_N_UBATCH) -> int:
        """Bytes of RAM this model needs at ``n_ctx`` tokens of context (:func:`ram_needed`)."""
        return ram_needed(self.size_bytes or self.approx_bytes, self.architecture, n_ctx, n_ubatch)


def kv_cache_bytes(arch: Architecture, n_ctx: int, bytes_per_value: int = 2) -> int:
    """The K and V caches of every layer at ``n_ctx`` tokens (f16 by default)."""
    return 2 * arch.n_layers * n_ctx * arch.n_head_kv * arch.head_dim * bytes_per_value


def ram_needed(weights_bytes: int, arch: Architecture, n_ctx: int, n_ubatch: int = DEFAULT_N_UBATCH) -> int:
    """The RAM a model needs loaded in llama.cpp at ``n_ctx`` tokens, context full (see the module's formula)."""
    batch = min(n_ubatch, n_ctx)
    compute = 4 * batch * n_ctx * (arch.n_head + 1) + 24 * batch * arch.n_head * arch.head_dim
    work = 2 * batch * n_ctx * arch.n_head
    vocabulary = VOCAB_ENTRY_BYTES * arch.n_vocab
    return int(weights_bytes + kv_cache_bytes(arch, n_ctx) + compute + work + vocabulary + BASE_BYTES)


def load_catalog(path: Path = CATALOG_PATH) -> list[CatalogModel]:
    """The catalog's entries, in file order. Raises :class:`CatalogError` for a malformed file."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise CatalogError(f"{path}: {error}") from error
    entries = raw.get("models") if isinstance(raw, dict) else None
    if not isinstance(entries, list) or not entries:
        raise CatalogError(f"{path}: no 'models' list")
    models = [_entry(item, index) for index, item in enumerate(entries)]
    ids = [model.id for model in models]
    if len(set(ids)) != len(ids):
        raise CatalogError(f"{path}: two entries share an id")
    return models


def _field(item: dict[str, Any], name: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = item.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise CatalogError(f"{where}: '{name}' is missing or not {kind}")
    return value


def _entry(item: Any, index: int) -> CatalogModel:
    where = f"models[{index}]"
    if not isinstance(item, dict):
        raise CatalogError(f"{where}: not an object")
    where = f"models[{index}] ({item.get('id')})"
    arch = _field(item, "architecture", dict, where)
    sampling = _field(item, "sampling", dict, where)
    if set(sampling) != _SAMPLING_KEYS:
        raise CatalogError(f"{where}: 'sampling' must give exactly {sorted(_SAMPLING_KEYS)}")
    sha256 = item.get("sha256")
    if sha256 is not None and not (isinstance(sha256, str) and _SHA256.match(sha256)):
        raise CatalogError(f"{where}: 'sha256' must be 64 lowercase hex digits or null")
    size = item.get("size_bytes")
    if size is not None and (not isinstance(size, int) or size <= 0):
        raise CatalogError(f"{where}: 'size_bytes' must be a positive integer or null")
    checked = item.get("checked", "seen")
    if checked not in ("seen", "reported"):
        raise CatalogError(f"{where}: 'checked' must be 'seen' or 'reported'")
    revision = _field(item, "revision", str, where)
    if not item.get("bundled") and not _COMMIT.match(revision):
        raise CatalogError(f"{where}: 'revision' must pin a commit (40 hex digits)")
    return CatalogModel(
        id=_field(item, "id", str, where),
        name=_field(item, "name", str, where),
        repo=_field(item, "repo", str, where),
        filename=_field(item, "filename", str, where),
        revision=revision,
        size_bytes=size,
        approx_bytes=_field(item, "approx_bytes", int, where),
        sha256=sha256,
        licence=_field(item, "licence", str, where),
        licence_url=_field(item, "licence_url", str, where),
        languages=tuple(_field(item, "languages", list, where)),
        context_length=_field(item, "context_length", int, where),
        architecture=Architecture(**{key: _field(arch, key, int, where) for key in Architecture.__slots__}),
        sampling=dict(sampling),
        good_for=_field(item, "good_for", str, where),
        run=_run(_field(item, "run", dict, where), where),
        commercial_use=_field(item, "commercial_use", bool, where),
        checked=checked,
        bundled=bool(item.get("bundled", False)),
        demo=bool(item.get("demo", False)),
        writes_summaries=_field(item, "writes_summaries", bool, where) if "writes_summaries" in item else True,
    )


def _run(run: dict[str, Any], where: str) -> RunSettings:
    where = f"{where} run"
    kwargs = _field(run, "chat_template_kwargs", dict, where)
    limit = run.get("max_output_tokens")
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit <= 0):
        raise CatalogError(f"{where}: 'max_output_tokens' must be a positive integer or null")
    version = run.get("min_llama_cpp_python")
    if version is not None and not (isinstance(version, str) and re.fullmatch(r"\d+(\.\d+)*", version)):
        raise CatalogError(f"{where}: 'min_llama_cpp_python' must be a version like 0.3.17 or null")
    return RunSettings(
        chat_template_kwargs=dict(kwargs),
        max_context=_field(run, "max_context", int, where),
        max_output_tokens=limit,
        min_llama_cpp_python=version,
        gguf_architecture=_field(run, "gguf_architecture", str, where),
    )

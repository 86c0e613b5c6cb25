"""How fast a model writes on this machine: :class:`Speeds`, the remembered figures in ``<data folder>/speeds.json``
(:class:`SpeedBook`, its only reader and writer) and :func:`speeds_for`, which picks the best prior and says which.

Call :class:`SpeedBook` from one thread at a time (the job's loop); writes replace the file atomically, so two
workers sharing a data folder may lose one job's update, never the file (design: docs/design/timing.md).
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import MISSING, Field, asdict, dataclass, fields, replace
from functools import cache
from pathlib import Path
from typing import Any

from core.app.storage.files import write_atomically
from core.app.timing.model_speed import decode_size_factor, prompt_size_factor, thread_factor

__all__ = [
    "CALIBRATED_SPEEDS_PATH",
    "SPEEDS_FILE",
    "Basis",
    "Calibration",
    "ModelKey",
    "SpeedBook",
    "Speeds",
    "calibration",
    "prior_speeds",
    "speed_book",
    "speeds_for",
]

log = logging.getLogger(__name__)

CALIBRATED_SPEEDS_PATH = Path(__file__).resolve().parents[3] / "resources" / "plans" / "generate-speeds.json"

SPEEDS_FILE = "speeds.json"
"""The remembered speeds' file name in the data folder."""

REMEMBER_WEIGHT = 0.5
"""How much a new job's measurement moves a remembered figure (the rest stays)."""


@dataclass(frozen=True)
class Speeds:
    """One model's speeds and habits on one machine.

    Attributes:
        prompt_rate: Prompt tokens read per second (includes each step's fixed costs).
        outline_decode_rate: Tokens written per second under the outline's JSON grammar.
        section_decode_rate: Tokens written per second for a section (no grammar).
        outline_tokens: Tokens one outline step writes, on average.
        section_tokens: Tokens written for one section, on average, every try counted: a text that fails the
            section check is written a second time (:mod:`daemon.guide_writer.guard`), so this may exceed the budget.
        sections_per_chunk: Sections the outline makes per chunk of text (one outline step each).
        chars_per_token: Characters of text per prompt token.
        load_bytes_per_second: How fast the model file is read into memory on a cold load.
        section_attempts: Tries per section, on average (1 to 2: the second try of a rejected text). Files written
            without it read as 1.
        finish_seconds: From the model's last token to the job's end: the last section's check, the guide's
            file and rows. Files written without it read as 0.3.
        retry_tokens: Tokens a section's second try writes, on average (it samples with more repetition penalty
            and mostly stops sooner than the first). Files written without it read as 150.
    """

    prompt_rate: float
    outline_decode_rate: float
    section_decode_rate: float
    outline_tokens: float
    section_tokens: float
    sections_per_chunk: float
    chars_per_token: float
    load_bytes_per_second: float
    section_attempts: float = 1.0
    finish_seconds: float = 0.3
    retry_tokens: float = 150.0

    def __post_init__(self) -> None:
        for item in fields(self):
            value = getattr(self, item.name)
            if not isinstance(value, int | float) or not math.isfinite(value) or value <= 0:
                raise ValueError(f"{item.name} must be a positive number, not {value!r}")

    def faster(self, factor: float, decode: float | None = None) -> Speeds:
        """These speeds with the prompt rate multiplied by ``factor`` and the two decode rates by ``decode``
        (``factor`` too when ``None``); the disk's rate and the habits are kept."""
        decode = factor if decode is None else decode
        return replace(
            self,
            prompt_rate=self.prompt_rate * factor,
            outline_decode_rate=self.outline_decode_rate * decode,
            section_decode_rate=self.section_decode_rate * decode,
        )

    def blended(self, newer: Speeds, weight: float = REMEMBER_WEIGHT) -> Speeds:
        """Each figure moved ``weight`` of the way towards ``newer``'s (geometrically: rates are ratios)."""
        values = {
            item.name: math.exp(
                (1 - weight) * math.log(getattr(self, item.name)) + weight * math.log(getattr(newer, item.name))
            )
            for item in fields(self)
        }
        return Speeds(**values)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Speeds:
        """Read the fields named in ``data`` (others ignored; a field with a default may be missing). Raises
        ``ValueError``/``TypeError``/``KeyError`` when invalid."""
        return cls(
            **{item.name: float(data[item.name]) for item in fields(cls) if item.name in data or not _has_default(item)}
        )


def _has_default(item: Field[Any]) -> bool:
    return item.default is not MISSING


@dataclass(frozen=True)
class ModelKey:
    """Which figures a job may reuse: the same model file (by name and size) at the same thread count."""

    name: str
    size: int
    threads: int

    def __str__(self) -> str:
        return f"{self.name}|{self.size}|{self.threads}"

    @classmethod
    def of(cls, path: Path, threads: int) -> ModelKey:
        """The key of the GGUF file at ``path`` (raises ``OSError`` when it cannot be read)."""
        return cls(path.name, path.stat().st_size, threads)


@dataclass(frozen=True)
class Calibration:
    """The bundled model's measured speeds, and the model size and thread count they belong to."""

    speeds: Speeds
    model_bytes: int
    threads: int


_BUILT_IN = Calibration(
    Speeds(
        prompt_rate=240.0,
        outline_decode_rate=70.0,
        section_decode_rate=100.0,
        outline_tokens=60.0,
        section_tokens=390.0,
        sections_per_chunk=2.0,
        chars_per_token=2.3,
        load_bytes_per_second=4e8,
    ),
    model_bytes=98_362_432,
    threads=1,
)
"""Used only when the calibrated file is missing (a broken install)."""


@cache
def calibration(path: Path = CALIBRATED_SPEEDS_PATH) -> Calibration:
    """The calibrated speeds shipped with the app (the built-in figures when the file is missing or broken).

    Read once per process."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Calibration(Speeds.from_dict(data["speeds"]), int(data["model_bytes"]), int(data["n_threads"]))
    except (OSError, ValueError, TypeError, KeyError):
        log.warning("no usable calibrated speeds in %s; using the built-in figures", path)
        return _BUILT_IN


def prior_speeds(model_bytes: int, threads: int, base: Calibration | None = None, cores: int | None = None) -> Speeds:
    """The calibrated speeds scaled for a model of ``model_bytes`` run with ``threads``.

    The prompt and decode rates follow :mod:`core.app.timing.model_speed` (a fixed part per token plus a part
    proportional to the file's bytes, fitted per phase; threads within the usable cores). Habits (tokens per step,
    sections per chunk, characters per token) are kept.
    """
    base = base or calibration()
    threaded = thread_factor(threads, base.threads, cores)
    return base.speeds.faster(
        prompt_size_factor(model_bytes, base.model_bytes) * threaded,
        decode_size_factor(model_bytes, base.model_bytes) * threaded,
    )


class SpeedBook:
    """The speeds remembered in ``<data folder>/speeds.json``, per :class:`ModelKey`.

    Args:
        path: The JSON file (made on the first :meth:`remember`).
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def _models(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError):
            log.warning("ignoring the unreadable speeds file %s", self.path)
            return {}
        models = data.get("models") if isinstance(data, dict) else None
        return models if isinstance(models, dict) else {}

    def remembered(self, name: str | None, size: int, threads: int) -> Calibration | None:
        """The figures remembered for a model file of ``size`` bytes (named ``name``; any name when ``None``):
        those at ``threads`` when remembered, else those of the thread count with the most jobs."""
        found: list[tuple[bool, int, Calibration]] = []
        for key, entry in self._models().items():
            parts = str(key).rsplit("|", 2)
            if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit() or not isinstance(entry, dict):
                continue
            if int(parts[1]) != size or (name is not None and parts[0] != name):
                continue
            try:
                speeds = Speeds.from_dict(entry)
            except (ValueError, TypeError, KeyError):
                continue
            jobs = entry.get("jobs", 0)
            jobs = jobs if isinstance(jobs, int) else 0
            found.append((int(parts[2]) == threads, jobs, Calibration(speeds, size, int(parts[2]))))
        return max(found, key=lambda item: item[:2])[2] if found else None

    def recall(self, key: ModelKey | str) -> Speeds | None:
        """What earlier jobs measured for ``key``; ``None`` when nothing (usable) is remembered."""
        entry = self._models().get(str(key))
        if not isinstance(entry, dict):
            return None
        try:
            return Speeds.from_dict(entry)
        except (ValueError, TypeError, KeyError):
            return None

    def remember(self, key: ModelKey | str, measured: Speeds) -> Speeds:
        """Blend ``measured`` into what is remembered for ``key`` and write the file; returns the new figures.

        A failed write is logged and ignored: speeds help the estimate, they never fail a job.
        """
        models = self._models()
        entry = models.get(str(key))
        known = self.recall(key)
        figures = measured if known is None else known.blended(measured)
        jobs = int(entry.get("jobs", 0)) + 1 if isinstance(entry, dict) else 1
        models[str(key)] = {**{k: round(v, 4) for k, v in asdict(figures).items()}, "jobs": jobs}
        try:
            write_atomically(self.path, json.dumps({"version": 1, "models": models}, indent=1, sort_keys=True))
        except OSError:
            log.warning("could not write the speeds file %s", self.path, exc_info=True)
        return figures


def speed_book(data_dir: Path) -> SpeedBook:
    """The :class:`SpeedBook` of the data folder ``data_dir``."""
    return SpeedBook(Path(data_dir) / SPEEDS_FILE)


class Basis:
    """Where :func:`speeds_for`'s figures come from."""

    MEASURED = "measured"
    """This model's own speeds, measured on this computer."""
    BUNDLED_HERE = "bundled_here"
    """This computer's speed with the bundled model, scaled to this model."""
    CALIBRATED = "calibrated"
    """The bundled model's calibrated speeds shipped with the app, scaled to this model and computer."""


def speeds_for(data_dir: Path, name: str, size: int, threads: int, *, cores: int | None = None) -> tuple[Speeds, str]:
    """The speeds to expect of the model file ``name`` of ``size`` bytes run with ``threads``, and their
    :class:`Basis`: its own remembered speeds, else the bundled model's remembered on this computer (the file of the
    calibration's size), else the calibrated ones; each scaled to ``size`` and ``threads``."""
    book = speed_book(data_dir)
    own = book.remembered(name, size, threads)
    if own is not None:
        return prior_speeds(size, threads, own, cores), Basis.MEASURED
    base = calibration()
    bundled = book.remembered(None, base.model_bytes, threads)
    if bundled is not None:
        return prior_speeds(size, threads, bundled, cores), Basis.BUNDLED_HERE
    return prior_speeds(size, threads, base, cores), Basis.CALIBRATED

"""The values a setting may take: one check per kind of value, each raising :class:`Invalid` with what is allowed.

:mod:`core.app.settings.config` reads the file and the environment and turns an :class:`Invalid` into a
:class:`SettingsError` that also says where the value came from.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

__all__ = [
    "APP_NAME",
    "CONTEXT_RANGE",
    "DEFAULT_HUB_URL",
    "LANGUAGES",
    "MODEL_KINDS",
    "SAMPLING_RANGES",
    "Invalid",
    "SettingsError",
    "as_absolute_path",
    "as_broker_url",
    "as_count",
    "as_database_url",
    "as_flag",
    "as_hub_url",
    "as_language",
    "as_minutes",
    "as_stale_after",
    "as_text",
    "model_values",
    "redact_url",
]

APP_NAME = "StudyJobs"
LANGUAGES = ("system", "pt_BR", "en")
MODEL_KINDS = ("bundled", "gguf", "http")
BROKER_SCHEMES = ("sqlite", "redis", "rediss")
DEFAULT_HUB_URL = "https://huggingface.co"
"""Where models are downloaded from; a mirror of the Hugging Face hub works too (setting ``hub_url``)."""
CONTEXT_RANGE = (256, 1 << 20)
"""The ``model.context`` values allowed besides ``0`` (automatic), in tokens."""
SAMPLING_RANGES: Mapping[str, tuple[float, float]] = {
    "temperature": (0.0, 2.0),
    "top_p": (0.0, 1.0),
    "top_k": (0.0, 1000.0),
    "repeat_penalty": (1.0, 2.0),
}
_DB_HINT = "use sqlite+aiosqlite:///… or postgresql+asyncpg://…"
_BROKER_HINT = "use sqlite:///<file> (the embedded queue) or redis://…"


class SettingsError(ValueError):
    """A setting is wrong. The message names the setting, where it came from, and what is allowed."""


class Invalid(ValueError):
    """Raised by a normaliser; turned into a :class:`SettingsError` that says where the value came from."""

    def __init__(self, key: str, detail: str) -> None:
        super().__init__(f"{key}: {detail}")
        self.key, self.detail = key, detail


def redact_url(url: str) -> str:
    """``url`` with its password (if any) replaced by ``***``; text that is not a URL comes back unchanged."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return url
    if not password:
        return url
    userinfo, _, hostinfo = parts.netloc.rpartition("@")
    return urlunsplit(parts._replace(netloc=f"{userinfo.split(':', 1)[0]}:***@{hostinfo}"))


def as_text(key: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise Invalid(key, f"{value!r} must be non-empty text")
    return value.strip()


def as_flag(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise Invalid(key, f"{value!r} must be true or false")
    return value


def as_count(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise Invalid(key, f"{value!r} must be a whole number of at least 1")
    return int(value)


def as_minutes(key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 24 * 60:
        raise Invalid(key, f"{value!r} must be a number of minutes from 0 (never) to 1440 (default 5)")
    return float(value)


def as_context(value: Any) -> int:
    if value is None or value == "":
        return 0
    low, high = CONTEXT_RANGE
    if isinstance(value, bool) or not isinstance(value, int) or not (value == 0 or low <= value <= high):
        raise Invalid("model.context", f"{value!r} must be 0 (automatic) or a number of tokens from {low} to {high}")
    return int(value)


def as_sampling_value(key: str, value: Any) -> float | int:
    low, high = SAMPLING_RANGES[key.removeprefix("model.")]
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise Invalid(key, f"{value!r} must be a number from {low:g} to {high:g}")
    return int(value) if key.endswith("top_k") else float(value)


def as_absolute_path(key: str, value: Any) -> Path:
    path = Path(as_text(key, str(value) if isinstance(value, Path) else value)).expanduser()
    if not path.is_absolute():
        raise Invalid(key, f"{str(value)!r} must be an absolute path (e.g. {Path.home() / APP_NAME})")
    return path


def as_sqlite_file(key: str, raw: str | None, data_dir: Path, shown: str, hint: str) -> Path:
    if not raw or raw == ":memory:" or raw.startswith("file:"):
        raise Invalid(key, f"{shown!r} needs a file path (an in-memory database is not shared); {hint}")
    path = Path(raw).expanduser()
    return path if path.is_absolute() else data_dir / path


def as_database_url(value: Any, data_dir: Path) -> str:
    text = as_text("database_url", value)
    shown = redact_url(text)
    from sqlalchemy.engine import make_url  # here: the watchdog reads the folders without the database layer
    from sqlalchemy.exc import ArgumentError

    try:
        url = make_url(text)
    except ArgumentError:
        raise Invalid("database_url", f"{shown!r} is not a database URL; {_DB_HINT}") from None
    backend, _, driver = url.drivername.partition("+")
    if backend == "sqlite" and driver in ("", "pysqlite", "aiosqlite"):
        path = as_sqlite_file("database_url", url.database, data_dir, shown, _DB_HINT)
        return url.set(drivername="sqlite+aiosqlite", database=path.as_posix()).render_as_string(False)
    if backend in ("postgresql", "postgres") and driver in ("", "asyncpg"):
        if not url.database:
            raise Invalid("database_url", f"{shown!r} names no database (…/<name> at the end); {_DB_HINT}")
        return url.set(drivername="postgresql+asyncpg").render_as_string(hide_password=False)
    raise Invalid("database_url", f"{shown!r} is not supported; {_DB_HINT}")


def as_broker_url(value: Any, data_dir: Path) -> str:
    text = as_text("broker_url", value)
    shown = redact_url(text)
    scheme = text.partition(":")[0].lower()
    if scheme == "sqlite":
        if not text.startswith("sqlite:///"):
            raise Invalid("broker_url", f"{shown!r} needs a file path; {_BROKER_HINT}")
        return f"sqlite:///{as_sqlite_file('broker_url', text[10:], data_dir, shown, _BROKER_HINT).as_posix()}"
    if scheme not in BROKER_SCHEMES:
        raise Invalid("broker_url", f"{shown!r} is not supported; {_BROKER_HINT}")
    if not urlsplit(text).hostname:
        raise Invalid("broker_url", f"{shown!r} names no server; {_BROKER_HINT}")
    return text


def as_language(value: Any) -> str:
    wanted = value.replace("-", "_").lower() if isinstance(value, str) else None
    for language in LANGUAGES:
        if wanted == language.lower():
            return language
    raise Invalid("language", f"{value!r} is not a language; use one of {', '.join(map(repr, LANGUAGES))}")


def as_stale_after(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise Invalid("stale_after", f"{value!r} must be a number of seconds above 0 (default 60)")
    return float(value)


def as_hub_url(value: Any) -> str:
    text = as_text("hub_url", value).rstrip("/")
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Invalid("hub_url", f"{value!r} must be an http:// or https:// address (default {DEFAULT_HUB_URL})")
    return text


def model_values(raw: Mapping[str, Any]) -> dict[str, Any]:
    kind = raw.get("kind", "bundled")
    if kind not in MODEL_KINDS:
        raise Invalid("model.kind", f"{kind!r} is not a model kind; use one of {', '.join(map(repr, MODEL_KINDS))}")
    gguf, endpoint, name, threads = (raw.get(k) for k in ("gguf_path", "endpoint", "model_name", "n_threads"))
    values: dict[str, Any] = {
        "kind": kind,
        "gguf_path": None if gguf is None else as_absolute_path("model.gguf_path", gguf),
        "endpoint": None if endpoint is None else as_text("model.endpoint", endpoint),
        "model_name": None if name is None else as_text("model.model_name", name),
        "n_threads": None if threads is None else as_count("model.n_threads", threads),
        "context": as_context(raw.get("context")),
        "summaries": None if raw.get("summaries") is None else as_flag("model.summaries", raw.get("summaries")),
        "unload_after_minutes": as_minutes("model.unload_after_minutes", raw.get("unload_after_minutes", 5.0)),
    }
    for key in SAMPLING_RANGES:
        value = raw.get(key)
        values[key] = None if value is None else as_sampling_value(f"model.{key}", value)
    if values["endpoint"] is not None and urlsplit(values["endpoint"]).scheme not in ("http", "https"):
        raise Invalid("model.endpoint", f"{endpoint!r} must be an http:// or https:// URL")
    if kind == "gguf" and values["gguf_path"] is None:
        raise Invalid("model.gguf_path", 'is required when model.kind is "gguf" (the path of a .gguf file)')
    if kind == "http" and values["endpoint"] is None:
        raise Invalid("model.endpoint", 'is required when model.kind is "http" (e.g. http://127.0.0.1:8080/v1)')
    return values

"""Settings: one TOML file, a few environment overrides, and errors that say exactly what to fix.

* ``data_dir``: ``STUDYJOBS_DATA_DIR``, else ``platformdirs.user_data_dir("StudyJobs", "StudyJobs")``.
* ``settings_path``: ``<data_dir>/settings.toml`` unless a path is given. A missing file means "all defaults".
* ``log_dir``: ``<data_dir>/logs`` when ``STUDYJOBS_DATA_DIR`` is set (everything in one place: tests,
  portable installs), else platformdirs' ``user_log_dir``.

The file holds the top-level keys of :data:`SETTING_KEYS`, a ``[model]`` table of :data:`MODEL_KEYS` and a
``[limits]`` table of :data:`core.limits.LIMIT_KEYS` (the jobs' time limits).
An API key is not a setting: a ``model.api_key`` found in the file is moved to the system keyring as the file is
loaded, and removed from it (:mod:`core.api_keys`; with no keyring it stays until the user can move it).
``STUDYJOBS_DATABASE_URL`` and ``STUDYJOBS_BROKER_URL`` win over the file (an empty variable counts as unset).
Unknown keys are errors: a typo must never be silently ignored. Relative SQLite paths are taken relative to
``data_dir``, never to the working directory (which differs between the GUI and the daemon).
"""

from __future__ import annotations

import dataclasses
import difflib
import locale
import os
import re
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import platformdirs
import tomli_w
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from core.api_keys import migrate_file_key
from core.limits import LIMIT_KEYS, LimitSettings

__all__ = [
    "DEFAULT_HUB_URL",
    "ENV_DATA_DIR",
    "ENV_OVERRIDES",
    "LANGUAGES",
    "MODEL_KEYS",
    "MODEL_KINDS",
    "SETTING_KEYS",
    "ModelSettings",
    "Settings",
    "SettingsError",
    "default_broker_url",
    "default_database_url",
    "default_output_dir",
    "detect_system_locale",
    "load_settings",
    "redact_url",
    "resolve_language",
    "save_settings",
    "settings_document",
]  # fmt: skip

APP_NAME = "StudyJobs"
ENV_DATA_DIR = "STUDYJOBS_DATA_DIR"
ENV_OVERRIDES: Mapping[str, str] = {
    "database_url": "STUDYJOBS_DATABASE_URL",
    "broker_url": "STUDYJOBS_BROKER_URL",
}
LANGUAGES = ("system", "pt_BR", "en")
MODEL_KINDS = ("bundled", "gguf", "http")
BROKER_SCHEMES = ("sqlite", "redis", "rediss")
SETTING_KEYS = (
    "database_url", "broker_url", "output_dir", "language", "worker_threads",
    "notifications", "hide_to_tray", "autostart", "stale_after", "hub_url", "model", "limits",
)  # fmt: skip
DEFAULT_HUB_URL = "https://huggingface.co"
"""Where models are downloaded from; a mirror of the Hugging Face hub works too (setting ``hub_url``)."""
_TABLES = ("model", "limits")
MODEL_KEYS = (
    "kind", "gguf_path", "endpoint", "model_name", "n_threads", "context", "temperature", "top_p", "top_k",
    "repeat_penalty",
)  # fmt: skip
CONTEXT_RANGE = (256, 1 << 20)
"""The ``model.context`` values allowed besides ``0`` (automatic), in tokens."""
_SAMPLING_RANGES: Mapping[str, tuple[float, float]] = {
    "temperature": (0.0, 2.0),
    "top_p": (0.0, 1.0),
    "top_k": (0.0, 1000.0),
    "repeat_penalty": (1.0, 2.0),
}
_DB_HINT = "use sqlite+aiosqlite:///… or postgresql+asyncpg://…"
_BROKER_HINT = "use sqlite:///<file> (the embedded queue) or redis://…"


class SettingsError(ValueError):
    """A setting is wrong. The message names the setting, where it came from, and what is allowed."""


class _Invalid(ValueError):
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


def _text(key: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _Invalid(key, f"{value!r} must be non-empty text")
    return value.strip()


def _flag(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Invalid(key, f"{value!r} must be true or false")
    return value


def _count(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _Invalid(key, f"{value!r} must be a whole number of at least 1")
    return int(value)


def _context(value: Any) -> int:
    if value is None or value == "":
        return 0
    low, high = CONTEXT_RANGE
    if isinstance(value, bool) or not isinstance(value, int) or not (value == 0 or low <= value <= high):
        raise _Invalid("model.context", f"{value!r} must be 0 (automatic) or a number of tokens from {low} to {high}")
    return int(value)


def _sampling_value(key: str, value: Any) -> float | int:
    low, high = _SAMPLING_RANGES[key.removeprefix("model.")]
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise _Invalid(key, f"{value!r} must be a number from {low:g} to {high:g}")
    return int(value) if key.endswith("top_k") else float(value)


def _absolute_path(key: str, value: Any) -> Path:
    path = Path(_text(key, str(value) if isinstance(value, Path) else value)).expanduser()
    if not path.is_absolute():
        raise _Invalid(key, f"{str(value)!r} must be an absolute path (e.g. {Path.home() / APP_NAME})")
    return path


def _sqlite_file(key: str, raw: str | None, data_dir: Path, shown: str, hint: str) -> Path:
    if not raw or raw == ":memory:" or raw.startswith("file:"):
        raise _Invalid(key, f"{shown!r} needs a file path (an in-memory database is not shared); {hint}")
    path = Path(raw).expanduser()
    return path if path.is_absolute() else data_dir / path


def _database_url(value: Any, data_dir: Path) -> str:
    text = _text("database_url", value)
    shown = redact_url(text)
    try:
        url = make_url(text)
    except ArgumentError:
        raise _Invalid("database_url", f"{shown!r} is not a database URL; {_DB_HINT}") from None
    backend, _, driver = url.drivername.partition("+")
    if backend == "sqlite" and driver in ("", "pysqlite", "aiosqlite"):
        path = _sqlite_file("database_url", url.database, data_dir, shown, _DB_HINT)
        return url.set(drivername="sqlite+aiosqlite", database=path.as_posix()).render_as_string(False)
    if backend in ("postgresql", "postgres") and driver in ("", "asyncpg"):
        if not url.database:
            raise _Invalid("database_url", f"{shown!r} names no database (…/<name> at the end); {_DB_HINT}")
        return url.set(drivername="postgresql+asyncpg").render_as_string(hide_password=False)
    raise _Invalid("database_url", f"{shown!r} is not supported; {_DB_HINT}")


def _broker_url(value: Any, data_dir: Path) -> str:
    text = _text("broker_url", value)
    shown = redact_url(text)
    scheme = text.partition(":")[0].lower()
    if scheme == "sqlite":
        if not text.startswith("sqlite:///"):
            raise _Invalid("broker_url", f"{shown!r} needs a file path; {_BROKER_HINT}")
        return f"sqlite:///{_sqlite_file('broker_url', text[10:], data_dir, shown, _BROKER_HINT).as_posix()}"
    if scheme not in BROKER_SCHEMES:
        raise _Invalid("broker_url", f"{shown!r} is not supported; {_BROKER_HINT}")
    if not urlsplit(text).hostname:
        raise _Invalid("broker_url", f"{shown!r} names no server; {_BROKER_HINT}")
    return text


def _language(value: Any) -> str:
    wanted = value.replace("-", "_").lower() if isinstance(value, str) else None
    for language in LANGUAGES:
        if wanted == language.lower():
            return language
    raise _Invalid("language", f"{value!r} is not a language; use one of {', '.join(map(repr, LANGUAGES))}")


def _stale_after(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise _Invalid("stale_after", f"{value!r} must be a number of seconds above 0 (default 60)")
    return float(value)


def _hub_url(value: Any) -> str:
    text = _text("hub_url", value).rstrip("/")
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise _Invalid("hub_url", f"{value!r} must be an http:// or https:// address (default {DEFAULT_HUB_URL})")
    return text


def _model_values(raw: Mapping[str, Any]) -> dict[str, Any]:
    kind = raw.get("kind", "bundled")
    if kind not in MODEL_KINDS:
        raise _Invalid("model.kind", f"{kind!r} is not a model kind; use one of {', '.join(map(repr, MODEL_KINDS))}")
    gguf, endpoint, name, threads = (raw.get(k) for k in ("gguf_path", "endpoint", "model_name", "n_threads"))
    values: dict[str, Any] = {
        "kind": kind,
        "gguf_path": None if gguf is None else _absolute_path("model.gguf_path", gguf),
        "endpoint": None if endpoint is None else _text("model.endpoint", endpoint),
        "model_name": None if name is None else _text("model.model_name", name),
        "n_threads": None if threads is None else _count("model.n_threads", threads),
        "context": _context(raw.get("context")),
    }
    for key in _SAMPLING_RANGES:
        value = raw.get(key)
        values[key] = None if value is None else _sampling_value(f"model.{key}", value)
    if values["endpoint"] is not None and urlsplit(values["endpoint"]).scheme not in ("http", "https"):
        raise _Invalid("model.endpoint", f"{endpoint!r} must be an http:// or https:// URL")
    if kind == "gguf" and values["gguf_path"] is None:
        raise _Invalid("model.gguf_path", 'is required when model.kind is "gguf" (the path of a .gguf file)')
    if kind == "http" and values["endpoint"] is None:
        raise _Invalid("model.endpoint", 'is required when model.kind is "http" (e.g. http://127.0.0.1:8080/v1)')
    return values


@dataclass(frozen=True)
class ModelSettings:
    """Which language model writes the guides. Validated on construction (:class:`SettingsError`).

    Attributes:
        kind: ``"bundled"`` (shipped with the app), ``"gguf"`` (a local GGUF file at ``gguf_path``) or
            ``"http"`` (an OpenAI-compatible server at ``endpoint``).
        gguf_path: The GGUF file (required for ``"gguf"``); absolute.
        endpoint: ``http(s)://…`` (required for ``"http"``).
        model_name: The model to ask the server for, or a display name.
        n_threads: CPU threads for a local model; ``None`` lets the runtime choose.
        context: The context window in tokens; ``0`` chooses it from the model's trained context and the memory
            available (:func:`core.model_fit.fit_model`). A server's own context size wins where it tells it.
        temperature, top_p, top_k, repeat_penalty: Sampling settings for a local model; ``None`` keeps the
            model's own (tuned for the bundled model, general defaults for another GGUF).
    """

    kind: str = "bundled"
    gguf_path: Path | None = None
    endpoint: str | None = None
    model_name: str | None = None
    n_threads: int | None = None
    context: int = 0
    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None
    repeat_penalty: float | None = None

    def __post_init__(self) -> None:
        try:
            values = _model_values(self.__dict__)
        except _Invalid as invalid:
            raise SettingsError(f"{invalid.key} in ModelSettings: {invalid.detail}") from None
        for key, value in values.items():
            object.__setattr__(self, key, value)


@dataclass(frozen=True)
class Settings:
    """Everything the GUI and the daemon read at start. Immutable; change it with :func:`dataclasses.replace`.

    Validated and normalised on construction: a bad value raises :class:`SettingsError` naming the setting and
    its origin. ``None`` for ``database_url``, ``broker_url`` or ``output_dir`` means the default (use
    :meth:`defaults` for a complete default set). ``origins`` says where each value came from (``"file"`` or
    ``"env:VARIABLE"``; absent: default or code): a screen shows env-set values as locked, and
    :func:`save_settings` never writes them into the file.
    """

    data_dir: Path
    log_dir: Path
    settings_path: Path
    database_url: str
    broker_url: str
    output_dir: Path
    language: str = "system"
    worker_threads: int = 1
    model: ModelSettings = field(default_factory=ModelSettings)
    limits: LimitSettings = field(default_factory=LimitSettings)
    notifications: bool = True
    hide_to_tray: bool = True
    autostart: bool = False
    stale_after: float = 60.0
    hub_url: str = DEFAULT_HUB_URL
    origins: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        try:
            values = _normalised(self.__dict__)
        except _Invalid as invalid:
            origin = self.origins.get(invalid.key, "")
            where = f"environment variable {origin[4:]}" if origin.startswith("env:") else "Settings"
            where = str(self.settings_path) if origin == "file" else where
            raise SettingsError(f"{invalid.key} in {where}: {invalid.detail}") from None
        for key, value in values.items():
            object.__setattr__(self, key, value)

    @classmethod
    def defaults(cls, data_dir: Path, *, log_dir: Path | None = None, settings_path: Path | None = None) -> Settings:
        """The settings an empty file gives for ``data_dir`` (log and settings paths under it by default)."""
        database_url = default_database_url(data_dir)
        return cls(
            data_dir=data_dir,
            log_dir=log_dir if log_dir is not None else data_dir / "logs",
            settings_path=settings_path if settings_path is not None else data_dir / "settings.toml",
            database_url=database_url,
            broker_url=default_broker_url(database_url, data_dir),
            output_dir=default_output_dir(),
        )

    def user_language(self, system_locale: str | None = None) -> str:
        """``"pt_BR"`` or ``"en"``: the setting, with ``"system"`` resolved (see :func:`resolve_language`)."""
        return resolve_language(self.language, system_locale)


def default_database_url(data_dir: Path) -> str:
    """``sqlite+aiosqlite:///<data_dir>/studyjobs.db``."""
    return f"sqlite+aiosqlite:///{(Path(data_dir) / 'studyjobs.db').as_posix()}"


def default_broker_url(database_url: str, data_dir: Path) -> str:
    """The embedded queue: in the database's own SQLite file, or ``<data_dir>/queue.db`` beside PostgreSQL."""
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite" and url.database:
        return f"sqlite:///{url.database}"
    return f"sqlite:///{(Path(data_dir) / 'queue.db').as_posix()}"


def default_output_dir() -> Path:
    """A ``StudyJobs`` folder in the user's documents folder."""
    return Path(platformdirs.user_documents_dir()) / APP_NAME


def _normalised(raw: Mapping[str, Any]) -> dict[str, Any]:
    data_dir = Path(raw["data_dir"]).expanduser().absolute()
    if not isinstance(raw["model"], ModelSettings):
        raise _Invalid("model", f"{raw['model']!r} must be a ModelSettings")
    if not isinstance(raw["limits"], LimitSettings):
        raise _Invalid("limits", f"{raw['limits']!r} must be a LimitSettings")
    database = raw["database_url"] if raw["database_url"] is not None else default_database_url(data_dir)
    database = _database_url(database, data_dir)
    broker = raw["broker_url"] if raw["broker_url"] is not None else default_broker_url(database, data_dir)
    output = raw["output_dir"] if raw["output_dir"] is not None else default_output_dir()
    return {
        "data_dir": data_dir,
        "log_dir": Path(raw["log_dir"]),
        "settings_path": Path(raw["settings_path"]),
        "database_url": database,
        "broker_url": _broker_url(broker, data_dir),
        "output_dir": _absolute_path("output_dir", output),
        "language": _language(raw["language"]),
        "worker_threads": _count("worker_threads", raw["worker_threads"]),
        "notifications": _flag("notifications", raw["notifications"]),
        "hide_to_tray": _flag("hide_to_tray", raw["hide_to_tray"]),
        "autostart": _flag("autostart", raw["autostart"]),
        "stale_after": _stale_after(raw["stale_after"]),
        "hub_url": _hub_url(raw["hub_url"]),
    }


def detect_system_locale(env: Mapping[str, str] = os.environ) -> str:
    """The user's locale name as gettext picks it (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``).

    Falls back to the process's locale (Windows; macOS apps started from the Finder), else ``""``.
    """
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "").split(":")[0].strip()
        if value:
            return value
    return locale.getlocale()[0] or ""


def resolve_language(setting: str, system_locale: str | None = None) -> str:
    """``"pt_BR"`` or ``"en"`` for a ``language`` setting.

    ``"system"`` means the locale's: ``pt*`` (or Windows's ``Portuguese_*``) → ``"pt_BR"``, anything else →
    ``"en"``. Pass ``system_locale`` to decide for a given name (e.g. the GUI's ``QLocale.system().name()``);
    otherwise it is detected with :func:`detect_system_locale`.

    Raises:
        ValueError: ``setting`` is not one of :data:`LANGUAGES`.
    """
    if _language(setting) != "system":
        return _language(setting)
    name = (detect_system_locale() if system_locale is None else system_locale).lower()
    return "pt_BR" if name.startswith(("pt", "portuguese")) else "en"


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except UnicodeDecodeError:
        raise SettingsError(f"settings file {path} is not UTF-8 text") from None
    except OSError as exc:
        raise SettingsError(f"cannot read settings file {path}: {exc.strerror or exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        place = f", line {at[1]}, column {at[2]}" if at else ""
        reason = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(exc))
        raise SettingsError(f"settings file {path}{place} is not valid TOML: {reason}") from None


def _check_keys(raw: Mapping[str, Any], known: tuple[str, ...], prefix: str, path: Path) -> None:
    for key in raw:
        if key in known:
            continue
        if key in ("data_dir", "log_dir", "settings_path"):
            raise SettingsError(f"{key} in {path}: cannot be set in the settings file; set {ENV_DATA_DIR}")
        close = difflib.get_close_matches(key, known, n=1)
        hint = f'did you mean "{prefix}{close[0]}"? ' if close else ""
        allowed = ", ".join(prefix + k for k in known)
        raise SettingsError(f'unknown setting "{prefix}{key}" in {path}: {hint}known settings: {allowed}')


def load_settings(path: str | Path | None = None, *, env: Mapping[str, str] = os.environ) -> Settings:
    """Read the settings file (missing: defaults), apply the environment overrides, validate everything.

    Args:
        path: The TOML file; default ``<data_dir>/settings.toml``.
        env: The environment to read the ``STUDYJOBS_*`` variables from.

    Raises:
        SettingsError: malformed TOML (file, line and column), an unknown key (with the closest known one), or
            a bad value (the setting, the file or environment variable, and what is allowed).
    """
    if data_env := env.get(ENV_DATA_DIR, "").strip():
        data_dir = Path(data_env).expanduser().absolute()
        log_dir = data_dir / "logs"
    else:
        data_dir = Path(platformdirs.user_data_dir(APP_NAME, APP_NAME))
        log_dir = Path(platformdirs.user_log_dir(APP_NAME, APP_NAME))
    settings_path = Path(path).expanduser() if path is not None else data_dir / "settings.toml"

    raw = _read_toml(settings_path)
    migrate_file_key(settings_path, raw, lambda document: _write_document(settings_path, document))
    _check_keys(raw, SETTING_KEYS, "", settings_path)
    model_raw = raw.get("model", {})
    if not isinstance(model_raw, dict):
        raise SettingsError(f"model in {settings_path}: must be a table ([model] with {', '.join(MODEL_KEYS)})")
    _check_keys(model_raw, MODEL_KEYS, "model.", settings_path)
    limits_raw = raw.get("limits", {})
    if not isinstance(limits_raw, dict):
        raise SettingsError(f"limits in {settings_path}: must be a table ([limits] with {', '.join(LIMIT_KEYS)})")
    _check_keys(limits_raw, LIMIT_KEYS, "limits.", settings_path)

    origins = {key: "file" for key in raw if key not in _TABLES} | {f"model.{key}": "file" for key in model_raw}
    origins |= {f"limits.{key}": "file" for key in limits_raw}
    values: dict[str, Any] = {"database_url": None, "broker_url": None, "output_dir": None}
    values.update((key, value) for key, value in raw.items() if key not in _TABLES)
    for key, var in ENV_OVERRIDES.items():
        if env.get(var, "").strip():
            values[key], origins[key] = env[var].strip(), f"env:{var}"
    try:
        model = ModelSettings(**_model_values(model_raw))
    except _Invalid as invalid:
        raise SettingsError(f"{invalid.key} in {settings_path}: {invalid.detail}") from None
    try:
        limits = LimitSettings(**limits_raw)
    except ValueError as invalid:
        raise SettingsError(f"{str(invalid).replace(': ', f' in {settings_path}: ', 1)}") from None
    return Settings(data_dir, log_dir, settings_path, model=model, limits=limits, origins=origins, **values)


def settings_document(settings: Settings) -> dict[str, Any]:
    """What :func:`save_settings` writes: the values that differ from the defaults or were in the file.

    Values set by an environment variable are left out (the file keeps what it had), so an override used for
    one run never becomes permanent.
    """
    defaults = dataclasses.replace(
        Settings.defaults(settings.data_dir, log_dir=settings.log_dir, settings_path=settings.settings_path),
        broker_url=default_broker_url(settings.database_url, settings.data_dir),
    )
    try:
        existing = _read_toml(settings.settings_path)
    except SettingsError:  # replacing a file that went bad since it was loaded
        existing = {}
    doc: dict[str, Any] = {}
    for section, current, default, prefix in (
        (doc, settings, defaults, ""),
        (doc.setdefault("model", {}), settings.model, ModelSettings(), "model."),
        (doc.setdefault("limits", {}), settings.limits, LimitSettings(), "limits."),
    ):
        table = {"model.": MODEL_KEYS, "limits.": LIMIT_KEYS}.get(prefix)
        for key in table if table is not None else [k for k in SETTING_KEYS if k not in _TABLES]:
            origin = settings.origins.get(prefix + key, "")
            value = getattr(current, key)
            if origin.startswith("env:"):
                if key in existing:
                    section[key] = existing[key]
            elif value is not None and (origin == "file" or value != getattr(default, key)):
                section[key] = str(value) if isinstance(value, Path) else value
    kept = existing.get("model")
    if isinstance(kept, dict) and "api_key" in kept:  # no keyring took it (core.api_keys): the file keeps it
        doc["model"]["api_key"] = kept["api_key"]
    for name in _TABLES:
        if not doc[name]:
            del doc[name]
    return doc


def save_settings(settings: Settings) -> Path:
    """Write the settings to ``settings.settings_path`` atomically (a temp file, then :func:`os.replace`).

    A reader never sees a half-written file, and a crash leaves the old file intact. Returns the path.
    """
    return _write_document(settings.settings_path, settings_document(settings))


def _write_document(path: Path, document: Mapping[str, Any]) -> Path:
    data = tomli_w.dumps(document)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path

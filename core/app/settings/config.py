"""Settings: one TOML file (``settings.toml`` in the data folder), a few environment overrides, and errors that say
exactly what to fix; unknown keys are errors, and an API key found in the file moves to the keyring.

Plain functions; loading reads the file (and, for a key left in it, the keyring). Where each path comes from and
which override wins: docs/design/application.md, "Settings".
"""

from __future__ import annotations

import dataclasses
import difflib
import locale
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs
import tomli_w

from core.app.models.api_keys import migrate_file_key
from core.app.settings.limits import LIMIT_KEYS, LimitSettings
from core.app.settings.values import (
    APP_NAME,
    DEFAULT_HUB_URL,
    LANGUAGES,
    MODEL_KINDS,
    Invalid,
    SettingsError,
    as_absolute_path,
    as_broker_url,
    as_count,
    as_database_url,
    as_flag,
    as_hub_url,
    as_language,
    as_stale_after,
    model_values,
    redact_url,
)
from core.app.storage.files import write_atomically

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
    "app_folders",
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

ENV_DATA_DIR = "STUDYJOBS_DATA_DIR"
ENV_OVERRIDES: Mapping[str, str] = {
    "database_url": "STUDYJOBS_DATABASE_URL",
    "broker_url": "STUDYJOBS_BROKER_URL",
}
SETTING_KEYS = (
    "database_url", "broker_url", "output_dir", "language", "worker_threads",
    "notifications", "hide_to_tray", "autostart", "stale_after", "hub_url", "model", "limits",
)  # fmt: skip
_TABLES = ("model", "limits")
MODEL_KEYS = (
    "kind", "gguf_path", "endpoint", "model_name", "n_threads", "context", "temperature", "top_p", "top_k",
    "repeat_penalty", "summaries", "unload_after_minutes",
)  # fmt: skip


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
            available (:func:`core.app.models.fit.fit_model`). A server's own context size wins where it tells it.
        temperature, top_p, top_k, repeat_penalty: Sampling settings for a local model; ``None`` keeps the
            model's own (tuned for the bundled model, general defaults for another GGUF).
        summaries: Whether the model writes each section's summary; ``None`` lets the model catalog decide (the
            bundled demo model writes none: its sections quote the document's key passages, see
            ``CatalogModel.writes_summaries``; any other model writes them).
        unload_after_minutes: Minutes without a job after which the worker gives its memory back: the local model
            is unloaded and idle reader processes end (the next job loads it again, its time left counting the
            load). ``0`` keeps the model loaded. Default 5, like Ollama's keep-alive.
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
    summaries: bool | None = None
    unload_after_minutes: float = 5.0

    def __post_init__(self) -> None:
        try:
            values = model_values(self.__dict__)
        except Invalid as invalid:
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
        except Invalid as invalid:
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
    from sqlalchemy.engine import make_url  # here: the watchdog reads the folders without the database layer

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
        raise Invalid("model", f"{raw['model']!r} must be a ModelSettings")
    if not isinstance(raw["limits"], LimitSettings):
        raise Invalid("limits", f"{raw['limits']!r} must be a LimitSettings")
    database = raw["database_url"] if raw["database_url"] is not None else default_database_url(data_dir)
    database = as_database_url(database, data_dir)
    broker = raw["broker_url"] if raw["broker_url"] is not None else default_broker_url(database, data_dir)
    output = raw["output_dir"] if raw["output_dir"] is not None else default_output_dir()
    return {
        "data_dir": data_dir,
        "log_dir": Path(raw["log_dir"]),
        "settings_path": Path(raw["settings_path"]),
        "database_url": database,
        "broker_url": as_broker_url(broker, data_dir),
        "output_dir": as_absolute_path("output_dir", output),
        "language": as_language(raw["language"]),
        "worker_threads": as_count("worker_threads", raw["worker_threads"]),
        "notifications": as_flag("notifications", raw["notifications"]),
        "hide_to_tray": as_flag("hide_to_tray", raw["hide_to_tray"]),
        "autostart": as_flag("autostart", raw["autostart"]),
        "stale_after": as_stale_after(raw["stale_after"]),
        "hub_url": as_hub_url(raw["hub_url"]),
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
    if as_language(setting) != "system":
        return as_language(setting)
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


def app_folders(env: Mapping[str, str] = os.environ) -> tuple[Path, Path]:
    """The data folder and the log folder: ``$STUDYJOBS_DATA_DIR`` and its ``logs``, else platformdirs' folders."""
    if data_env := env.get(ENV_DATA_DIR, "").strip():
        data_dir = Path(data_env).expanduser().absolute()
        return data_dir, data_dir / "logs"
    return Path(platformdirs.user_data_dir(APP_NAME, APP_NAME)), Path(platformdirs.user_log_dir(APP_NAME, APP_NAME))


def load_settings(path: str | Path | None = None, *, env: Mapping[str, str] = os.environ) -> Settings:
    """Read the settings file (missing: defaults), apply the environment overrides, validate everything.

    Args:
        path: The TOML file; default ``<data_dir>/settings.toml``.
        env: The environment to read the ``STUDYJOBS_*`` variables from.

    Raises:
        SettingsError: malformed TOML (file, line and column), an unknown key (with the closest known one), or
            a bad value (the setting, the file or environment variable, and what is allowed).
    """
    data_dir, log_dir = app_folders(env)
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
        model = ModelSettings(**model_values(model_raw))
    except Invalid as invalid:
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
    if isinstance(kept, dict) and "api_key" in kept:  # no keyring took it (core.app.models.api_keys): the file keeps it
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
    write_atomically(path, tomli_w.dumps(document))
    return path

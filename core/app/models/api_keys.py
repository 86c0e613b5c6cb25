"""API keys for OpenAI-compatible model servers, kept in the system keyring per endpoint, never in ``settings.toml``:
:func:`find_api_key` (environment, keyring, a key still in the file), :func:`migrate_file_key`; every key found is
registered with :func:`core.app.logs.redact` (docs/design/models.md, "API keys").

Keyring calls may wait on the system (D-Bus, an unlock prompt): call them from the UI thread only on a user's action.
"""

from __future__ import annotations

import enum
import logging
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from core.app.logs import redact

__all__ = [
    "ENV_API_KEY",
    "SERVICE",
    "ApiKeyError",
    "FoundKey",
    "KeySource",
    "account_for",
    "delete_api_key",
    "find_api_key",
    "keyring_available",
    "keyring_name",
    "migrate_file_key",
    "store_api_key",
]

ENV_API_KEY = "STUDYJOBS_API_KEY"
SERVICE = "StudyJobs"
DEFAULT_ACCOUNT = "default"
"""The account of a key that named no server (one moved from a settings file without ``model.endpoint``)."""

log = logging.getLogger(__name__)


class ApiKeyError(RuntimeError):
    """The key could not be stored or removed: one plain sentence (never the key itself)."""


class KeySource(enum.Enum):
    """Where the key in use came from."""

    ENV = "env"
    KEYRING = "keyring"
    FILE = "file"


@dataclass(frozen=True)
class FoundKey:
    """A key and where it came from. Its ``repr`` never shows the key."""

    key: str
    source: KeySource

    def __repr__(self) -> str:
        return f"FoundKey(key='***', source={self.source})"


def account_for(endpoint: str | None) -> str:
    """The keyring account of ``endpoint``: its OpenAI-compatible base, host in lower case (``default`` for none)."""
    if not endpoint or not endpoint.strip():
        return DEFAULT_ACCOUNT
    address = endpoint.strip().rstrip("/")
    parts = urlsplit(address)
    path = parts.path.rstrip("/") or "/v1"
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{path}"


def _backend() -> Any:
    import keyring

    return keyring.get_keyring()


def keyring_available() -> bool:
    """Whether a working keyring backend was found (false on a headless Linux without a Secret Service)."""
    try:
        from keyring.backends import chainer, fail, null

        backend = _backend()
    except Exception:  # a broken keyring configuration is no keyring
        log.warning("the system keyring could not be loaded", exc_info=True)
        return False
    if isinstance(backend, fail.Keyring | null.Keyring):
        return False
    return not (isinstance(backend, chainer.ChainerBackend) and not backend.backends)


def keyring_name() -> str:
    """The backend's name for the window ("macOS Keychain", "SecretService Keyring", …)."""
    try:
        return str(getattr(_backend(), "name", type(_backend()).__name__))
    except Exception:
        return ""


def _keyring_get(account: str) -> str | None:
    import keyring
    from keyring.errors import KeyringError

    if not keyring_available():
        return None
    try:
        value = keyring.get_password(SERVICE, account)
    except KeyringError as exc:
        log.warning("the system keyring could not be read: %s", type(exc).__name__)
        return None
    return value or None


def _file_key(settings_path: Path | None) -> str | None:
    if settings_path is None:
        return None
    try:
        model = tomllib.loads(settings_path.read_text(encoding="utf-8")).get("model", {})
    except (OSError, ValueError):
        return None
    value = model.get("api_key") if isinstance(model, dict) else None
    return value.strip() if isinstance(value, str) and value.strip() else None


def find_api_key(
    endpoint: str | None, *, settings_path: Path | None = None, env: Mapping[str, str] = os.environ
) -> FoundKey | None:
    """The key for ``endpoint``: ``STUDYJOBS_API_KEY``, else the keyring (this server's, else the ``default``
    account), else a key still in the settings file at ``settings_path``; ``None`` when there is none."""
    found: FoundKey | None = None
    if value := env.get(ENV_API_KEY, "").strip():
        found = FoundKey(value, KeySource.ENV)
    else:
        for account in dict.fromkeys((account_for(endpoint), DEFAULT_ACCOUNT)):
            if stored := _keyring_get(account):
                found = FoundKey(stored, KeySource.KEYRING)
                break
        else:
            if file_value := _file_key(settings_path):
                found = FoundKey(file_value, KeySource.FILE)
    if found is not None:
        redact(found.key)
    return found


def store_api_key(endpoint: str | None, key: str) -> None:
    """Keep ``key`` in the keyring for ``endpoint`` (an empty key removes it).

    Raises:
        ApiKeyError: no keyring is available, or it refused.
    """
    key = key.strip()
    if not key:
        delete_api_key(endpoint)
        return
    import keyring
    from keyring.errors import KeyringError

    if not keyring_available():
        raise ApiKeyError(f"No system keyring is available to keep the API key; set {ENV_API_KEY} instead.")
    redact(key)
    try:
        keyring.set_password(SERVICE, account_for(endpoint), key)
    except KeyringError as exc:
        raise ApiKeyError(f"The system keyring did not keep the API key ({type(exc).__name__}).") from None


def delete_api_key(endpoint: str | None) -> None:
    """Remove the key of ``endpoint`` from the keyring (nothing to remove, or no keyring: nothing happens).

    Raises:
        ApiKeyError: the keyring refused.
    """
    import keyring
    from keyring.errors import KeyringError, PasswordDeleteError

    if not keyring_available():
        return
    account = account_for(endpoint)
    try:
        if keyring.get_password(SERVICE, account) is not None:
            keyring.delete_password(SERVICE, account)
    except PasswordDeleteError:
        return
    except KeyringError as exc:
        raise ApiKeyError(f"The system keyring did not remove the API key ({type(exc).__name__}).") from None


def migrate_file_key(settings_path: Path, raw: dict[str, Any], write: Callable[[dict[str, Any]], object]) -> None:
    """Move a ``model.api_key`` of a settings file into the keyring and remove it from the file.

    ``raw`` is the file as read; its ``model.api_key`` is taken out either way (the key is not a setting). With
    no keyring, the file is left as it is (the key is still found there by :func:`find_api_key`, and the window
    says how to move it); a file rewritten by ``write(document)`` never holds the key.
    """
    model = raw.get("model")
    if not isinstance(model, dict) or "api_key" not in model:
        return
    value = model.pop("api_key")
    if not isinstance(value, str) or not value.strip():
        write(raw)
        return
    redact(value.strip())
    endpoint = model.get("endpoint") if isinstance(model.get("endpoint"), str) else None
    try:
        store_api_key(endpoint, value)
    except ApiKeyError as exc:
        log.warning("the API key in %s stays there: %s", settings_path, exc)
        return
    write(raw)
    log.info("the API key in %s was moved to the system keyring", settings_path)

"""Keyring backends for the tests: never the developer's own keyring.

:class:`MemoryKeyring` keeps passwords in a dict (set it with ``keyring.set_keyring`` through the ``memory_keyring``
fixture); :class:`WaitingKeyring` is one whose reads wait until the test lets them answer, as a locked keyring
waits for its password. :class:`FileKeyring` keeps them in the JSON file named by ``KEYRINGTESTING_FILE``, for a worker
process started by a test (``PYTHON_KEYRING_BACKEND=tests.keyringtesting.FileKeyring``, the project folder on its
path).
The suite sets ``PYTHON_KEYRING_BACKEND`` to keyring's failing backend (tests/conftest.py), so any other keyring
use sees "no keyring".
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError

FILE_VARIABLE = "KEYRINGTESTING_FILE"


class MemoryKeyring(KeyringBackend):
    """Passwords in a dict of ``(service, account)``."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.passwords.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.passwords[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.passwords.pop((service, username), None) is None:
            raise PasswordDeleteError("no such password")


class WaitingKeyring(MemoryKeyring):
    """A :class:`MemoryKeyring` whose reads wait until :attr:`answer` is set (at most ``patience`` seconds).

    Attributes:
        waiting: How many reads are waiting now.
        asked: Set by the first read.
    """

    def __init__(self, patience: float = 20.0) -> None:
        super().__init__()
        self.patience = patience
        self.answer = threading.Event()
        self.asked = threading.Event()
        self.waiting = 0
        self._lock = threading.Lock()

    def get_password(self, service: str, username: str) -> str | None:
        with self._lock:
            self.waiting += 1
        self.asked.set()
        try:
            self.answer.wait(self.patience)
        finally:
            with self._lock:
                self.waiting -= 1
        return super().get_password(service, username)


class FileKeyring(KeyringBackend):
    """Passwords in a JSON file (``{"service\\naccount": password}``) named by :data:`FILE_VARIABLE`."""

    priority = 1  # type: ignore[assignment]

    @property
    def path(self) -> Path:
        return Path(os.environ[FILE_VARIABLE])

    def _read(self) -> dict[str, str]:
        return json.loads(self.path.read_text(encoding="utf-8")) if self.path.exists() else {}

    def get_password(self, service: str, username: str) -> str | None:
        return self._read().get(f"{service}\n{username}")

    def set_password(self, service: str, username: str, password: str) -> None:
        self.path.write_text(json.dumps({**self._read(), f"{service}\n{username}": password}), encoding="utf-8")

    def delete_password(self, service: str, username: str) -> None:
        passwords = self._read()
        if passwords.pop(f"{service}\n{username}", None) is None:
            raise PasswordDeleteError("no such password")
        self.path.write_text(json.dumps(passwords), encoding="utf-8")

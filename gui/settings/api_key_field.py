"""The API key of a model server: a password field kept in the system keyring (never in the settings file).

UI thread only: while the window's loop runs the keyring is read on a worker thread (the field stays locked until
the key is there); without a running loop it is read at once. Where a key may live: docs/design/window.md.
"""

from __future__ import annotations

import asyncio
import logging
import os
from functools import partial
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLabel, QLineEdit, QVBoxLayout, QWidget

from core.app.models.api_keys import (
    ENV_API_KEY,
    FoundKey,
    KeySource,
    find_api_key,
    keyring_available,
    keyring_name,
    store_api_key,
)

__all__ = ["ApiKeyField"]

log = logging.getLogger(__name__)

Lookup = tuple[bool, FoundKey | None]
"""Whether a keyring can keep a key here, and the key found (:func:`_look_up`)."""


def _look_up(endpoint: str | None, settings_path: Path) -> Lookup:
    """Ask the keyring whether it works and for ``endpoint``'s key (may wait on the system: not on the UI thread
    while the window's loop runs)."""
    return keyring_available(), find_api_key(endpoint, settings_path=settings_path)


class ApiKeyField(QWidget):
    """A password-echo field and a note about where the key is kept. UI thread only.

    Args:
        endpoint: The server whose key is shown first.
        settings_path: The settings file (a key no keyring could take is still there).
        parent: The parent widget.

    Attributes:
        edit: The field (password echo).
        note: Where the key lives, or why it cannot be kept.
        available: Whether a keyring can keep a key here (``False`` until the keyring answered).
        reading: The keyring being read on a worker thread, ``None`` when no read is under way.
    """

    def __init__(self, endpoint: str | None, settings_path: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings_path = settings_path
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.edit = QLineEdit()
        self.edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.edit.setAccessibleName(QCoreApplication.translate("ApiKeyField", "API key"))
        self.edit.setPlaceholderText(QCoreApplication.translate("ApiKeyField", "Only for servers that ask for one"))
        self.note = QLabel()
        self.note.setWordWrap(True)
        layout.addWidget(self.edit)
        layout.addWidget(self.note)
        self.available = False
        self.reading: asyncio.Task[Lookup] | None = None
        self.endpoint: str | None = None
        self.loaded = ""
        self.show_key_of(endpoint)

    def show_key_of(self, endpoint: str | None) -> None:
        """Show the key of ``endpoint`` (a key the user is typing is kept): at once without a running event loop,
        else once the keyring answers on a worker thread, the field locked meanwhile (a read under way for another
        server is dropped)."""
        if self.endpoint is not None and self.edit.isModified():
            self.endpoint = endpoint
            return
        self.endpoint = endpoint
        self.stop_reading()
        look_up = partial(_look_up, endpoint, self.settings_path)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._show(*look_up())
            return
        self.edit.setEnabled(False)
        self.note.setText(QCoreApplication.translate("ApiKeyField", "Reading the API key from the system keyring…"))
        self.reading = loop.create_task(asyncio.to_thread(look_up), name="api-key-read")
        self.reading.add_done_callback(self._read)

    def stop_reading(self) -> None:
        """Drop a keyring read under way (its answer is not shown; the dialog closes or another server is shown)."""
        if self.reading is not None:
            self.reading.cancel()
        self.reading = None

    def _read(self, task: asyncio.Task[Lookup]) -> None:
        if task.cancelled() or task is not self.reading:
            return
        self.reading = None
        error = task.exception()
        if error is not None:
            log.warning("the system keyring could not be read: %s", type(error).__name__)
        self._show(*(task.result() if error is None else (False, None)))

    def _show(self, available: bool, found: FoundKey | None) -> None:
        self.available = available
        self.loaded = found.key if found is not None and found.source is KeySource.KEYRING else ""
        self.edit.setText(self.loaded)
        self.edit.setModified(False)
        from_env = found is not None and found.source is KeySource.ENV
        self.edit.setEnabled(self.available and not from_env)
        if from_env:
            note = QCoreApplication.translate(
                "ApiKeyField", "The API key comes from the environment variable {name}."
            ).format(name=ENV_API_KEY)
        elif not self.available:
            note = QCoreApplication.translate(
                "ApiKeyField",
                "This computer has no system keyring (on Linux, no Secret Service is running), so StudyJobs cannot "
                "keep an API key safely. Set the environment variable {name} for the worker instead.",
            ).format(name=ENV_API_KEY)
            if found is not None and found.source is KeySource.FILE:
                note += " " + QCoreApplication.translate(
                    "ApiKeyField",
                    "Your key is still written in the settings file; once {name} is set, remove it from there.",
                ).format(name=ENV_API_KEY)
        else:
            note = QCoreApplication.translate(
                "ApiKeyField", "Kept in the system keyring ({keyring}), never in the settings file."
            ).format(keyring=keyring_name())
        self.note.setText(note)

    def key(self) -> str:
        """The key as typed (stripped)."""
        return self.edit.text().strip()

    def environment_key(self) -> str:
        """The key of ``STUDYJOBS_API_KEY`` (``""`` when unset): it is never put in the field."""
        return os.environ.get(ENV_API_KEY, "").strip()

    def save(self, endpoint: str | None) -> bool:
        """Store the key for ``endpoint`` when it was changed (or the server was); ``True`` when it was stored.

        Raises:
            core.app.models.api_keys.ApiKeyError: the keyring refused (a plain sentence, without the key).
        """
        if not self.edit.isEnabled():
            return False
        if self.key() == self.loaded and endpoint == self.endpoint and not self.edit.isModified():
            return False
        store_api_key(endpoint, self.key())
        self.loaded, self.endpoint = self.key(), endpoint
        self.edit.setModified(False)
        return True

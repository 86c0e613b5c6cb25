"""The API key of a model server: a password field kept in the system keyring (never in the settings file).

:class:`ApiKeyField` shows the key of the server being edited (read from :mod:`core.app.api_keys`), stores it when
the settings are saved, and says plainly where it lives: in the keyring, in the environment variable
``STUDYJOBS_API_KEY`` (then the field is locked), or nowhere because this computer has no keyring (a headless
Linux without a Secret Service) — then the field is locked and the note explains how to use the variable.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLabel, QLineEdit, QVBoxLayout, QWidget

from core.app.api_keys import ENV_API_KEY, KeySource, find_api_key, keyring_available, keyring_name, store_api_key

__all__ = ["ApiKeyField"]


class ApiKeyField(QWidget):
    """A password-echo field and a note about where the key is kept. UI thread only.

    Args:
        endpoint: The server whose key is shown first.
        settings_path: The settings file (a key no keyring could take is still there).
        parent: The parent widget.

    Attributes:
        edit: The field (password echo).
        note: Where the key lives, or why it cannot be kept.
        available: Whether a keyring can keep a key here.
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
        self.available = keyring_available()
        self.endpoint: str | None = None
        self.loaded = ""
        self.show_key_of(endpoint)

    def show_key_of(self, endpoint: str | None) -> None:
        """Show the key of ``endpoint`` (a key the user is typing is kept)."""
        if self.endpoint is not None and self.edit.isModified():
            self.endpoint = endpoint
            return
        self.endpoint = endpoint
        found = find_api_key(endpoint, settings_path=self.settings_path)
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
            core.app.api_keys.ApiKeyError: the keyring refused (a plain sentence, without the key).
        """
        if not self.edit.isEnabled():
            return False
        if self.key() == self.loaded and endpoint == self.endpoint and not self.edit.isModified():
            return False
        store_api_key(endpoint, self.key())
        self.loaded, self.endpoint = self.key(), endpoint
        self.edit.setModified(False)
        return True

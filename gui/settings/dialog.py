"""The settings dialog: the model and its context window, worker threads, output folder, language and the tray.

Opened with ``open()``; :attr:`SettingsDialog.saved` carries the new settings. UI thread only: "Test connection"
uses Qt's asynchronous network stack (no thread, no daemon code). Tabs and saving: docs/design/window.md.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QUrl, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtNetwork import QNetworkAccessManager, QNetworkReply, QNetworkRequest
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from core.app.models.api_keys import ApiKeyError
from core.app.models.catalog import CatalogModel
from core.app.models.library import model_setting
from core.app.settings.config import ModelSettings, Settings, SettingsError, save_settings
from core.app.workers.launch import login_command
from gui.models.download_feed import DownloadFeed
from gui.models.page import ModelPage
from gui.models.servers_box import ModelServersBox
from gui.settings.api_key_field import ApiKeyField
from gui.settings.general_page import AUTOSTART_AVAILABLE, GeneralPage
from gui.tasks import TaskGroup
from gui.theme import error_text_style
from gui.worker import autostart

__all__ = ["AUTOSTART_AVAILABLE", "SettingsDialog"]


class SettingsDialog(QDialog):
    """Edits and saves the settings. UI thread only.

    Signals:
        saved: The settings were written (the new :class:`Settings`).
        connection_tested: ``(ok, message)`` after Test connection.
    """

    saved = Signal(object)
    connection_tested = Signal(bool, str)

    def __init__(
        self,
        settings: Settings,
        parent: QWidget | None = None,
        *,
        store: Any = None,
        tasks: TaskGroup | None = None,
        feed: DownloadFeed | None = None,
    ) -> None:
        super().__init__(parent)
        self.settings = settings
        self.setWindowTitle(QCoreApplication.translate("SettingsDialog", "Settings"))
        self.network = QNetworkAccessManager(self)
        self.reply: QNetworkReply | None = None
        outer = QVBoxLayout(self)
        self.tabs = QTabWidget()
        outer.addWidget(self.tabs, 1)
        self.model_page: ModelPage | None = None
        model_tab = self._model_tab(settings, store, tasks, feed)
        self.tabs.addTab(model_tab, QCoreApplication.translate("SettingsDialog", "Model"))
        self.general = GeneralPage(settings)
        self.tabs.addTab(self.general, QCoreApplication.translate("SettingsDialog", "General"))
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet(error_text_style(self.palette()))
        outer.addWidget(self.error)
        self.buttons = self._dialog_buttons()
        outer.addWidget(self.buttons)
        self._searched_once = False
        self.api_key_changed = False
        """Whether the last Save stored a new API key (the worker reads it when it starts)."""
        self._update_model_fields()

    # -- the pages --------------------------------------------------------------------------------------------

    def _model_tab(self, settings: Settings, store: Any, tasks: TaskGroup | None, feed: DownloadFeed | None) -> QWidget:
        """The Model tab: the catalog page (when the window gives the store), then a model file or a server."""
        model_tab = QWidget()
        model_tab_layout = QVBoxLayout(model_tab)
        if store is not None and tasks is not None and feed is not None:
            self.model_page = ModelPage(settings, store, tasks, feed)
            self.model_page.use_requested.connect(self.use_model)
            model_tab_layout.addWidget(self.model_page, 1)
        model_tab_layout.addWidget(self._other_models_box(settings))
        return model_tab

    def _other_models_box(self, settings: Settings) -> QGroupBox:
        """The choice of the bundled model, a model file or a server, with each one's fields."""
        model_box = QGroupBox(QCoreApplication.translate("SettingsDialog", "Other models: a file or a server"))
        model_layout = QVBoxLayout(model_box)
        self.kind_group = QButtonGroup(self)
        self.bundled = QRadioButton(
            QCoreApplication.translate("SettingsDialog", "The model that comes with StudyJobs (small, works offline)")
        )
        self.gguf = QRadioButton(QCoreApplication.translate("SettingsDialog", "A model file on this computer (GGUF)"))
        self.http = QRadioButton(QCoreApplication.translate("SettingsDialog", "A model server (OpenAI-compatible)"))
        for button in (self.bundled, self.gguf, self.http):
            self.kind_group.addButton(button)
            button.setAccessibleName(button.text())
            button.toggled.connect(self._update_model_fields)
        model_layout.addWidget(self.bundled)
        model_layout.addWidget(self.gguf)
        model_layout.addLayout(self._model_file_row(settings))
        model_layout.addWidget(self.http)
        model_layout.addLayout(self._server_form(settings))
        model_layout.addLayout(self._test_row())
        self.servers = ModelServersBox(api_key=self.typed_api_key)
        self.servers.chosen.connect(self.use_server)
        model_layout.addWidget(self.servers)
        model_layout.addLayout(self._context_row(settings.model.context))
        self._check_kind(settings.model)
        return model_box

    def _model_file_row(self, settings: Settings) -> QHBoxLayout:
        """The model file's path and its Choose… button."""
        row = QHBoxLayout()
        self.gguf_path = QLineEdit(str(settings.model.gguf_path or ""))
        self.gguf_path.setAccessibleName(QCoreApplication.translate("SettingsDialog", "Model file"))
        self.browse_gguf = QPushButton(QCoreApplication.translate("SettingsDialog", "Choose…"))
        self.browse_gguf.setAccessibleName(QCoreApplication.translate("SettingsDialog", "Choose the model file"))
        self.browse_gguf.clicked.connect(self._choose_gguf)
        row.addWidget(self.gguf_path, 1)
        row.addWidget(self.browse_gguf)
        return row

    def _server_form(self, settings: Settings) -> QFormLayout:
        """The server's address, model name and API key."""
        form = QFormLayout()
        self.endpoint = QLineEdit(settings.model.endpoint or "")
        self.endpoint.setPlaceholderText("http://127.0.0.1:8080/v1")
        self.endpoint.setAccessibleName(QCoreApplication.translate("SettingsDialog", "Server address"))
        self.model_name = QLineEdit(settings.model.model_name or "")
        self.model_name.setAccessibleName(QCoreApplication.translate("SettingsDialog", "Model name"))
        form.addRow(QCoreApplication.translate("SettingsDialog", "Server address"), self.endpoint)
        form.addRow(QCoreApplication.translate("SettingsDialog", "Model name"), self.model_name)
        self.api_key = ApiKeyField(settings.model.endpoint, settings.settings_path)
        form.addRow(QCoreApplication.translate("SettingsDialog", "API key"), self.api_key)
        return form

    def _test_row(self) -> QHBoxLayout:
        """Test connection and its result."""
        test_row = QHBoxLayout()
        self.test_button = QPushButton(QCoreApplication.translate("SettingsDialog", "Test connection"))
        self.test_button.setAccessibleName(QCoreApplication.translate("SettingsDialog", "Test connection"))
        self.test_button.clicked.connect(self.test_connection)
        self.test_result = QLabel()
        self.test_result.setWordWrap(True)
        test_row.addWidget(self.test_button)
        test_row.addWidget(self.test_result, 1)
        return test_row

    def _dialog_buttons(self) -> QDialogButtonBox:
        """Save and Cancel."""
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Save).setText(
            QCoreApplication.translate("SettingsDialog", "Save")
        )
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(
            QCoreApplication.translate("SettingsDialog", "Cancel")
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        return buttons

    def _context_row(self, context: int) -> QFormLayout:
        """The context window's spin box: 0 shows "Automatic" (from the model file and the memory available)."""
        self.context = QSpinBox()
        self.context.setRange(0, 131072)
        self.context.setSingleStep(512)
        self.context.setSpecialValueText(QCoreApplication.translate("SettingsDialog", "Automatic"))
        self.context.setSuffix(QCoreApplication.translate("SettingsDialog", " tokens"))
        self.context.setValue(context)
        label = QCoreApplication.translate("SettingsDialog", "Context window")
        self.context.setAccessibleName(label)
        self.context.setToolTip(
            QCoreApplication.translate(
                "SettingsDialog",
                "How much text the model reads at once. Automatic takes what the model was trained for, up to "
                "8,192 tokens, as far as this computer's memory allows; a larger figure needs more memory, and a "
                "server's own setting wins when it is smaller.",
            )
        )
        row = QFormLayout()
        row.addRow(label, self.context)
        return row

    def _check_kind(self, model: ModelSettings) -> None:
        {"bundled": self.bundled, "gguf": self.gguf, "http": self.http}[model.kind].setChecked(True)
        self.gguf_path.setText(str(model.gguf_path or ""))

    def use_model(self, model: CatalogModel) -> None:
        """Use the catalog's ``model`` now: save the model setting (only it) and emit :attr:`saved`."""
        settings = dataclasses.replace(self.settings, model=model_setting(self.settings, model))
        try:
            save_settings(settings)
        except (SettingsError, OSError) as exc:
            self.error.setText(str(exc))
            return
        self.settings = settings
        self._check_kind(settings.model)
        if self.model_page is not None:
            self.model_page.set_settings(settings)
        self.saved.emit(settings)

    def showEvent(self, event: QShowEvent) -> None:
        """Look for model servers the first time the dialog is shown (on the running event loop)."""
        super().showEvent(event)
        if not self._searched_once:
            self._searched_once = True
            self.servers.start_search()

    def done(self, result: int) -> None:
        """Close; a search for servers and a read of the keyring under way are stopped."""
        self.servers.cancel()
        self.api_key.stop_reading()
        super().done(result)

    def use_server(self, endpoint: str, model_name: str) -> None:
        """Use ``model_name`` on the server at ``endpoint``: the server choice, its address and model filled in."""
        self.http.setChecked(True)
        self.endpoint.setText(endpoint)
        self.model_name.setText(model_name)
        self.api_key.show_key_of(endpoint)

    def typed_api_key(self) -> str | None:
        """The API key in the field (sent to a typed server address when looking for servers)."""
        return self.api_key.key() or None

    def model_kind(self) -> str:
        """The chosen model kind."""
        return "gguf" if self.gguf.isChecked() else "http" if self.http.isChecked() else "bundled"

    def edited(self) -> Settings:
        """The settings as edited (raises :class:`SettingsError` for a bad value)."""
        kind = self.model_kind()
        model = dataclasses.replace(  # keeps what this dialog does not show (threads, sampling)
            self.settings.model,
            kind=kind,
            context=self.context.value(),
            gguf_path=Path(self.gguf_path.text().strip()) if self.gguf_path.text().strip() else None,
            endpoint=self.endpoint.text().strip() or None,
            model_name=self.model_name.text().strip() or None,
        )
        return dataclasses.replace(
            self.settings,
            model=model,
            **self.general.edited(self.settings),
        )

    def accept(self) -> None:
        """Validate, save, emit :attr:`saved` and close; a bad value is shown and the dialog stays open."""
        try:
            settings = self.edited()
            if AUTOSTART_AVAILABLE:
                if settings.autostart:
                    autostart.enable(*login_command())
                elif autostart.status() is autostart.AutostartStatus.ENABLED:
                    autostart.disable()
            if settings.model.kind == "http":
                self.api_key_changed = self.api_key.save(settings.model.endpoint)
            save_settings(settings)
        except (SettingsError, OSError, ValueError, ApiKeyError) as exc:
            self.error.setText(str(exc))
            return
        self.settings = settings
        self.saved.emit(settings)
        super().accept()

    def test_connection(self) -> None:
        """GET ``<endpoint>/models`` and say whether the server answered (result in :attr:`test_result`)."""
        endpoint = self.endpoint.text().strip().rstrip("/")
        if not endpoint.startswith(("http://", "https://")):
            self._tested(
                False,
                QCoreApplication.translate("SettingsDialog", "Type the server address first (http://… or https://…)."),
            )
            return
        request = QNetworkRequest(QUrl(f"{endpoint}/models"))
        request.setTransferTimeout(5000)
        key = self.api_key.key() or self.api_key.environment_key()
        if key:
            request.setRawHeader(b"Authorization", f"Bearer {key}".encode())
        self.test_button.setEnabled(False)
        self.test_result.setText(QCoreApplication.translate("SettingsDialog", "Testing…"))
        self.reply = self.network.get(request)
        self.reply.finished.connect(self._reply_finished)

    def _reply_finished(self) -> None:
        reply, self.reply = self.reply, None
        if reply is None:
            return
        self.test_button.setEnabled(True)
        status = reply.attribute(QNetworkRequest.Attribute.HttpStatusCodeAttribute)
        if reply.error() == QNetworkReply.NetworkError.NoError:
            self._tested(True, QCoreApplication.translate("SettingsDialog", "The server answered."))
        elif status:
            self._tested(
                False,
                QCoreApplication.translate("SettingsDialog", "The server answered with an error (HTTP {code}).").format(
                    code=status
                ),
            )
        else:
            self._tested(
                False,
                QCoreApplication.translate("SettingsDialog", "No answer from the server: {error}").format(
                    error=reply.errorString()
                ),
            )
        reply.deleteLater()

    def _tested(self, ok: bool, message: str) -> None:
        self.test_result.setText(message)
        self.connection_tested.emit(ok, message)

    def _update_model_fields(self) -> None:
        kind = self.model_kind()
        for widget in (self.gguf_path, self.browse_gguf):
            widget.setEnabled(kind == "gguf")
        for widget in (self.endpoint, self.model_name, self.test_button, self.api_key):
            widget.setEnabled(kind == "http")

    def _choose_gguf(self) -> None:
        dialog = QFileDialog(
            self,
            QCoreApplication.translate("SettingsDialog", "Choose the model file"),
            filter=QCoreApplication.translate("SettingsDialog", "GGUF models (*.gguf)"),
        )
        dialog.fileSelected.connect(self.gguf_path.setText)
        dialog.open()

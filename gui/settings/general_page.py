"""The settings dialog's General tab: jobs at once, the output folder, the language, notifications, the tray and
the login autostart. UI thread only; :class:`~gui.settings.dialog.SettingsDialog` saves what it reads here.

Its texts keep the ``SettingsDialog`` translation context.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from core.app.settings.config import Settings
from gui.worker import autostart

__all__ = ["AUTOSTART_AVAILABLE", "GeneralPage"]

AUTOSTART_AVAILABLE = autostart.status() is not autostart.AutostartStatus.UNSUPPORTED
"""Whether this system has a login autostart we can register with (otherwise the checkbox is not shown)."""


class GeneralPage(QWidget):
    """The General tab's fields, filled from ``settings``."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        general = QFormLayout()
        self.threads = QSpinBox()
        self.threads.setRange(1, 64)
        self.threads.setValue(settings.worker_threads)
        self.threads.setAccessibleName(QCoreApplication.translate("SettingsDialog", "Jobs at once"))
        general.addRow(QCoreApplication.translate("SettingsDialog", "Jobs at once"), self.threads)
        out_row = QHBoxLayout()
        self.output_dir = QLineEdit(str(settings.output_dir))
        self.output_dir.setAccessibleName(QCoreApplication.translate("SettingsDialog", "Output folder"))
        browse_out = QPushButton(QCoreApplication.translate("SettingsDialog", "Choose…"))
        browse_out.setAccessibleName(QCoreApplication.translate("SettingsDialog", "Choose the output folder"))
        browse_out.clicked.connect(self._choose_output)
        out_row.addWidget(self.output_dir, 1)
        out_row.addWidget(browse_out)
        general.addRow(QCoreApplication.translate("SettingsDialog", "Output folder"), out_row)
        self.language = QComboBox()
        self.language.setAccessibleName(QCoreApplication.translate("SettingsDialog", "Language"))
        for code, text in (
            ("system", QCoreApplication.translate("SettingsDialog", "Same as the system")),
            ("pt_BR", "Português (Brasil)"),
            ("en", "English"),
        ):
            self.language.addItem(text, code)
        self.language.setCurrentIndex(max(self.language.findData(settings.language), 0))
        general.addRow(QCoreApplication.translate("SettingsDialog", "Language"), self.language)
        self.notifications = QCheckBox(
            QCoreApplication.translate("SettingsDialog", "Tell me when a job finishes or fails")
        )
        self.notifications.setChecked(settings.notifications)
        self.hide_to_tray = QCheckBox(
            QCoreApplication.translate("SettingsDialog", "Closing the window keeps StudyJobs in the tray")
        )
        self.hide_to_tray.setChecked(settings.hide_to_tray)
        self.autostart = QCheckBox(QCoreApplication.translate("SettingsDialog", "Start the worker when I log in"))
        registered = autostart.status() in (autostart.AutostartStatus.ENABLED, autostart.AutostartStatus.NEEDS_APPROVAL)
        self.autostart.setChecked(settings.autostart or registered)
        self.autostart.setVisible(AUTOSTART_AVAILABLE)
        for box in (self.notifications, self.hide_to_tray, self.autostart):
            box.setAccessibleName(box.text())
            general.addRow(box)
        layout.addLayout(general)
        layout.addStretch(1)
        self.note = QLabel(
            QCoreApplication.translate("SettingsDialog", "A new language applies the next time StudyJobs starts.")
        )
        self.note.setWordWrap(True)
        layout.addWidget(self.note)

    def edited(self, settings: Settings) -> dict[str, Any]:
        """The fields as :class:`Settings` values (``settings`` keeps its autostart where there is none)."""
        return {
            "worker_threads": self.threads.value(),
            "output_dir": Path(self.output_dir.text().strip()).expanduser(),
            "language": str(self.language.currentData()),
            "notifications": self.notifications.isChecked(),
            "hide_to_tray": self.hide_to_tray.isChecked(),
            "autostart": self.autostart.isChecked() if AUTOSTART_AVAILABLE else settings.autostart,
        }

    def _choose_output(self) -> None:
        dialog = QFileDialog(
            self, QCoreApplication.translate("SettingsDialog", "Choose the output folder"), str(self.output_dir.text())
        )
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.fileSelected.connect(self.output_dir.setText)
        dialog.open()

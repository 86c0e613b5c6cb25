"""The tray icon: show or hide the window, quit, and notify when jobs finish or fail (off-able).

When the platform has no tray (some Linux desktops, the offscreen test platform) the icon is simply not shown;
notifications then fall back to nothing, and the window never hides to a tray that does not exist.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QMenu, QSystemTrayIcon

from gui.texts import stored_text

__all__ = ["Tray"]


class Tray(QObject):
    """The tray icon and its menu. UI thread only.

    Signals:
        show_requested: The user clicked the icon or chose Show.
        quit_requested: The user chose Quit.
    """

    show_requested = Signal()
    quit_requested = Signal()

    def __init__(self, icon: QIcon, *, notifications: bool = True) -> None:
        super().__init__()
        self.notifications = notifications
        self.available = QSystemTrayIcon.isSystemTrayAvailable()
        self.sent: list[tuple[str, str]] = []
        self.icon = QSystemTrayIcon(icon)
        self.icon.setToolTip("StudyJobs")
        self.menu = QMenu()
        show = QAction(QCoreApplication.translate("Tray", "Show StudyJobs"), self.menu)
        show.triggered.connect(self.show_requested)
        quit_action = QAction(QCoreApplication.translate("Tray", "Quit"), self.menu)
        quit_action.triggered.connect(self.quit_requested)
        self.menu.addAction(show)
        self.menu.addSeparator()
        self.menu.addAction(quit_action)
        self.icon.setContextMenu(self.menu)
        self.icon.activated.connect(self._activated)
        if self.available:
            self.icon.show()

    def notify(self, title: str, message: str, *, error: bool = False) -> bool:
        """Show a desktop notification (when allowed and possible). Returns whether one was sent."""
        if not self.notifications:
            return False
        self.sent.append((title, message))
        if not (self.available and QSystemTrayIcon.supportsMessages()):
            return False
        kind = QSystemTrayIcon.MessageIcon.Warning if error else QSystemTrayIcon.MessageIcon.Information
        self.icon.showMessage(title, message, kind, 8000)
        return True

    def notify_finished(self, name: str, status: str, error: str | None) -> bool:
        """Notify that a job ended: ``done`` as news, anything else (failed) as a warning with its reason.

        ``error`` is the job's stored ``error`` (shown in the window's language).
        """
        if status == "done":
            return self.notify(
                QCoreApplication.translate("MainWindow", "Finished: {name}").format(name=name),
                QCoreApplication.translate("MainWindow", "The job is done."),
            )
        return self.notify(
            QCoreApplication.translate("MainWindow", "Stopped: {name}").format(name=name),
            stored_text(error),
            error=True,
        )

    def close(self) -> None:
        """Remove the icon."""
        self.icon.hide()
        self.icon.setContextMenu(None)  # type: ignore[arg-type]
        self.menu.deleteLater()

    def _activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason in (QSystemTrayIcon.ActivationReason.Trigger, QSystemTrayIcon.ActivationReason.DoubleClick):
            self.show_requested.emit()

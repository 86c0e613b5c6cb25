"""The window's details area: the selected row's details in one tab, its study guide in another.

The study guide tab comes to the front when the viewer asks for it (the system could not open the guide's file).
UI thread only.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QTabWidget, QWidget

from gui.guide.viewer import GuideViewer

__all__ = ["DetailsTabs"]


class DetailsTabs(QTabWidget):
    """A tab for ``details`` and one for ``viewer``.

    Args:
        details: The details panel.
        viewer: The study guide viewer.
    """

    def __init__(self, details: QWidget, viewer: GuideViewer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("details-tabs")
        self.details, self.viewer = details, viewer
        self.addTab(details, QCoreApplication.translate("DetailsTabs", "Details"))
        self.addTab(viewer, QCoreApplication.translate("DetailsTabs", "Study guide"))
        self.setTabToolTip(1, QCoreApplication.translate("DetailsTabs", "Read the study guide here"))
        viewer.show_requested.connect(self.show_guide)

    def show_guide(self) -> None:
        """Bring the study guide tab to the front."""
        self.setCurrentWidget(self.viewer)

    def show_details(self) -> None:
        """Bring the details tab to the front."""
        self.setCurrentWidget(self.details)

"""The window's model parts, installed together: the download feed, the status bar's download note, the first
run's welcome panel, and using a catalog model (save the setting, then restart the worker).

UI thread only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QBoxLayout, QStatusBar

from core.app.models.catalog import CatalogModel
from core.app.models.library import model_setting
from core.app.settings.config import Settings, save_settings
from core.store import JobStore
from gui.models.download_feed import DownloadFeed, DownloadNote
from gui.models.welcome_panel import WelcomePanel, remember_welcome, welcome_shown
from gui.tasks import TaskGroup

__all__ = ["ModelControls"]


class ModelControls:
    """Installs and holds the window's model parts.

    Args:
        store: The job store.
        tasks: The window's task group.
        status_bar: Where the download note goes.
        settings: The current settings (a callable: they change when saved).
        saved: Called with new settings after a model is chosen (the window's settings-saved path).
        open_model_settings: Opens Settings on its Model tab.
    """

    def __init__(
        self,
        store: JobStore[Any],
        tasks: TaskGroup,
        status_bar: QStatusBar,
        settings: Callable[[], Settings],
        saved: Callable[[Settings], None],
        open_model_settings: Callable[[], None],
    ) -> None:
        self.store, self.tasks, self._settings, self._saved = store, tasks, settings, saved
        self.open_model_settings = open_model_settings
        self.feed = DownloadFeed(store, tasks)
        self.note = DownloadNote(self.feed)
        self.note.open_requested.connect(open_model_settings)
        status_bar.addPermanentWidget(self.note)
        self.welcome: WelcomePanel | None = None

    def offer_welcome(self, layout: QBoxLayout, *, first_run: bool, ram: int | None = None) -> WelcomePanel | None:
        """Put the welcome panel at the top of ``layout`` on a first run, once per data folder."""
        settings = self._settings()
        if not first_run or welcome_shown(settings.data_dir):
            return None
        self.welcome = WelcomePanel(settings, self.store, self.tasks, self.feed, ram=ram)
        self.welcome.use_requested.connect(self.use_model)
        self.welcome.settings_requested.connect(self.open_model_settings)
        layout.insertWidget(0, self.welcome)
        remember_welcome(settings.data_dir)
        self.welcome.search_servers()
        return self.welcome

    def use_model(self, model: CatalogModel) -> Settings:
        """Save the model setting that uses ``model`` and pass the new settings on (the worker then restarts)."""
        current = self._settings()
        settings = dataclasses.replace(current, model=model_setting(current, model))
        save_settings(settings)
        self._saved(settings)
        return settings

    def start(self) -> None:
        """Follow the downloads (the window shows)."""
        self.feed.start()

    def stop(self) -> None:
        """Stop following them (the window hides or closes)."""
        self.feed.stop()

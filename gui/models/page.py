"""Settings → Model: the model in use, the catalog with what fits this computer, downloads, Use and Remove.

Use emits :attr:`ModelPage.use_requested`. UI thread only; store calls run on the window's task group. The
cards and their actions: docs/design/window.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QFileSystemWatcher, Signal
from PySide6.QtWidgets import QLabel, QScrollArea, QVBoxLayout, QWidget

from core.app.models.catalog import CatalogError, CatalogModel
from core.app.models.library import (
    available_ram,
    catalog_entry_for,
    library_catalog,
    model_states,
    remove_model,
    start_download,
)
from core.app.settings.config import Settings
from core.app.timing.speeds import SPEEDS_FILE
from core.store import JobStore
from gui.models.card import ModelCard, guide_time_text
from gui.models.download_feed import DownloadFeed
from gui.tasks import TaskGroup

__all__ = ["ModelPage", "current_model_text"]


def current_model_text(settings: Settings, catalog: list[CatalogModel]) -> str:
    """The model in use, in words: a catalog model's name, a file's name, or a server's model and address."""
    entry = catalog_entry_for(settings, catalog)
    model = settings.model
    if entry is not None:
        name = entry.name
    elif model.kind == "gguf" and model.gguf_path is not None:
        name = QCoreApplication.translate("ModelPage", "the file {file}").format(file=model.gguf_path.name)
    elif model.kind == "http":
        name = QCoreApplication.translate("ModelPage", "{model} on the server {endpoint}").format(
            model=model.model_name or "?", endpoint=model.endpoint
        )
    else:
        name = QCoreApplication.translate("ModelPage", "the bundled demo model")
    return QCoreApplication.translate("ModelPage", "Model in use: {name}").format(name=name)


class ModelPage(QWidget):
    """The Model page.

    Args:
        settings: The saved settings (:meth:`set_settings` after each save).
        store: The job store (download jobs).
        tasks: Where the store calls run.
        feed: The window's download feed (the page refreshes on each of its changes).
        ram: The memory to judge "fits" against (default: what the system says is available).

    Signals:
        use_requested: The user chose a downloaded (or the bundled) model (the :class:`CatalogModel`).
    """

    use_requested = Signal(object)

    def __init__(
        self,
        settings: Settings,
        store: JobStore[Any],
        tasks: TaskGroup,
        feed: DownloadFeed,
        *,
        ram: int | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.settings, self.store, self.tasks, self.feed, self._ram = settings, store, tasks, feed, ram
        layout = QVBoxLayout(self)
        self.current = QLabel()
        self.current.setWordWrap(True)
        self.current.setAccessibleName(QCoreApplication.translate("ModelPage", "Model in use"))
        layout.addWidget(self.current)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        layout.addWidget(self.problem)
        self.cards: dict[str, ModelCard] = {}
        holder = QWidget()
        self.list_layout = QVBoxLayout(holder)
        try:
            self.catalog = library_catalog()
        except CatalogError as error:
            self.catalog = []
            self.problem.setText(
                QCoreApplication.translate("ModelPage", "The model catalog cannot be read: {error}").format(error=error)
            )
        self.problem.setVisible(bool(self.problem.text()))
        states = self._states()
        self._timings: dict[str, str] = {}
        self._speeds_seen: tuple[int, int] | None = None
        self._speeds_watch = QFileSystemWatcher(self)
        self._speeds_watch.directoryChanged.connect(self._speeds_changed)
        self._speeds_watch.fileChanged.connect(self._speeds_changed)
        self._watch_speeds()
        for state in states:
            card = ModelCard(state)
            card.action.connect(self._act)
            self.cards[state.model.id] = card
            self.list_layout.addWidget(card)
        self.list_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(holder)
        scroll.setMinimumHeight(340)  # two and a half cards at least
        layout.addWidget(scroll, 1)
        self.extra = QVBoxLayout()
        """Room below the catalog for other model sources (a file, a server)."""
        layout.addLayout(self.extra)
        feed.changed.connect(self._jobs_changed)  # a bound slot: disconnected when the page goes
        self.refresh()

    def _jobs_changed(self, _jobs: object) -> None:
        self.refresh()

    def _states(self) -> list[Any]:
        ram = self._ram if self._ram is not None else available_ram()
        return model_states(self.settings, self.catalog, self.feed.jobs, ram=ram)

    def set_settings(self, settings: Settings) -> None:
        """Show ``settings``' model as the one in use (and the guide times for its thread count)."""
        self.settings = settings
        self._watch_speeds()
        self.refresh()

    def _speeds_path(self) -> Path:
        return Path(self.settings.data_dir) / SPEEDS_FILE

    def _watch_speeds(self) -> None:
        """Follow the data folder (a new speeds file arrives there by rename) and compute the guide times afresh."""
        folder = str(self.settings.data_dir)
        if Path(folder).is_dir() and folder not in self._speeds_watch.directories():
            self._speeds_watch.addPath(folder)
        self._speeds_seen = None
        self._time_guides()

    def _speeds_changed(self, _path: str) -> None:
        if self._time_guides():
            self.refresh()

    def _time_guides(self) -> bool:
        """Compute every card's guide time again if the speeds file changed since last time; whether it did (the
        folder also changes for other files: the file's time and size tell whether the speeds did)."""
        path = self._speeds_path()
        try:
            info = path.stat()
            seen = (info.st_mtime_ns, info.st_size)
        except OSError:
            seen = (0, 0)
        if seen == self._speeds_seen:
            return False
        self._speeds_seen = seen
        if seen != (0, 0) and str(path) not in self._speeds_watch.files():
            self._speeds_watch.addPath(str(path))  # written in place, or a rename replaced the file followed
        threads = self.settings.model.n_threads
        self._timings = {
            state.model.id: guide_time_text(state.model, self.settings.data_dir, threads, state.n_ctx)
            for state in self._states()
            if not state.model.demo
        }
        return True

    def refresh(self) -> None:
        """Show the current model and every card's state again (after a download job changed, or a save)."""
        self.current.setText(current_model_text(self.settings, self.catalog))
        for state in self._states():
            card = self.cards.get(state.model.id)
            if card is not None:
                card.show_state(state, self._timings.get(state.model.id, ""))

    def card(self, model_id: str) -> ModelCard:
        """The card of catalog entry ``model_id``."""
        return self.cards[model_id]

    def _act(self, action: str, model: CatalogModel) -> None:
        if action == "use":
            self.use_requested.emit(model)
            return
        calls = {
            "download": lambda: start_download(self.store, model),
            "retry": lambda: start_download(self.store, model),
            "cancel": lambda: self.store.cancel(self.cards[model.id].state.job.id),
            "remove": lambda: remove_model(self.store, self.settings, model),
        }
        self.tasks.start(self._then_refresh(calls[action]()), name=f"model-{action}")

    async def _then_refresh(self, call: Any) -> None:
        await call
        self.feed.refresh_now()
        if shiboken6.isValid(self):  # the dialog may have closed meanwhile
            self.refresh()

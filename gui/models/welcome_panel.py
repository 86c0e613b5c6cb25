"""The first run's welcome: the bundled model is for trying the app; here is the download that fits this computer.

Shown once on a fresh install (:func:`welcome_shown`, :func:`remember_welcome`). UI thread only; store calls run
on the window's task group. What it offers: docs/design/window.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QSettings, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from core.app.models.catalog import CatalogError, CatalogModel
from core.app.models.library import (
    ModelState,
    available_ram,
    library_catalog,
    model_states,
    recommended,
    start_download,
)
from core.app.models.servers import DEFAULT_TARGETS, FoundServer, ServerTarget, find_servers
from core.app.settings.config import Settings
from core.store import JobStore
from gui.models.card import download_text, guide_time_text, size_text
from gui.models.catalog_texts import good_for_text
from gui.models.download_feed import DownloadFeed
from gui.tasks import TaskGroup

__all__ = ["WelcomePanel", "remember_welcome", "welcome_shown"]


def _store(data_dir: Path) -> QSettings:
    return QSettings(str(data_dir / "window.ini"), QSettings.Format.IniFormat)


def welcome_shown(data_dir: Path) -> bool:
    """Whether the welcome panel was shown on this data folder before."""
    return str(_store(data_dir).value("welcome/shown", "")) == "true"


def remember_welcome(data_dir: Path) -> None:
    """Remember that the welcome panel was shown (it is not shown again)."""
    store = _store(data_dir)
    store.setValue("welcome/shown", "true")
    store.sync()


class WelcomePanel(QFrame):
    """The welcome panel.

    Signals:
        use_requested: The recommended model is downloaded and the user chose Use it (the :class:`CatalogModel`).
        settings_requested: The user wants to see the other models (Settings → Model).
    """

    use_requested = Signal(object)
    settings_requested = Signal()

    def __init__(
        self,
        settings: Settings,
        store: JobStore[Any],
        tasks: TaskGroup,
        feed: DownloadFeed,
        *,
        ram: int | None = None,
        servers: list[str] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.settings, self.store, self.tasks, self.feed = settings, store, tasks, feed
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAccessibleName(QCoreApplication.translate("WelcomePanel", "Welcome"))
        try:
            catalog = library_catalog()
        except CatalogError:
            catalog = []
        self._ram = available_ram() if ram is None else ram
        self.states = model_states(settings, catalog, feed.jobs, ram=self._ram)
        self.choice: ModelState | None = recommended(self.states)
        layout = QVBoxLayout(self)
        self._add_texts(layout, servers or [])
        layout.addLayout(self._buttons())
        feed.changed.connect(self._jobs_changed)
        self._jobs_changed(feed.jobs)

    def _add_texts(self, layout: QVBoxLayout, servers: list[str]) -> None:
        """The title, the word about the demo model, the recommended model, the servers found, the download's bar
        and status."""
        title = QLabel("<b>" + QCoreApplication.translate("WelcomePanel", "Welcome to StudyJobs") + "</b>")
        layout.addWidget(title)
        intro = QLabel(
            QCoreApplication.translate(
                "WelcomePanel",
                "The model that comes with StudyJobs is a small demo: it works offline and lets you try the app, "
                "but it is too small to summarise, so its study guides quote the document's key passages. "
                "For summaries in a model's own words, download a better model.",
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.offer = QLabel(self._offer_text())
        self.offer.setWordWrap(True)
        self.offer.setAccessibleName(QCoreApplication.translate("WelcomePanel", "Recommended model"))
        layout.addWidget(self.offer)
        self.servers = QLabel()
        self.servers.setWordWrap(True)
        layout.addWidget(self.servers)
        self.show_servers(servers)
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setAccessibleName(QCoreApplication.translate("WelcomePanel", "Download progress"))
        self.status = QLabel()
        self.status.setWordWrap(True)
        layout.addWidget(self.bar)
        layout.addWidget(self.status)

    def _buttons(self) -> QHBoxLayout:
        """Download, Use it, Other models…, Not now."""
        row = QHBoxLayout()
        self.download_button = QPushButton(
            QCoreApplication.translate("WelcomePanel", "Download {name}").format(name=self.choice.model.name)
            if self.choice
            else QCoreApplication.translate("WelcomePanel", "Download")
        )
        self.download_button.clicked.connect(self.download)
        self.use_button = QPushButton(QCoreApplication.translate("WelcomePanel", "Use it"))
        self.use_button.clicked.connect(self._use)
        self.others_button = QPushButton(QCoreApplication.translate("WelcomePanel", "Other models…"))
        self.others_button.clicked.connect(self.settings_requested)
        self.close_button = QPushButton(QCoreApplication.translate("WelcomePanel", "Not now"))
        self.close_button.clicked.connect(self.hide)
        for button in (self.download_button, self.use_button, self.others_button, self.close_button):
            button.setAccessibleName(button.text())
            row.addWidget(button)
        row.addStretch(1)
        return row

    def _offer_text(self) -> str:
        if self.choice is None:
            return QCoreApplication.translate(
                "WelcomePanel",
                "None of the catalog's models fits in the memory this computer has free ({ram}); the demo model "
                "stays in use. Settings → Model lists them all.",
            ).format(ram=size_text(self._ram))
        model = self.choice.model
        timing = guide_time_text(model, self.settings.data_dir, self.settings.model.n_threads, self.choice.n_ctx)
        text = QCoreApplication.translate(
            "WelcomePanel", "Recommended for this computer: {name} — a {size} download that needs {ram} of RAM."
        ).format(
            name=model.name,
            size=size_text(model.size_bytes or model.approx_bytes),
            ram=size_text(self.choice.ram_needed),
        )
        return " ".join(part for part in (text, good_for_text(model), timing) if part)

    def show_servers(self, servers: list[str]) -> None:
        """Name the local model servers found (``"Ollama at http://127.0.0.1:11434"`` …); hidden when none."""
        self.servers.setText(
            QCoreApplication.translate(
                "WelcomePanel",
                "A model server answers on this computer: {servers}. Settings → Model can use it instead.",
            ).format(servers=", ".join(servers))
            if servers
            else ""
        )
        self.servers.setVisible(bool(servers))

    def search_servers(self, targets: Sequence[ServerTarget] = DEFAULT_TARGETS) -> None:
        """Look for local model servers (Ollama, LM Studio, llama.cpp's) and name those that answer."""
        self.tasks.start(self._search(targets), name="welcome-servers")

    async def _search(self, targets: Sequence[ServerTarget]) -> None:
        found = await find_servers(targets)
        self.show_servers([_server_words(server) for server in found if server.found])

    def download(self) -> None:
        """Start the recommended model's download (the window stays usable; the bar follows it)."""
        if self.choice is not None:
            self.download_button.setEnabled(False)
            self.tasks.start(self._start(self.choice.model), name="welcome-download")

    async def _start(self, model: CatalogModel) -> None:
        await start_download(self.store, model)
        self.feed.refresh_now()

    def _use(self) -> None:
        if self.choice is not None:
            self.use_requested.emit(self.choice.model)
            self.hide()

    def _jobs_changed(self, jobs: dict[str, Any]) -> None:
        if self.choice is None:
            for widget in (self.bar, self.status, self.download_button, self.use_button):
                widget.setVisible(False)
            return
        model = self.choice.model
        self.choice = next(s for s in model_states(self.settings, [model], jobs, ram=self._ram))
        job, done = self.choice.job, self.choice.downloaded
        showing = job is not None and not done
        self.bar.setVisible(showing)
        self.status.setVisible(showing or done)
        if showing:
            self.bar.setValue(round(job.progress * 1000))
            self.status.setText(download_text(job))
        elif done:
            self.status.setText(
                QCoreApplication.translate("WelcomePanel", "{name} is downloaded and ready.").format(name=model.name)
            )
        self.download_button.setVisible(not done and not self.choice.downloading)
        self.download_button.setEnabled(True)
        if job is not None and job.status in ("failed", "cancelled"):
            self.download_button.setText(QCoreApplication.translate("WelcomePanel", "Try again"))
        self.use_button.setVisible(done)


def _server_words(server: FoundServer) -> str:
    """``"Ollama (qwen2.5:3b, llama3.2)"``: the server's name and its first models."""
    models = ", ".join(server.models[:3]) + (", …" if len(server.models) > 3 else "")
    return f"{server.target.name} ({models})" if models else server.target.name

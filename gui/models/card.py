"""One catalog model on the Model page: what it is, whether it fits, its download's live bar and its buttons.

Its buttons emit :attr:`ModelCard.action` with the action's name and the catalog entry. UI thread only.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QCoreApplication, QLocale, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from core.app.models.catalog import CatalogModel
from core.app.models.library import ModelState
from core.app.timing.guide_time import Basis, guide_seconds
from core.progress import eta_seconds
from gui.models.catalog_texts import good_for_text
from gui.texts import eta_text, stored_text

__all__ = ["ModelCard", "download_text", "guide_time_text", "size_text"]


def size_text(count: float) -> str:
    """Bytes in the user's words: ``"2.1 GB"`` (``"2,1 GB"`` in Portuguese), ``"98 MB"`` below 1 GB."""
    locale = QLocale()
    if count >= 1e9:
        return QCoreApplication.translate("ModelCard", "{n} GB").format(n=locale.toString(count / 1e9, "f", 1))
    return QCoreApplication.translate("ModelCard", "{n} MB").format(
        n=locale.toString(max(count / 1e6, 0.1), "f", 0 if count >= 1e7 else 1)
    )


def guide_time_text(model: CatalogModel, data_dir: Any, threads: int | None, n_ctx: int | None = None) -> str:
    """ "A guide of 50 pages: about 40 min" for ``model`` on this computer, computed by the worker's own estimate
    (:func:`core.app.timing.guide_time.guide_seconds`), with where its speeds come from (``""`` when there is no
    figure)."""
    figure = guide_seconds(
        model.size_bytes or model.approx_bytes,
        model_file=model.filename,
        data_dir=data_dir,
        threads=threads,
        n_ctx=n_ctx,
        summaries=model.writes_summaries,
    )
    if figure is None:
        return ""
    text = QCoreApplication.translate("ModelCard", "A guide of 50 pages: {time}").format(time=eta_text(figure.seconds))
    return f"{text} {_basis_text(figure.basis)}"


def _basis_text(basis: str) -> str:
    if basis == Basis.MEASURED:
        return QCoreApplication.translate("ModelCard", "(from this model's own speed, measured on this computer)")
    if basis == Basis.BUNDLED_HERE:
        return QCoreApplication.translate(
            "ModelCard", "(scaled from this computer's speed with the bundled model; this model has not run here yet)"
        )
    return QCoreApplication.translate("ModelCard", "(estimated from the bundled model's speed)")


class ModelCard(QFrame):
    """A catalog entry's card. Signals: ``action(str, CatalogModel)``."""

    action = Signal(str, object)

    def __init__(self, state: ModelState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.model = state.model
        layout = QVBoxLayout(self)
        head = QHBoxLayout()
        self.name = QLabel(f"<b>{self.model.name}</b>")
        head.addWidget(self.name)
        self.badges = QLabel()
        self.badges.setAccessibleName(QCoreApplication.translate("ModelCard", "Fits this computer?"))
        head.addWidget(self.badges)
        head.addStretch(1)
        layout.addLayout(head)
        self.facts = QLabel()
        self.facts.setWordWrap(True)
        self.facts.setTextFormat(Qt.TextFormat.RichText)
        self.facts.setOpenExternalLinks(True)
        self.good_for = QLabel(good_for_text(self.model))
        self.good_for.setWordWrap(True)
        self.timing = QLabel()
        layout.addWidget(self.facts)
        layout.addWidget(self.good_for)
        layout.addWidget(self.timing)
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setTextVisible(True)
        self.bar.setAccessibleName(QCoreApplication.translate("ModelCard", "Download progress"))
        self.status = QLabel()
        self.status.setWordWrap(True)
        layout.addWidget(self.bar)
        layout.addWidget(self.status)
        row = QHBoxLayout()
        row.addStretch(1)
        self.buttons: dict[str, QPushButton] = {}
        for name, text in (
            ("download", QCoreApplication.translate("ModelCard", "Download")),
            ("cancel", QCoreApplication.translate("ModelCard", "Cancel")),
            ("retry", QCoreApplication.translate("ModelCard", "Retry")),
            ("use", QCoreApplication.translate("ModelCard", "Use")),
            ("remove", QCoreApplication.translate("ModelCard", "Remove")),
        ):
            button = QPushButton(text)
            button.setAccessibleName(f"{text} {self.model.name}")
            button.clicked.connect(lambda _c=False, n=name: self.action.emit(n, self.model))
            self.buttons[name] = button
            row.addWidget(button)
        layout.addLayout(row)
        self.state = state
        self.show_state(state)

    def show_state(self, state: ModelState, timing: str = "") -> None:
        """Show ``state`` (the entry, its fit, its file, its download job) and ``timing`` (the guide time)."""
        self.state = state
        model, job = state.model, state.job
        badges = [
            QCoreApplication.translate("ModelCard", "Fits this computer")
            if state.fits
            else QCoreApplication.translate("ModelCard", "Too big for this computer")
        ]
        if model.demo:
            badges.append(QCoreApplication.translate("ModelCard", "Demo · works offline"))
        if state.in_use:
            badges.append(QCoreApplication.translate("ModelCard", "In use"))
        elif state.downloaded and not model.bundled:
            badges.append(QCoreApplication.translate("ModelCard", "Downloaded"))
        self.badges.setText(" · ".join(badges))
        self.badges.setStyleSheet("" if state.fits else "color: #b3261e;")
        size = model.size_bytes or model.approx_bytes
        use = (
            QCoreApplication.translate("ModelCard", "commercial use allowed")
            if model.commercial_use
            else QCoreApplication.translate("ModelCard", "non-commercial: not for selling courses or any paid work")
        )
        facts = QCoreApplication.translate(
            "ModelCard", "{size} · needs {ram} of RAM · languages: {languages} · licence: {licence}"
        ).format(
            size=size_text(size),
            ram=size_text(state.ram_needed),
            languages=", ".join(model.languages),
            licence=f"{model.licence} ({use})",
        )
        link = QCoreApplication.translate("ModelCard", "licence terms")
        self.facts.setText(f'{html.escape(facts)} · <a href="{html.escape(model.licence_url)}">{html.escape(link)}</a>')
        self.facts.setToolTip(model.licence_url)
        self.timing.setText(timing)
        self.timing.setVisible(bool(timing))
        self._show_download(state, job)
        self._show_buttons(state, job)

    def _show_download(self, state: ModelState, job: Any | None) -> None:
        showing = job is not None and not state.downloaded and job.status != "done"
        self.bar.setVisible(showing)
        self.status.setVisible(showing)
        if not showing or job is None:
            return
        self.bar.setValue(round(job.progress * 1000))
        self.bar.setFormat(f"{round(job.progress * 100)} %")
        self.status.setText(download_text(job))

    def _show_buttons(self, state: ModelState, job: Any | None) -> None:
        active = state.downloading
        stopped = job is not None and job.status in ("failed", "cancelled") and not state.downloaded
        visible = {
            "download": not state.downloaded and not active and not stopped,
            "cancel": active,
            "retry": stopped,
            "use": state.downloaded and not state.in_use,
            "remove": not state.model.bundled and (state.downloaded or stopped),
        }
        for name, button in self.buttons.items():
            button.setVisible(visible[name])
        self.buttons["remove"].setEnabled(not state.in_use)
        self.buttons["remove"].setToolTip(
            QCoreApplication.translate("ModelCard", "Choose another model first") if state.in_use else ""
        )


def download_text(job: Any) -> str:
    """The download's line: waiting, bytes · rate · time left, the phase after the bytes, or why it stopped."""
    if job.status == "queued":
        return QCoreApplication.translate("ModelCard", "Waiting for the worker…")
    if job.status == "failed":
        return QCoreApplication.translate("ModelCard", "The download failed: {error}").format(
            error=stored_text(job.error)
        )
    if job.status == "cancelled":
        return QCoreApplication.translate("ModelCard", "Download stopped. Retry continues where it stopped.")
    detail = job.detail or {}
    done, total = detail.get("bytes_done"), detail.get("bytes_total")
    if job.stage != "download" or not isinstance(done, int) or not total:
        return stored_text(job.message) or QCoreApplication.translate("ModelCard", "Starting the download…")
    parts = [
        QCoreApplication.translate("ModelCard", "{done} of {total}").format(
            done=size_text(done), total=size_text(total)
        )
    ]
    rate = detail.get("bytes_per_second")
    if isinstance(rate, int | float) and rate > 0:
        parts.append(QCoreApplication.translate("ModelCard", "{rate}/s").format(rate=size_text(rate)))
    parts.append(eta_text(eta_seconds(job)))
    return " · ".join(parts)

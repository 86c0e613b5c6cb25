"""One bar per phase of a document — both parts, reading then writing: done (full), running, stopped, waiting.

The states come with the row (:class:`core.app.documents.view.PipelinePhase`, computed by the Qt-free core);
:func:`phase_states` hands them over and :class:`PhaseBars` draws them, keeping its bars and only updating their
values when the same phases come again.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QGridLayout, QLabel, QProgressBar, QWidget

from core.app.documents.view import PipelinePhase
from gui.texts import phase_label
from gui.theme import status_color

__all__ = ["PhaseBars", "PhaseState", "part_phase_label", "phase_states"]

PhaseState = PipelinePhase
"""What one phase's bar shows: ``name``, ``part``, ``state`` (``"done"``, ``"running"``, ``"stopped"`` where a
failed or cancelled part stopped, or ``"waiting"``) and ``fraction`` (0..1)."""


def phase_states(job: Any) -> list[PhaseState]:
    """The bars of a document (a :data:`gui.documents.table_model.JobRow`)."""
    return list(job.phases or ())


def part_phase_label(state: PhaseState) -> str:
    """A phase in the user's words, told apart by part where two parts use one word ("saving" the text or the
    guide)."""
    if state.part == "ingest" and state.name == "save":
        return QCoreApplication.translate("PhaseBars", "Saving the text")
    if state.part == "ingest" and state.name == "clean":
        return QCoreApplication.translate("PhaseBars", "Cleaning up the text")
    return phase_label(state.name)


class PhaseBars(QWidget):
    """A label and a bar per phase. UI thread only."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.bars: list[QProgressBar] = []
        self.labels: list[QLabel] = []
        self.states: list[PhaseState] = []
        self._names: list[tuple[str, str]] = []
        self.setAccessibleName(QCoreApplication.translate("PhaseBars", "Progress of each phase"))

    def show_job(self, job: Any) -> None:
        """Show the phases of ``job`` (rebuilds the bars only when the phases changed)."""
        states = phase_states(job)
        names = [(s.part, s.name) for s in states]
        if names != self._names:
            self._rebuild(states)
        for bar, label, state in zip(self.bars, self.labels, states, strict=True):
            bar.setValue(round(state.fraction * 1000))
            stopped = "failed" if job.status == "failed" else "cancelled"  # the part that stopped ended the document
            shown = {"done": "done", "running": "running", "stopped": stopped, "waiting": "queued"}[state.state]
            palette = bar.palette()
            palette.setColor(QPalette.ColorRole.Highlight, status_color(shown, self.palette()))
            bar.setPalette(palette)
            text = {
                "done": QCoreApplication.translate("PhaseBars", "done"),
                "running": QCoreApplication.translate("PhaseBars", "{percent}%").format(
                    percent=round(state.fraction * 100)
                ),
                "stopped": QCoreApplication.translate("PhaseBars", "stopped at {percent}%").format(
                    percent=round(state.fraction * 100)
                ),
                "waiting": QCoreApplication.translate("PhaseBars", "waiting"),
            }[state.state]
            bar.setFormat(text)
            bar.setAccessibleDescription(f"{label.text()}: {text}")
        self.states = states

    def _rebuild(self, states: list[PhaseState]) -> None:
        for widget in [*self.bars, *self.labels]:
            self.grid.removeWidget(widget)
            widget.deleteLater()
        self.bars, self.labels = [], []
        for i, state in enumerate(states):
            text = part_phase_label(state)
            label = QLabel(text)
            bar = QProgressBar()
            bar.setRange(0, 1000)
            bar.setTextVisible(True)
            bar.setAccessibleName(text)
            label.setBuddy(bar)
            self.grid.addWidget(label, i, 0)
            self.grid.addWidget(bar, i, 1)
            self.labels.append(label)
            self.bars.append(bar)
        self._names = [(s.part, s.name) for s in states]

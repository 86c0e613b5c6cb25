"""One bar per phase of a job, from the phase spans on its row: done (full), running (its fraction), waiting.

:func:`phase_states` is the pure part (what each bar should show); :class:`PhaseBars` is the widget, which keeps
its bars and only updates their values when the same plan comes again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QGridLayout, QLabel, QProgressBar, QWidget

from gui.texts import phase_label
from gui.theme import status_color

__all__ = ["PhaseBars", "PhaseState", "phase_states"]


@dataclass(frozen=True)
class PhaseState:
    """What one phase's bar shows.

    Attributes:
        name: The plan's phase name.
        state: ``"done"``, ``"running"``, ``"stopped"`` (where a failed or cancelled job stopped) or ``"waiting"``.
        fraction: How full the bar is (0..1).
    """

    name: str
    state: str
    fraction: float


def phase_states(job: Any) -> list[PhaseState]:
    """The bars of a job (anything with ``status``, ``stage``, ``progress`` and ``phases``)."""
    states: list[PhaseState] = []
    progress = float(job.progress or 0.0)
    for entry in job.phases or []:
        name = str(entry.get("name", ""))
        start, end = float(entry.get("start", 0.0)), float(entry.get("end", 0.0))
        width = end - start
        fraction = min(max((progress - start) / width, 0.0), 1.0) if width > 0 else 0.0
        if job.status == "done" or entry.get("finished_at") or (width > 0 and progress >= end - 1e-9):
            states.append(PhaseState(name, "done", 1.0))
        elif name == job.stage and job.status == "running":
            states.append(PhaseState(name, "running", fraction))
        elif name == job.stage and job.status in ("failed", "cancelled"):
            states.append(PhaseState(name, "stopped", fraction))
        elif fraction > 0 and job.status == "running":
            states.append(PhaseState(name, "running", fraction))
        else:
            states.append(PhaseState(name, "waiting", 0.0))
    return states


class PhaseBars(QWidget):
    """A label and a bar per phase. UI thread only."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.bars: list[QProgressBar] = []
        self.labels: list[QLabel] = []
        self.states: list[PhaseState] = []
        self._names: list[str] = []
        self.setAccessibleName(QCoreApplication.translate("PhaseBars", "Progress of each phase"))

    def show_job(self, job: Any) -> None:
        """Show the phases of ``job`` (rebuilds the bars only when the plan changed)."""
        states = phase_states(job)
        names = [s.name for s in states]
        if names != self._names:
            self._rebuild(names)
        status = str(job.status)
        for bar, label, state in zip(self.bars, self.labels, states, strict=True):
            bar.setValue(round(state.fraction * 1000))
            shown = {"done": "done", "running": "running", "stopped": status, "waiting": "queued"}[state.state]
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

    def _rebuild(self, names: list[str]) -> None:
        for widget in [*self.bars, *self.labels]:
            self.grid.removeWidget(widget)
            widget.deleteLater()
        self.bars, self.labels = [], []
        for i, name in enumerate(names):
            label = QLabel(phase_label(name))
            bar = QProgressBar()
            bar.setRange(0, 1000)
            bar.setTextVisible(True)
            bar.setAccessibleName(phase_label(name))
            label.setBuddy(bar)
            self.grid.addWidget(label, i, 0)
            self.grid.addWidget(bar, i, 1)
            self.labels.append(label)
            self.bars.append(bar)
        self._names = names

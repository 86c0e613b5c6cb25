"""The window's worker controls, installed together: Pause/Resume the queue, restarts for new settings, and the
selected job's log lines in the details. One call from the window (:func:`install_worker_controls`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import QMainWindow

from core.db import AsyncDatabaseManager
from gui.details.job_log import JobLogSection
from gui.details.panel import DetailsPanel
from gui.tasks import TaskGroup
from gui.worker.queue_pause import QueuePause
from gui.worker.restart import WorkerRestart
from gui.worker.status_corner import DaemonBar

__all__ = ["WorkerControls", "install_worker_controls"]


@dataclass(frozen=True)
class WorkerControls:
    """The parts, for the window to call (and tests to reach)."""

    pause: QueuePause
    restart: WorkerRestart
    job_log: JobLogSection


def install_worker_controls(
    window: QMainWindow,
    *,
    db: AsyncDatabaseManager,
    tasks: TaskGroup,
    bar: DaemonBar,
    details: DetailsPanel,
    log_dir: Path,
) -> WorkerControls:
    """Add the Pause/Resume action (toolbar and "Queue" menu), the restart-on-save logic and the "Log" section of
    ``details`` to ``window`` (after its widgets, menus and toolbar exist)."""
    pause = QueuePause(db, tasks, bar, window)
    pause.install(window)
    restart = WorkerRestart(db, tasks, bar, window)
    job_log = JobLogSection(log_dir, tasks)
    details.add_section(job_log)
    return WorkerControls(pause=pause, restart=restart, job_log=job_log)

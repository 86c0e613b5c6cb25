"""The window's worker controls, installed together: Pause/Resume the queue, restarts for new settings, and the
selected job's log lines in the details. One call from the window (:func:`install_worker_controls`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gui.job_log import JobLogSection
from gui.queue_pause import QueuePause
from gui.worker_restart import WorkerRestart

if TYPE_CHECKING:
    from gui.main_window import MainWindow

__all__ = ["WorkerControls", "install_worker_controls"]


@dataclass(frozen=True)
class WorkerControls:
    """The parts, for the window to call (and tests to reach)."""

    pause: QueuePause
    restart: WorkerRestart
    job_log: JobLogSection


def install_worker_controls(window: MainWindow) -> WorkerControls:
    """Add the Pause/Resume action (toolbar and "Queue" menu), the restart-on-save logic and the "Log" section of
    the details panel to ``window`` (after its widgets, menus and toolbar exist)."""
    pause = QueuePause(window.db, window.tasks, window.daemon_bar, window)
    pause.install(window)
    restart = WorkerRestart(window.db, window.tasks, window.daemon_bar, window)
    job_log = JobLogSection(window.settings.log_dir, window.tasks)
    window.details.add_section(job_log)
    return WorkerControls(pause=pause, restart=restart, job_log=job_log)

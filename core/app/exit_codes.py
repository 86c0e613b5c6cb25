"""The exit statuses of every StudyJobs process (the ``studyjobs`` command line, the worker, its watchdog, the
window), one table so that each number has one meaning. Plain ``int`` constants: they are process exit codes."""

from __future__ import annotations

__all__ = [
    "EXIT_ALREADY_RUNNING",
    "EXIT_DATABASE",
    "EXIT_FAILED",
    "EXIT_IDLE",
    "EXIT_JOB_STUCK",
    "EXIT_MISSING_LIBRARIES",
    "EXIT_OK",
    "EXIT_RESTART",
    "EXIT_USAGE",
]

EXIT_OK = 0
"""The command did what it was asked."""
EXIT_FAILED = 1
"""The command ran, and what it was asked failed (a job failed, a model cannot be removed …)."""
EXIT_USAGE = 2
"""The command line or the settings are wrong."""
EXIT_DATABASE = 3
"""The database cannot be opened or brought up to date."""
EXIT_RESTART = 4
"""The worker ends so that its watchdog starts it again at once (a restart was asked of it)."""
EXIT_JOB_STUCK = 5
"""The worker ended itself because a job stopped writing progress: the watchdog starts a fresh one."""
EXIT_IDLE = 6
"""The worker gave its memory back after its idle time: the watchdog starts a fresh one without a model loaded."""
EXIT_MISSING_LIBRARIES = 7
"""The window cannot start: the desktop libraries it needs are missing (the message names them)."""
EXIT_ALREADY_RUNNING = 8
"""Another worker already holds this data folder."""

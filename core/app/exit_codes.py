"""The exit statuses of the ``studyjobs`` command line, one set for all its commands."""

from __future__ import annotations

__all__ = ["EXIT_DATABASE", "EXIT_FAILED", "EXIT_OK", "EXIT_USAGE"]

EXIT_OK = 0
"""The command did what it was asked."""
EXIT_FAILED = 1
"""The command ran, and what it was asked failed (a job failed, a model cannot be removed …)."""
EXIT_USAGE = 2
"""The command line or the settings are wrong."""
EXIT_DATABASE = 3
"""The database cannot be opened or brought up to date."""

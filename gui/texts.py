"""The words the screen uses for statuses, job kinds, phases, times and durations — all translatable.

Every function is called on the UI thread after the translator is installed; the texts live in the ``Texts``
translation context.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import QCoreApplication, QLocale

from core.app.documents.counters import counter_text
from core.app.messages.sentences import render
from gui.i18n import current_language

__all__ = [
    "counters_text",
    "duration_text",
    "eta_text",
    "phase_label",
    "status_label",
    "stored_text",
    "timestamp_text",
    "tr",
]


def tr(text: str, disambiguation: str | None = None, n: int = -1) -> str:
    """Translate ``text`` in the ``Texts`` context (``n`` picks a plural form where ``%n`` appears)."""
    return QCoreApplication.translate("Texts", text, disambiguation, n)


def status_label(status: str) -> str:
    """A job status in the user's words (``"queued"`` → "Waiting")."""
    labels = {
        "queued": QCoreApplication.translate("Texts", "Waiting"),
        "running": QCoreApplication.translate("Texts", "Running"),
        "done": QCoreApplication.translate("Texts", "Done"),
        "failed": QCoreApplication.translate("Texts", "Failed"),
        "cancelled": QCoreApplication.translate("Texts", "Cancelled"),
    }
    return labels.get(status, status)


def phase_label(name: str) -> str:
    """A phase name from the plan, in the user's words (unknown names are shown as they are)."""
    labels = {
        "extract": QCoreApplication.translate("Texts", "Reading the document"),
        "read": QCoreApplication.translate("Texts", "Reading the document"),
        "ingest": QCoreApplication.translate("Texts", "Reading the document"),
        "load_model": QCoreApplication.translate("Texts", "Loading the model"),
        "outline": QCoreApplication.translate("Texts", "Planning the sections"),
        "plan": QCoreApplication.translate("Texts", "Planning the sections"),
        "write": QCoreApplication.translate("Texts", "Writing the sections"),
        "sections": QCoreApplication.translate("Texts", "Writing the sections"),
        "summarize": QCoreApplication.translate("Texts", "Summarising"),
        "review": QCoreApplication.translate("Texts", "Reviewing"),
        "save": QCoreApplication.translate("Texts", "Saving the guide"),
        "export": QCoreApplication.translate("Texts", "Saving the guide"),
    }
    return labels.get(name, name.replace("_", " ").capitalize())


def duration_text(seconds: float | None) -> str:
    """``"1 h 05 min"``, ``"3 min 20 s"``, ``"12 s"``; ``""`` for ``None``."""
    if seconds is None or not math.isfinite(seconds):
        return ""
    total = max(round(seconds), 0)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return QCoreApplication.translate("Texts", "{h} h {m:02d} min").format(h=hours, m=minutes)
    if minutes:
        return QCoreApplication.translate("Texts", "{m} min {s:02d} s").format(m=minutes, s=secs)
    return QCoreApplication.translate("Texts", "{s} s").format(s=secs)


def eta_text(seconds: float | None) -> str:
    """The time left of a running job, rounded the way people say it (``"about 3 min"``).

    ``None`` (the worker has no basis for a figure yet, see :func:`core.progress.eta_seconds`) reads
    ``"estimating…"``. Call it for running jobs only.
    """
    if seconds is None or not math.isfinite(seconds):
        return QCoreApplication.translate("Texts", "estimating…")
    if seconds < 60:
        return QCoreApplication.translate("Texts", "less than a minute")
    if seconds < 3600:
        return QCoreApplication.translate("Texts", "about {m} min").format(m=max(1, round(seconds / 60)))
    return QCoreApplication.translate("Texts", "about {h} h {m:02d} min").format(
        h=int(seconds // 3600), m=round(seconds % 3600 / 60) % 60
    )


def timestamp_text(when: datetime | None, *, now: datetime | None = None) -> str:
    """A local time: ``"14:05"`` today, else a short date and time in the user's locale; ``""`` for ``None``."""
    if when is None:
        return ""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    local = when.astimezone()
    today = (now or datetime.now().astimezone()).date()
    locale = QLocale()
    if local.date() == today:
        return locale.toString(local.time(), QLocale.FormatType.ShortFormat)
    return locale.toString(local.replace(tzinfo=None), QLocale.FormatType.ShortFormat)


def stored_text(stored: str | None) -> str:
    """A job's stored ``message`` or ``error`` in the window's language (plain text is shown as it is)."""
    return render(stored, current_language())


def counters_text(detail: dict[str, Any] | None) -> str:
    """A job's counts in the window's language (*page 12 of 40 · section 2 of 5*; ``""`` when it has none)."""
    return counter_text(detail, current_language())

"""The sentences StudyJobs stores for the user, by code, in English and Brazilian Portuguese (plain data).

Each template uses :meth:`str.format` placeholders. A key ``code:format`` is a sharper sentence for one file format
(``encrypted:pdf``). :mod:`core.app.messages` looks them up. The sentences live by topic, both languages side by
side: :mod:`~core.app.message_catalog.general` (generic and worker), :mod:`~core.app.message_catalog.reading`
(reading documents), :mod:`~core.app.message_catalog.adding` (a path that cannot be added),
:mod:`~core.app.message_catalog.model` (the language model and model downloads) and
:mod:`~core.app.message_catalog.progress` (progress and counters). Add a sentence to both tables of its topic; a
code belongs to one topic only (a test checks that no topic repeats another's code).
"""

from __future__ import annotations

from core.app.message_catalog import adding, general, model, progress, reading

__all__ = ["EN", "PT_BR"]

_TOPICS = (general, reading, adding, model, progress)

EN: dict[str, str] = {code: text for topic in _TOPICS for code, text in topic.EN.items()}
PT_BR: dict[str, str] = {code: text for topic in _TOPICS for code, text in topic.PT_BR.items()}

"""The sentences StudyJobs stores for the user, by code, in English and Brazilian Portuguese (plain data), one module
per topic; a code belongs to one topic only. Read through :mod:`core.app.messages.sentences`
(docs/design/application.md, "Sentences for the user").
"""

from __future__ import annotations

from core.app.messages.catalog import adding, general, model, progress, reading

__all__ = ["EN", "PT_BR"]

_TOPICS = (general, reading, adding, model, progress)

EN: dict[str, str] = {code: text for topic in _TOPICS for code, text in topic.EN.items()}
PT_BR: dict[str, str] = {code: text for topic in _TOPICS for code, text in topic.PT_BR.items()}

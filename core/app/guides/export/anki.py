"""A study guide's cards as an Anki deck (``.apkg``, genanki); note and deck ids derive from the document's id, so a new
export updates the notes already imported (docs/design/documents.md, "Anki").

Pure I/O on the calling thread (a worker thread for screens); writes ``path`` only when the file is complete.
"""

from __future__ import annotations

import hashlib
import html
import itertools
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import genanki  # type: ignore[import-untyped]

from core.app.guides.export.cards import Card
from core.app.storage.files import write_whole

__all__ = ["MODEL_ID", "deck_id", "note_guid", "note_id", "write_apkg"]

MODEL_ID = 1_764_620_311
"""The id of the StudyJobs note type (fixed: every deck shares it, so Anki keeps one note type)."""

_MODEL = genanki.Model(
    MODEL_ID,
    "StudyJobs card",
    fields=[{"name": "Front"}, {"name": "Back"}, {"name": "Page"}, {"name": "Chapter"}],
    templates=[
        {
            "name": "Card 1",
            "qfmt": "{{Front}}",
            "afmt": '{{FrontSide}}<hr id="answer">{{Back}}'
            '<div class="source">{{#Chapter}}{{Chapter}}{{/Chapter}}{{#Page}} · p. {{Page}}{{/Page}}</div>',
        }
    ],
    css=".card { font-family: sans-serif; font-size: 20px; text-align: left; }\n"
    ".source { margin-top: 1em; font-size: 14px; color: #666; }",
)


def _number(*parts: str, low: int = 1 << 30, span: int = 1 << 30) -> int:
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    return low + int.from_bytes(digest[:8], "big") % span


def deck_id(document_key: str) -> int:
    """The deck id of one document (the same for every export of its guides)."""
    return _number("studyjobs-deck", document_key)


def note_guid(document_key: str, card: Card) -> str:
    """The guid of ``card`` in a guide of the document ``document_key`` (the same in every export)."""
    return str(genanki.guid_for("studyjobs", document_key, card.kind, card.front.casefold()))


def note_id(document_key: str, card: Card) -> int:
    """The note id of ``card`` in a guide of the document ``document_key`` (the same in every export)."""
    return _number("studyjobs-note", document_key, card.kind, card.front.casefold(), low=10**12, span=10**12)


class _StableNote(genanki.Note):  # type: ignore[misc]
    """A genanki note written with a given id (genanki numbers notes from the export's time)."""

    def __init__(self, identifier: int, **options: Any) -> None:
        super().__init__(**options)
        self.identifier = identifier

    def write_to_db(self, cursor: Any, timestamp: float, deck_id: int, id_gen: Iterator[int]) -> None:
        super().write_to_db(cursor, timestamp, deck_id, itertools.chain([self.identifier], id_gen))


def write_apkg(cards: Sequence[Card], path: Path, *, deck_name: str, document_key: str) -> None:
    """Write ``cards`` to ``path`` as the deck ``deck_name`` (a temporary file renamed into place)."""
    deck = genanki.Deck(deck_id(document_key), deck_name or "StudyJobs")
    for position, card in enumerate(cards):
        fields = [html.escape(card.front), html.escape(card.back), html.escape(card.page), html.escape(card.section)]
        options = {
            "model": _MODEL,
            "fields": fields,
            "tags": [card.kind],
            "guid": note_guid(document_key, card),
            "due": position,
        }
        deck.add_note(_StableNote(note_id(document_key, card), **options))
    write_whole(path, lambda temporary: genanki.Package(deck).write_to_file(str(temporary)))

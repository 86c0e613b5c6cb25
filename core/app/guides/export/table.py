"""A study guide's cards as a CSV table: one row per key term or review question (columns: docs/design/documents.md).

Pure I/O on the calling thread; writes ``path`` only when the file is complete.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

from core.app.guides.export.cards import Card
from core.app.storage.files import write_whole

__all__ = ["COLUMNS", "cards_csv", "write_csv"]

COLUMNS = ("type", "front", "back", "page", "section")


def cards_csv(cards: Sequence[Card]) -> str:
    """The CSV text of ``cards`` (header row first; lines end with CRLF as RFC 4180 says)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(COLUMNS)
    for card in cards:
        writer.writerow([card.kind, card.front, card.back, card.page, card.section])
    return buffer.getvalue()


def write_csv(cards: Sequence[Card], path: Path) -> None:
    """Write ``cards`` to ``path`` (a temporary file renamed into place)."""
    text = cards_csv(cards)
    write_whole(path, lambda temporary: temporary.write_text(text, encoding="utf-8-sig", newline=""))

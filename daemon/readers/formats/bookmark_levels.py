"""Bookmarks that only wrap others: down from generic wrappers to the level that carries real titles.

:func:`without_wrappers` takes the wrappers out and moves what they hold up one level. Pure functions; thread-safe.
The rules: docs/design/readers.md.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

__all__ = ["WRAPPER_TITLES", "is_wrapper_title", "without_wrappers"]

Entry = tuple[str, int, int]
"""``(title, 1-based page, level)``, level 1 at the top, in the outline's order."""

WRAPPER_TITLES = frozenset({
    "artigos", "articles", "artikel", "base de conhecimento", "knowledge base", "base de connaissances",
    "contents", "table of contents", "conteudo", "conteudos", "sumario", "indice", "inhalt",
    "inhaltsverzeichnis", "table des matieres", "sommaire", "contenido", "contenidos", "capitulos", "chapters",
    "chapitres", "kapitel", "documentos", "documents", "documentacao", "documentation", "topicos", "topics",
    "secoes", "sections", "paginas", "pages", "bookmarks", "marcadores", "outline",
})  # fmt: skip
"""Titles that name a kind of content rather than a subject (compared lower-cased, without accents)."""

_MAX_ROUNDS = 6
_OVER_EVERYTHING = 0.8


def _plain(title: str) -> str:
    decomposed = unicodedata.normalize("NFKD", title.casefold())
    letters = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(letters.replace(":", " ").split())


def is_wrapper_title(title: str) -> bool:
    """Whether ``title`` names a kind of content ("Artigos", "Contents") rather than a subject."""
    return _plain(title) in WRAPPER_TITLES


def without_wrappers(entries: Sequence[Entry]) -> list[Entry]:
    """``entries`` without the wrappers of the top level (see docs/design/readers.md), their contents one level up.
    Entries that are no wrapper keep their place and order; a list without wrappers comes back unchanged."""
    current = list(entries)
    for _round in range(_MAX_ROUNDS):
        opened = _open_top_wrappers(current)
        if opened is None:
            break
        current = opened
    return current


def _open_top_wrappers(entries: list[Entry]) -> list[Entry] | None:
    """One round: the top level's wrappers removed and their entries moved up, or ``None`` when there is none."""
    if not entries:
        return None
    top = min(level for _title, _page, level in entries)
    tops = [index for index, entry in enumerate(entries) if entry[2] == top]
    holding = {index for index in tops if _holds(entries, index)}
    generic = {index for index in holding if is_wrapper_title(entries[index][0])}
    wrappers = holding if len(holding) == 1 and _share(entries, tops, min(holding)) >= _OVER_EVERYTHING else generic
    if not wrappers:
        return None
    result: list[Entry] = []
    inside = False
    for index, (title, page, level) in enumerate(entries):
        if level == top:
            inside = index in wrappers
            if inside:
                continue
            result.append((title, page, level))
        else:
            result.append((title, page, level - 1 if inside else level))
    return result


def _share(entries: Sequence[Entry], tops: Sequence[int], index: int) -> float:
    """The share of all entries that lie below the top-level entry at ``index``."""
    after = [t for t in tops if t > index]
    below = (after[0] if after else len(entries)) - index - 1
    return below / max(len(entries) - 1, 1)


def _holds(entries: Sequence[Entry], index: int) -> bool:
    """Whether the entry at ``index`` has entries below it (the next entry is deeper)."""
    return index + 1 < len(entries) and entries[index + 1][2] > entries[index][2]

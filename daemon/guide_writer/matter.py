"""Front and back matter: the parts of a document that carry no study content, kept out of the guide's sections.

:func:`set_aside` takes them out of the plan with a reason code; a guide always keeps at least one section. Pure
functions; thread-safe. The signals: docs/design/guide-writer.md.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from core.app.documents.structure import page_ranges

__all__ = ["MATTER_REASONS", "MIN_WORDS", "left_out_note", "left_out_pages", "matter_reason", "set_aside"]

MIN_WORDS = 30
"""A section with fewer words than this (a heading, a part's title page) is merged into its neighbour."""

_TITLES: dict[str, tuple[str, ...]] = {
    "title_page": (
        "title page", "title", "cover", "copyright", "colophon", "folha de rosto", "pagina de rosto", "capa",
        "ficha catalografica", "portada", "pagina de titulo", "creditos", "page de titre", "couverture",
        "titelseite", "titelblatt", "deckblatt", "impressum", "frontespizio", "copertina", "colofon",
    ),
    "contents": (
        "contents", "table of contents", "list of figures", "list of tables", "sumario", "indice", "indice geral",
        "conteudo", "lista de figuras", "lista de tabelas", "contenido", "contenidos", "tabla de contenidos",
        "indice general", "table des matieres", "sommaire", "liste des figures", "inhalt", "inhaltsverzeichnis",
        "abbildungsverzeichnis", "tabellenverzeichnis", "sommario", "indice generale", "elenco delle figure",
    ),
    "thanks": (
        "thanks", "thank you", "acknowledgments", "acknowledgements", "acknowledgment", "dedication", "obrigado",
        "obrigada", "agradecimentos", "agradecimento", "dedicatoria", "agradecimientos", "gracias",
        "remerciements", "merci", "dedicace", "danksagung", "danke", "widmung", "ringraziamenti", "grazie",
        "dedica",
    ),
    "index": (
        "index", "subject index", "name index", "indice remissivo", "indice alfabetico", "indice analitico",
        "indice onomastico", "index alphabetique", "stichwortverzeichnis", "sachregister",
        "indice dei nomi",
    ),
    "bibliography": (
        "bibliography", "references", "works cited", "bibliografia", "referencias", "referencias bibliograficas",
        "bibliographie", "references bibliographiques", "literaturverzeichnis", "literatur", "quellen",
        "riferimenti", "riferimenti bibliografici",
    ),
}  # fmt: skip
"""The usual names of each part, lower case and without accents (:func:`_plain`)."""

MATTER_REASONS = tuple(_TITLES)
"""Why passages are left out: the part of the document they are."""

_NOTES: dict[str, dict[str, str]] = {
    "en": {
        "template": "Pages left out: {pages} ({what}: no study content).",
        "title_page": "the title page", "contents": "the table of contents", "thanks": "thanks and dedication",
        "index": "the index", "bibliography": "the bibliography",
    },
    "pt": {
        "template": "Páginas não usadas: {pages} ({what}: sem conteúdo para estudo).",
        "title_page": "a folha de rosto", "contents": "o sumário", "thanks": "agradecimentos e dedicatória",
        "index": "o índice remissivo", "bibliography": "a bibliografia",
    },
    "es": {
        "template": "Páginas no usadas: {pages} ({what}: sin contenido de estudio).",
        "title_page": "la portada", "contents": "el índice", "thanks": "agradecimientos y dedicatoria",
        "index": "el índice alfabético", "bibliography": "la bibliografía",
    },
    "fr": {
        "template": "Pages non utilisées : {pages} ({what} : pas de contenu à étudier).",
        "title_page": "la page de titre", "contents": "la table des matières", "thanks": "remerciements et dédicace",
        "index": "l'index", "bibliography": "la bibliographie",
    },
    "de": {
        "template": "Nicht verwendete Seiten: {pages} ({what}: kein Lernstoff).",
        "title_page": "die Titelseite", "contents": "das Inhaltsverzeichnis", "thanks": "Dank und Widmung",
        "index": "das Register", "bibliography": "das Literaturverzeichnis",
    },
    "it": {
        "template": "Pagine non usate: {pages} ({what}: nessun contenuto da studiare).",
        "title_page": "il frontespizio", "contents": "l'indice", "thanks": "ringraziamenti e dedica",
        "index": "l'indice analitico", "bibliography": "la bibliografia",
    },
}  # fmt: skip

_NUMBERING = re.compile(
    r"^(?:[\divxlc]+[.)]?\s+|chapter\s+\d+\s*|cap[ií]tulo\s+\d+\s*"
    r"|(?:appendix|apendice|anexo|annexe|anhang|appendice)\s+[a-z\d]+[.:)]?\s+|[a-z][.)]?\s+)",
    re.IGNORECASE,
)
"""A title's number: "3. ", "IV ", "Chapter 2 ", an appendix's letter ("F References", "Appendix B: Index")."""
_NUMBER = re.compile(r"^\d+(?:\.\d+)*$")
_SENTENCE_END = re.compile(r"[^\W\d_]{2,}[.!?](?:\s|$)")

Section = tuple[str, list[int]]


def _plain(title: str) -> str:
    """``title`` lower case, without accents, numbering or punctuation: "1. Obrigado!" → "obrigado"."""
    bare = unicodedata.normalize("NFKD", title.casefold())
    bare = "".join(ch for ch in bare if not unicodedata.combining(ch))
    bare = _NUMBERING.sub("", bare.strip())
    return " ".join(re.sub(r"[^\w\s]", " ", bare).split())


_BY_TITLE = {name: reason for reason, names in _TITLES.items() for name in names}
_INDEX_ENDINGS = (" index", " indexes", " indices")
"""How the English or French name of an index of some kind ends ("Concept index", "Function and variable index")."""


def _looks_like_contents(text: str) -> bool:
    """Many page and section numbers and hardly a sentence: a table of contents, a list of figures, an index."""
    words = text.split()
    if len(words) < 20:
        return False
    numbers = sum(1 for w in words if _NUMBER.match(w.strip(".,;:")))
    return numbers / len(words) >= 0.15 and len(_SENTENCE_END.findall(text)) * 100 < 2 * len(words)


def matter_reason(title: str, text: str) -> str | None:
    """Why a section titled ``title`` with the text ``text`` is front or back matter, or ``None`` when it may hold
    study content."""
    plain = _plain(title)
    reason = _BY_TITLE.get(plain)
    if reason is not None:
        return reason
    if plain.endswith(_INDEX_ENDINGS):  # "Concept index", "Function and variable index"
        return "index"
    return "contents" if _looks_like_contents(text) else None


def _words(passages: Sequence[str], numbers: Sequence[int]) -> int:
    return sum(len(passages[n - 1].split()) for n in numbers)


def set_aside(
    sections: Sequence[tuple[str, Sequence[int]]], passages: Sequence[str]
) -> tuple[list[Section], list[tuple[str, tuple[int, ...]]]]:
    """The plan's sections without the front and back matter, and what was left out.

    Args:
        sections: Titles and 1-based passage numbers, in document order.
        passages: The plan's passages.

    Returns:
        The sections kept (a very short one merged into its neighbour) and the passages left out with their
        reason, in document order. At least one section is kept.
    """
    found = [matter_reason(t, "\n\n".join(passages[n - 1] for n in numbers)) for t, numbers in sections]
    start = 0
    while start < len(sections) and found[start] is not None:
        start += 1
    end = len(sections)
    while end > start and found[end - 1] is not None:
        end -= 1
    if start == end:  # all of it looks like matter: keep it all rather than write nothing
        start, end = 0, len(sections)
    left_out = [(str(found[i]), tuple(sections[i][1])) for i in (*range(start), *range(end, len(sections)))]
    kept: list[Section] = [(t, list(numbers)) for t, numbers in sections[start:end]]
    return _merge_short(kept, passages), left_out


def _merge_short(sections: list[Section], passages: Sequence[str]) -> list[Section]:
    """Each section under :data:`MIN_WORDS` words joined to the next one (the last one to the one before), its
    neighbour's title kept."""
    merged: list[Section] = []
    carried: list[int] = []
    for title, numbers in sections:
        numbers = carried + numbers
        carried = []
        if _words(passages, numbers) < MIN_WORDS and len(sections) > 1:
            carried = numbers
            continue
        merged.append((title, numbers))
    if carried:
        if merged:
            merged[-1] = (merged[-1][0], merged[-1][1] + carried)
        else:
            merged.append((sections[-1][0], carried))
    return merged


def left_out_pages(
    left_out: Sequence[tuple[str, Sequence[int]]], pages: Sequence[Sequence[int]], used: set[int]
) -> list[tuple[str, list[int]]]:
    """For each reason, in order of first appearance, the pages its passages are on that no section cites
    (reasons whose pages are all cited are not listed)."""
    by_reason: dict[str, set[int]] = {}
    for reason, numbers in left_out:
        own = {p for n in numbers if n - 1 < len(pages) for p in pages[n - 1]}
        by_reason.setdefault(reason, set()).update(own - used)
    return [(reason, sorted(found)) for reason, found in by_reason.items() if found]


def left_out_note(reason: str, pages: Sequence[int], language: str) -> str:
    """The coverage table's line for pages left out for ``reason``, in ``language`` (English for another)."""
    notes = _NOTES.get(language, _NOTES["en"])
    return notes["template"].format(pages=page_ranges(list(pages)), what=notes.get(reason, reason))

"""The study cards a guide holds — key terms with their definitions, review questions with their answers — each with
its section and page (:func:`guide_cards`; what counts as a card: docs/design/documents.md, "Study cards").

Pure functions, standard library only, safe on any thread.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from core.app.guides.export.blocks import Block, parse_blocks, plain_text

__all__ = ["QUESTION", "TERM", "Card", "guide_cards", "guide_title", "page_reference"]

TERM, QUESTION = "term", "question"

_NUMBERING = r"^\W*(?:\d+(?:\.\d+)*\.?\s*)?(?:"
_TERM_HEADINGS = re.compile(
    _NUMBERING + r"key terms?|terms|key concepts|glossary|vocabulary|"  # en
    r"termos(?:[- ]chave)?|palavras[- ]chave|conceitos(?:[- ]chave)?|gloss[áa]rio|vocabul[áa]rio|"  # pt
    r"t[ée]rminos(?: clave)?|conceptos(?: clave)?|glosario|"  # es
    r"termes(?: cl[ée]s?)?|notions(?: cl[ée]s?)?|glossaire|vocabulaire|"  # fr
    r"(?:schl[üu]ssel)?begriffe|glossar|wortschatz|"  # de
    r"termini(?: chiave)?|concetti(?: chiave)?|glossario|vocabolario"  # it
    r")\W*$",
    re.IGNORECASE,
)
_QUESTION_HEADINGS = re.compile(
    _NUMBERING + r"(?:review |study )?questions(?: for review)?|quiz|self[- ]check|check your understanding|"
    r"exercises|quest[õo]es(?: de revis[ãa]o)?|perguntas(?: de revis[ãa]o)?|exerc[íi]cios|autoavalia[çc][ãa]o|"
    r"preguntas(?: de repaso| de revisi[óo]n)?|ejercicios|questions de r[ée]vision|exercices|"
    r"(?:wiederholungs|kontroll)?fragen(?: zur wiederholung)?|[üu]bungen|domande(?: di (?:ripasso|revisione))?|"
    r"esercizi"
    r")\W*$",
    re.IGNORECASE,
)
_QUESTION_LABEL = re.compile(
    r"^(?:\d+[.)]\s*)?(?:[qpfd]\s*\d*\s*:|(?:question|pergunta|quest[ãa]o|pregunta|frage|domanda)\s*\d*\s*[:.)])"
    r"\s*(?=\S)",
    re.IGNORECASE,
)
_ANSWER_LABEL = re.compile(
    r"^(?:[ar]\s*\d*\s*:|(?:answer|resposta|respuesta|r[ée]ponse|antwort|risposta)\s*\d*\s*[:.)])\s*(?=\S)",
    re.IGNORECASE,
)
_SOURCES_LABEL = re.compile(
    r"^(?:sources?|fontes?|fuentes?|quellen?|fonti|fonte|references?|refer[êe]ncias?|p[áa]ginas?|pages?)\s*:\s*",
    re.IGNORECASE,
)
_BOLD_TERM = re.compile(
    r"^(?:\*\*|__)(?P<term>[^*_]+?)(?P<colon>:?)(?:\*\*|__)\s*(?P<sep>[:—–-]?)\s*(?P<rest>.*)$", re.S
)
_PLAIN_TERM = re.compile(r"^(?P<term>[^:?]{1,80}?)\s*(?::|\s[—–-])\s+(?P<rest>\S.*)$", re.S)
_PAGE_HEADER = re.compile(r"^(?:pages?|p[áa]ginas?|p[áa]g\.?|pp?\.|seiten?|pagine?|pagina)$", re.IGNORECASE)
_PAGES = r"\d+(?:\s*[–—-]\s*\d+)?(?:\s*(?:,|and|e|y|et|und)\s*\d+(?:\s*[–—-]\s*\d+)?)*"  # 12, 12–15, 3, 5–6 and 9
_PAGE_REFERENCE = re.compile(
    r"[\(\[]?\s*(?<!\w)(?:pp?|p[áa]gs?|pages?|p[áa]ginas?|pag|seiten?|s|pagg?|pagine)\.?\s*"
    r"(?P<pages>" + _PAGES + r")\s*[\)\]]?",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Card:
    """One note for a deck or a table row: ``kind`` is :data:`TERM` or :data:`QUESTION`; texts are plain."""

    kind: str
    front: str
    back: str
    page: str
    section: str


@dataclass(frozen=True, slots=True)
class _Line:
    text: str  # plain text of one line of a block
    kind: str
    level: int
    first: bool  # the block's first line


def page_reference(text: str) -> tuple[str, str]:
    """The pages cited in ``text`` ("12–15"; "" when none) and ``text`` without the citation."""
    found = None
    for match in _PAGE_REFERENCE.finditer(text):
        found = match  # the last citation is the card's own (a question may quote a "p." in its words)
    if found is None:
        return "", text.strip()
    pages = re.sub(r"\s*([–—-])\s*", "–", found.group("pages"))
    pages = re.sub(r"\s*,\s*", ", ", pages)
    rest = (text[: found.start()] + text[found.end() :]).strip()
    rest = re.sub(r"\s+([.,;:?!])", r"\1", rest)
    return pages, re.sub(r"\s{2,}", " ", rest).strip(" —–-")


def guide_title(markdown: str) -> str:
    """The guide's title: its first level-1 heading ("" when it has none)."""
    for block in parse_blocks(markdown):
        if block.kind == "heading" and block.level == 1:
            return plain_text(block.text)
    return ""


def _lines(blocks: list[Block]) -> Iterator[_Line]:
    for block in blocks:
        if block.kind in ("rule", "table", "code", "heading"):
            continue
        for number, line in enumerate(block.text.split("\n")):
            yield _Line(line, block.kind, block.level, number == 0)


def _term(line: _Line, in_terms: bool) -> tuple[str, str] | None:
    """(term, definition) when ``line`` states one."""
    text = line.text.strip()
    if (
        not line.first
        or _QUESTION_LABEL.match(plain_text(text))
        or _ANSWER_LABEL.match(plain_text(text))
        or _SOURCES_LABEL.match(plain_text(text))
    ):
        return None
    bold = _BOLD_TERM.match(text)
    if bold and (bold.group("colon") or bold.group("sep")) and bold.group("rest").strip():
        return plain_text(bold.group("term")), plain_text(bold.group("rest"))
    if in_terms and (plain := _PLAIN_TERM.match(plain_text(text))):
        return plain.group("term").strip(), plain.group("rest").strip()
    return None


class _Reader:
    """Walks a guide's blocks once, keeping the section, the heading's kind and a question waiting for its answer."""

    def __init__(self) -> None:
        self.cards: list[Card] = []
        self.section = ""
        self.section_pages: dict[str, str] = {}
        self.in_terms = self.in_questions = False
        self.question: str | None = None
        self.question_level = 0
        self.answer: list[str] = []

    def heading(self, block: Block) -> None:
        self.flush()
        title = plain_text(block.text)
        if block.level <= 2:
            self.section = title if block.level == 2 else ""
        self.in_terms = bool(_TERM_HEADINGS.match(title))
        self.in_questions = bool(_QUESTION_HEADINGS.match(title))

    def flush(self) -> None:
        """Store the waiting question when it has an answer."""
        if self.question is not None and self.answer:
            self.add(QUESTION, self.question, " ".join(self.answer))
        self.question, self.answer = None, []

    def add(self, kind: str, front: str, back: str) -> None:
        front_page, front = page_reference(front)
        back_page, back = page_reference(back)
        if front and back:
            self.cards.append(Card(kind, front, back, front_page or back_page, self.section))

    def line(self, line: _Line) -> None:
        text = plain_text(line.text)
        if not text:
            return
        if line.kind == "paragraph" and (_TERM_HEADINGS.match(text) or _QUESTION_HEADINGS.match(text)):
            self.flush()  # a label on a line of its own ("**Key terms**", "Review questions:") acts as a heading
            self.in_terms, self.in_questions = bool(_TERM_HEADINGS.match(text)), bool(_QUESTION_HEADINGS.match(text))
            return
        if sources := _SOURCES_LABEL.match(text):
            pages, _rest = page_reference(text[sources.end() :])
            self.flush()
            if pages and self.section not in self.section_pages:
                self.section_pages[self.section] = pages
            return
        if asked := _QUESTION_LABEL.match(text):
            self.flush()
            self.question, self.question_level = text[asked.end() :], line.level
            return
        if answered := _ANSWER_LABEL.match(text):
            if self.question is not None:
                self.answer.append(text[answered.end() :])
            return
        if self.question is not None:
            sibling = line.first and line.level <= self.question_level
            if not (sibling and (self.answer or _is_question(text))):
                self.answer.append(text)  # the answer, or more of it
                return
            self.flush()
        if self.in_questions and line.first and _is_question(text):
            self.question, self.question_level = text, line.level
            return
        if term := _term(line, self.in_terms):
            self.add(TERM, *term)

    def table(self, block: Block) -> None:
        """A table under a key terms heading (term, definition) or a questions heading (question, answer); a
        column headed "page" gives the card's page."""
        self.flush()
        if not (self.in_terms or self.in_questions) or len(block.rows) < 2:
            return
        header = [plain_text(cell) for cell in block.rows[0]]
        page_column = next((i for i, name in enumerate(header) if _PAGE_HEADER.match(name)), None)
        columns = [i for i in range(len(header)) if i != page_column][:2]
        if len(columns) < 2:
            return
        kind = TERM if self.in_terms else QUESTION
        for row in block.rows[1:]:
            cells = [plain_text(cell) for cell in row] + [""] * len(header)
            page = f"p. {cells[page_column]}" if page_column is not None and cells[page_column] else ""
            self.add(kind, cells[columns[0]], f"{cells[columns[1]]} {page}".strip())


def _is_question(text: str) -> bool:
    _pages, rest = page_reference(text)
    return rest.rstrip(" *_").endswith("?")


def guide_cards(markdown: str) -> list[Card]:
    """The key terms and review questions of a guide's Markdown, in the guide's order (see the module)."""
    reader = _Reader()
    blocks = parse_blocks(markdown)
    for block in blocks:
        if block.kind == "heading":
            reader.heading(block)
        elif block.kind == "table":
            reader.table(block)
        elif block.kind in ("rule", "code"):
            reader.flush()
        else:
            for line in _lines([block]):
                reader.line(line)
    reader.flush()
    seen: set[tuple[str, str]] = set()
    cards: list[Card] = []
    for card in reader.cards:
        key = (card.kind, card.front.casefold())
        if key in seen:
            continue
        seen.add(key)
        cards.append(card if card.page else replace(card, page=reader.section_pages.get(card.section, "")))
    return cards

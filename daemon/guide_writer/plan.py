"""The plan of a study guide: passages that remember where they came from, sections from the document's chapters
or cut to fit the model's context, and the sources each section cites.

Pure functions over plain data; thread-safe. What each function does: docs/design/guide-writer.md.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from core.app.documents.structure import Chapter, DocumentStructure, page_ranges, paragraphs
from daemon.guide_writer.matter import left_out_note, left_out_pages
from daemon.guide_writer.prompts import PROMPTS, Language

__all__ = [
    "GuidePlan",
    "Labels",
    "chapter_sections",
    "coverage_markdown",
    "fit_sections",
    "labels_for",
    "passage_pages",
    "passage_spans",
    "passages_digest",
    "sources_line",
    "split_at_subchapters",
    "top_chapters",
]

_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")

Span = tuple[int, int]
"""First and last 0-based paragraph of a passage."""

Labels = dict[str, str]

_LABELS: dict[str, Labels] = {
    "en": {
        "sources": "Sources",
        "pages": "p. {pages}",
        "paragraphs": "paragraphs {paragraphs}",
        "chapter": "chapter “{title}”",
        "coverage": "Coverage",
        "section": "Section",
        "where": "Source",
        "left_out": "Pages left out: {pages} (no text on the page: blank, an image or a scan).",
        "recognised": "Pages read from a picture by text recognition: {pages}; check their names and numbers.",
        "nothing_left_out": "Every page with text fed a section.",
        "continued": "{title} ({part})",
    },
    "pt": {
        "sources": "Fontes",
        "pages": "pág. {pages}",
        "paragraphs": "parágrafos {paragraphs}",
        "chapter": "capítulo “{title}”",
        "coverage": "Cobertura",
        "section": "Seção",
        "where": "Fonte",
        "left_out": "Páginas não usadas: {pages} (sem texto na página: em branco, uma imagem ou digitalizada).",
        "recognised": "Páginas lidas de uma imagem por reconhecimento de texto: {pages}; confira nomes e números.",
        "nothing_left_out": "Todas as páginas com texto foram usadas em alguma seção.",
        "continued": "{title} ({part})",
    },
    "es": {
        "sources": "Fuentes",
        "pages": "pág. {pages}",
        "paragraphs": "párrafos {paragraphs}",
        "chapter": "capítulo “{title}”",
        "coverage": "Cobertura",
        "section": "Sección",
        "where": "Fuente",
        "left_out": "Páginas no usadas: {pages} (sin texto en la página: en blanco, una imagen o escaneada).",
        "recognised": "Páginas leídas de una imagen por reconocimiento de texto: {pages}; compruebe nombres y cifras.",
        "nothing_left_out": "Todas las páginas con texto se usaron en alguna sección.",
        "continued": "{title} ({part})",
    },
    "fr": {
        "sources": "Sources",
        "pages": "p. {pages}",
        "paragraphs": "paragraphes {paragraphs}",
        "chapter": "chapitre « {title} »",
        "coverage": "Couverture",
        "section": "Section",
        "where": "Source",
        "left_out": "Pages non utilisées : {pages} (pas de texte sur la page : vide, une image ou un scan).",
        "recognised": "Pages lues dans une image par reconnaissance de texte : {pages} ; vérifiez noms et chiffres.",
        "nothing_left_out": "Chaque page avec du texte a servi à une section.",
        "continued": "{title} ({part})",
    },
    "de": {
        "sources": "Quellen",
        "pages": "S. {pages}",
        "paragraphs": "Absätze {paragraphs}",
        "chapter": "Kapitel „{title}“",
        "coverage": "Abdeckung",
        "section": "Abschnitt",
        "where": "Quelle",
        "left_out": "Nicht verwendete Seiten: {pages} (kein Text auf der Seite: leer, ein Bild oder ein Scan).",
        "recognised": "Seiten, deren Text aus einem Bild erkannt wurde: {pages}; Namen und Zahlen bitte prüfen.",
        "nothing_left_out": "Jede Seite mit Text ist in einen Abschnitt eingeflossen.",
        "continued": "{title} ({part})",
    },
    "it": {
        "sources": "Fonti",
        "pages": "p. {pages}",
        "paragraphs": "paragrafi {paragraphs}",
        "chapter": "capitolo «{title}»",
        "coverage": "Copertura",
        "section": "Sezione",
        "where": "Fonte",
        "left_out": "Pagine non usate: {pages} (nessun testo nella pagina: vuota, un'immagine o una scansione).",
        "recognised": "Pagine lette da un'immagine con il riconoscimento del testo: {pages}; verificate nomi e cifre.",
        "nothing_left_out": "Ogni pagina con testo è servita a una sezione.",
        "continued": "{title} ({part})",
    },
}


@dataclass(frozen=True, slots=True)
class GuidePlan:
    """The plan of a guide, between :meth:`GuideWriter.outline` and :meth:`GuideWriter.write_sections`.

    Attributes:
        language: The document's (or forced) language.
        passages: The numbered passages (1-based in ``sections``).
        sections: Each section's title and the passage numbers it covers, in document order.
        spans: Each passage's first and last 0-based paragraph of the text.
        pages: Each passage's 1-based pages (empty when the document has no pages).
        page_count: The document's pages, when it has pages.
        from_chapters: The sections are the document's own chapters (no outline was asked of the model).
        tokens: The passages' prompt tokens, all together.
        left_out: Passages no section holds because they carry no study content (title page, thanks, table of
            contents, index, bibliography): a reason code of :data:`daemon.guide_writer.matter.MATTER_REASONS` and the
            1-based passage numbers. Every passage is in exactly one section or here.
        recognised: The 1-based pages whose text was recognised from a picture (the coverage table names them).
    """

    language: Language
    passages: tuple[str, ...]
    sections: tuple[tuple[str, tuple[int, ...]], ...]
    spans: tuple[tuple[int, int], ...] = ()
    pages: tuple[tuple[int, ...], ...] = ()
    page_count: int | None = None
    from_chapters: bool = False
    tokens: int = 0
    left_out: tuple[tuple[str, tuple[int, ...]], ...] = ()
    recognised: tuple[int, ...] = ()

    def to_json(self) -> str:
        """What is stored of the plan: the sections, and a fingerprint of the passages they number."""
        data = {
            "language": self.language,
            "sections": [[title, list(numbers)] for title, numbers in self.sections],
            "from_chapters": self.from_chapters,
            "tokens": self.tokens,
            "left_out": [[reason, list(numbers)] for reason, numbers in self.left_out],
            "passages": len(self.passages),
            "digest": passages_digest(self.passages),
        }
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    def restored(self, stored: str) -> GuidePlan | None:
        """This plan (its passages cut from the same text, no sections yet) with the sections of ``stored``
        (:meth:`to_json`); ``None`` when ``stored`` is unreadable or was made from other passages."""
        try:
            data = json.loads(stored)
            if data["passages"] != len(self.passages) or data["digest"] != passages_digest(self.passages):
                return None
            sections = tuple((str(t), tuple(int(n) for n in numbers)) for t, numbers in data["sections"])
            left_out = tuple((str(r), tuple(int(n) for n in numbers)) for r, numbers in data.get("left_out", []))
            language = data["language"]
        except (ValueError, KeyError, TypeError):
            return None
        if language not in PROMPTS or not sections:
            return None
        held = [n for _t, numbers in (*sections, *left_out) for n in numbers]
        if sorted(held) != list(range(1, len(self.passages) + 1)):
            return None
        return replace(
            self,
            language=language,
            sections=sections,
            from_chapters=bool(data.get("from_chapters")),
            tokens=int(data.get("tokens", 0)),
            left_out=left_out,
        )


def passages_digest(passages: Sequence[str]) -> str:
    """A short fingerprint of the passages (a stored plan fits only the passages it numbered)."""
    return hashlib.sha256("\x00".join(passages).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def labels_for(language: str) -> Labels:
    """The citation words in ``language`` (English for a language without its own)."""
    return _LABELS.get(language, _LABELS["en"])


def passage_spans(
    text: str, max_chars: int = 1200, min_chars: int = 300, breaks: Collection[int] = ()
) -> list[tuple[str, Span]]:
    """Cut text into passages with the paragraphs each came from.

    A paragraph whose 0-based index is in ``breaks`` (where a chapter starts) always starts a passage, so no
    passage holds the end of one chapter and the start of the next. Paragraphs shorter than ``min_chars`` are
    merged with the next ones; a paragraph longer than ``max_chars`` is
    split at sentences, and a sentence longer than ``max_chars`` into pieces of ``max_chars``: nothing is cut
    away. Whitespace inside a paragraph is normalised.
    """
    pieces: list[tuple[str, int]] = []  # ("", index) closes paragraph ``index``
    for index, paragraph in enumerate(paragraphs(text)):
        paragraph = " ".join(paragraph.split())
        if not paragraph:
            continue
        current = ""
        for sentence in _SENTENCE_END.split(paragraph):
            while len(sentence) > max_chars:
                if current:
                    pieces.append((current, index))
                    current = ""
                pieces.append((sentence[:max_chars], index))
                sentence = sentence[max_chars:]
            if current and len(current) + 1 + len(sentence) > max_chars:
                pieces.append((current, index))
                current = sentence
            else:
                current = f"{current} {sentence}".strip()
        if current:
            pieces.append((current, index))
        pieces.append(("", index))
    passages: list[tuple[str, Span]] = []
    buffer, first, last = "", -1, -1
    for piece, index in pieces:
        if piece and buffer and index in breaks and index != last:
            passages.append((buffer, (first, last)))
            buffer = ""
        if not piece:
            if buffer and len(buffer) >= min_chars:
                passages.append((buffer, (first, last)))
                buffer = ""
            continue
        if buffer and len(buffer) + 2 + len(piece) > max_chars:
            passages.append((buffer, (first, last)))
            buffer = ""
        if not buffer:
            first = index
        buffer = f"{buffer}\n\n{piece}" if buffer else piece
        last = index
    if buffer:
        passages.append((buffer, (first, last)))
    return passages


def top_chapters(chapters: Sequence[Chapter]) -> list[Chapter]:
    """The chapters a guide's sections follow: the top level, or the top two levels when the top one has a single
    chapter (empty when fewer than two)."""
    if not chapters:
        return []
    top = min(c.level for c in chapters)
    chosen = [c for c in chapters if c.level == top]
    if len(chosen) < 2:
        chosen = [c for c in chapters if c.level <= top + 1]
    return chosen if len(chosen) >= 2 else []


def chapter_sections(spans: Sequence[Span], chapters: Sequence[Chapter]) -> list[tuple[str, list[int]]]:
    """Sections from the document's chapters: each passage (1-based) goes to the last chapter that starts at or
    before its first paragraph (passages before the first chapter go to the first).

    Only the top level is used, or the top two levels when the top one has a single chapter. Chapters without a
    passage of their own are left out. Empty when the document has fewer than two usable chapters.
    """
    chosen = top_chapters(chapters)
    if len(chosen) < 2 or not spans:
        return []
    sections: list[tuple[str, list[int]]] = []
    owner = 0
    members: dict[int, list[int]] = {}
    for number, (first, _last) in enumerate(spans, start=1):
        while owner + 1 < len(chosen) and chosen[owner + 1].paragraph <= first:
            owner += 1
        members.setdefault(owner, []).append(number)
    for index, chapter in enumerate(chosen):
        if index in members:
            sections.append((chapter.title, members[index]))
    return sections if len(sections) >= 2 else []


def split_at_subchapters(
    sections: Sequence[tuple[str, Sequence[int]]],
    spans: Sequence[Span],
    chapters: Sequence[Chapter],
    costs: Sequence[int],
    budget: int,
) -> list[tuple[str, list[int]]]:
    """Split every chapter section whose passages cost more than ``budget`` tokens where the document's next level
    of chapters starts, each part titled by its own chapter (passages before the first one keep the section's
    title), level after level while a part is still too long; :func:`fit_sections` then splits what remains too
    long into numbered parts.

    Args:
        sections: Titles and 1-based passage numbers, from :func:`chapter_sections`.
        spans: The paragraphs of each passage (index ``n - 1``).
        chapters: The document's chapters, every level.
        costs: The prompt tokens of each passage (index ``n - 1``).
        budget: The tokens the passages of one section prompt may take.
    """
    chosen = top_chapters(chapters)
    whole = [(title, list(numbers)) for title, numbers in sections]
    if not chosen:
        return whole
    return _split_below(whole, spans, chapters, costs, budget, max(c.level for c in chosen) + 1)


def _split_below(
    sections: list[tuple[str, list[int]]],
    spans: Sequence[Span],
    chapters: Sequence[Chapter],
    costs: Sequence[int],
    budget: int,
    level: int,
) -> list[tuple[str, list[int]]]:
    """:func:`split_at_subchapters` at one ``level`` of chapters, then the next for the parts still too long."""
    below = [c for c in chapters if c.level == level]
    if not below:
        return sections
    result: list[tuple[str, list[int]]] = []
    for title, numbers in sections:
        if not numbers or sum(costs[n - 1] for n in numbers) <= budget:
            result.append((title, numbers))
            continue
        first, last = spans[numbers[0] - 1][0], spans[numbers[-1] - 1][1]
        inside = [c for c in below if first < c.paragraph <= last]
        parts: list[tuple[str, list[int]]] = [(title, [])]
        for n in numbers:
            while inside and inside[0].paragraph <= spans[n - 1][0]:
                parts.append((inside.pop(0).title, []))
            parts[-1][1].append(n)
        result.extend(_split_below([p for p in parts if p[1]], spans, chapters, costs, budget, level + 1))
    return result


def fit_sections(
    sections: Sequence[tuple[str, Sequence[int]]], costs: Sequence[int], budget: int, labels: Labels
) -> list[tuple[str, list[int]]]:
    """Split every section whose passages cost more than ``budget`` tokens into consecutive parts that fit
    (titled "Title (1)", "Title (2)" …). A passage alone over the budget is a part of its own.

    Args:
        sections: Titles and 1-based passage numbers.
        costs: The prompt tokens of each passage (index ``n - 1``).
        budget: The tokens the passages of one section prompt may take.
        labels: :func:`labels_for` the guide's language.
    """
    fitted: list[tuple[str, list[int]]] = []
    for title, numbers in sections:
        parts: list[list[int]] = [[]]
        used = 0
        for n in numbers:
            cost = costs[n - 1]
            if parts[-1] and used + cost > budget:
                parts.append([])
                used = 0
            parts[-1].append(n)
            used += cost
        if len(parts) == 1:
            fitted.append((title, parts[0]))
        else:
            fitted.extend((labels["continued"].format(title=title, part=i), p) for i, p in enumerate(parts, 1))
    return fitted


def passage_pages(spans: Sequence[Span], structure: DocumentStructure) -> tuple[tuple[int, ...], ...]:
    """The pages of each passage (empty tuples when the document has no page data)."""
    if not structure.paragraph_pages:
        return ()
    return tuple(tuple(sorted(structure.pages(first, last))) for first, last in spans)


def sources_line(
    numbers: Sequence[int], pages: Sequence[Sequence[int]], spans: Sequence[Span], chapter: str | None, labels: Labels
) -> str:
    """The last line of a section: its pages ("*Sources: p. 12–15*"), else its chapter, else its paragraphs."""
    cited = sorted({p for n in numbers for p in pages[n - 1]}) if pages else []
    if cited:
        where = labels["pages"].format(pages=page_ranges(cited))
    elif chapter:
        where = labels["chapter"].format(title=chapter)
    else:
        found = {i + 1 for n in numbers for i in range(spans[n - 1][0], spans[n - 1][1] + 1)} if spans else set()
        if not found:
            return ""
        where = labels["paragraphs"].format(paragraphs=page_ranges(found))
    return f"*{labels['sources']}: {where}*"


def coverage_markdown(
    sections: Sequence[tuple[str, Sequence[int]]],
    pages: Sequence[Sequence[int]],
    spans: Sequence[Span],
    page_count: int | None,
    labels: Labels,
    left_out: Sequence[tuple[str, Sequence[int]]] = (),
    language: str = "en",
    recognised: Sequence[int] = (),
) -> str:
    """The guide's last part: a table of which pages (or paragraphs) fed which section, and the pages left out
    and why: pages without a paragraph of text, and pages whose passages are ``left_out`` (no study content: the
    title page, the thanks …; see :mod:`daemon.guide_writer.matter`) and that no section cites. The pages whose
    text was ``recognised`` from a picture are named after it."""
    rows = [f"| {labels['section']} | {labels['where']} |", "|---|---|"]
    used: set[int] = set()
    for title, numbers in sections:
        cited = {p for n in numbers for p in pages[n - 1]} if pages else set()
        used |= cited
        if cited:
            where = labels["pages"].format(pages=page_ranges(cited))
        else:
            found = {i + 1 for n in numbers for i in range(spans[n - 1][0], spans[n - 1][1] + 1)} if spans else set()
            where = labels["paragraphs"].format(paragraphs=page_ranges(found)) if found else ""
        rows.append(f"| {title.replace('|', '/')} | {where} |")
    lines = [f"## {labels['coverage']}", "", *rows]
    if pages and page_count:
        with_text = {p for own in pages for p in own}
        missing = sorted(set(range(1, page_count + 1)) - with_text)
        notes = [labels["left_out"].format(pages=page_ranges(missing))] if missing else []
        notes += [left_out_note(reason, found, language) for reason, found in left_out_pages(left_out, pages, used)]
        lines += ["", *(notes or [labels["nothing_left_out"]])]
        if recognised:
            lines += ["", labels["recognised"].format(pages=page_ranges(list(recognised)))]
    return "\n".join(lines)

"""The parts of a study guide taken from the document itself, not generated: key terms, review questions, the
overview and learning objectives, the glossary.

Nothing is made up: a section without defining sentences gets none. The Markdown follows what
:mod:`core.app.guides.export.cards` reads. Pure functions; thread-safe. How: docs/design/guide-writer.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.app.documents.structure import page_ranges
from daemon.guide_writer.study_aids_text import AidsLanguage, aids_language
from daemon.guide_writer.study_subjects import leans_on_context, looks_like_code, study_subject

__all__ = [
    "MAX_QUESTIONS",
    "KeyTerm",
    "complete_sentence",
    "glossary_markdown",
    "head_overview",
    "key_terms",
    "paragraph_sentences",
    "review_question",
    "section_aids",
]

_MAX_TERMS = 4
MAX_QUESTIONS = 4
"""The most review questions a section shows."""
_MIN_DEFINITION_WORDS = 5
_MAX_DEFINITION_CHARS = 320
_CODE = re.compile(r"[\\{}<>=]|\d[^\W\d_]")  # markup, formulas, a footnote number glued to a word
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-ZÀ-Ý0-9])")
_CUT_AT_INITIAL = re.compile(r"[A-ZÀ-Ý][a-zà-ÿ]+ [A-ZÀ-Ý]\.$")  # "… criado por Donald E.": the sentence goes on
_CITATION = re.compile(r"\s*\[\d+(?:\s*[,–-]\s*\d+)*\]")  # "O LATEX [1] é …": a reference, not the term
_ADVERB_ENDINGS = ("ly", "mente", "ment")
_VOWELS = "aeiouyàâäéèêëîïôöùûüœh"


def _pattern(lang: AidsLanguage, verbs: str, rest: str) -> re.Pattern[str]:
    """A sentence "[article] Term (1–4 words) <verb> <rest>"."""
    return re.compile(
        rf"^(?P<article>(?:{lang.articles})\s+|l['’])?(?P<term>[^\W\d_][\w'’-]*(?:\s+[\w'’-]+){{0,3}}?)"
        rf"\s+(?P<verb>{verbs})\s+(?P<rest>{rest})$",
        re.IGNORECASE | re.S,
    )


def _patterns(lang: AidsLanguage) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The sentences that give a question: a definition ("X is a …": the definition starts with an article),
    then a purpose ("X is used to …")."""
    return (
        ("definition", _pattern(lang, lang.verbs, rf"(?:{lang.articles})\s.+")),
        ("purpose", _pattern(lang, lang.purposes, r"\w.+")),
    )


@dataclass(frozen=True, slots=True)
class KeyTerm:
    """A term the document defines (``kind="definition"``) or says what it is for (``kind="purpose"``): the term,
    the sentence that says so and the pages it is on."""

    term: str
    definition: str
    pages: tuple[int, ...]
    meaning: str = ""
    """The definition without its subject and verb ("O processo pelo qual …")."""
    article: str = ""
    """The article the sentence puts before the term, lower case ("a", "l'"; "" for none)."""
    plural: bool = False
    """The sentence's verb is plural ("são", "are")."""
    kind: str = "definition"

    @property
    def phrase(self) -> str:
        """The term as a question names it: with the sentence's own article ("a fotossíntese")."""
        if not self.article:
            return self.term
        return f"{self.article}{self.term}" if self.article.endswith(("'", "’")) else f"{self.article} {self.term}"

    @property
    def key(self) -> tuple[str, str]:
        """What makes its question: asked once in a guide."""
        return self.kind, (self.definition if self.kind == "cloze" else self.term).casefold()


def complete_sentence(sentence: str) -> bool:
    """``sentence`` is whole: it starts with a capital letter (or a digit) and ends with a full stop that is not
    an initial's ("Donald E.")."""
    starts = sentence[:1].isupper() or sentence[:1].isdigit()
    return starts and sentence.endswith(".") and _CUT_AT_INITIAL.search(sentence) is None


def paragraph_sentences(passage: str) -> list[str]:
    """The sentences of a passage, each within its paragraph (a heading is no part of the sentence after it)."""
    return [s for p in passage.split("\n\n") for s in _SENTENCE_END.split(" ".join(p.split())) if s]


def key_terms(
    passages: Sequence[str], numbers: Sequence[int], pages: Sequence[Sequence[int]], language: str
) -> list[KeyTerm]:
    """The terms the passages ``numbers`` (1-based) define (up to four), then the ones they say what they are for,
    each kind of a term once (case-insensitive), in document order within a kind."""
    lang = aids_language(language)
    patterns = _patterns(lang)
    text = "\n\n".join(passages[n - 1] for n in numbers)
    found: dict[tuple[str, str], KeyTerm] = {}
    for n in numbers:
        for sentence in paragraph_sentences(passages[n - 1]):
            made = _key_term(patterns, lang, sentence, tuple(pages[n - 1]) if pages else (), text)
            if made is not None and made.key not in found and _makes_sense(made, language):
                found[made.key] = made
    definitions = [t for t in found.values() if t.kind == "definition"][:_MAX_TERMS]
    return definitions + [t for t in found.values() if t.kind != "definition"]


def _makes_sense(term: KeyTerm, language: str) -> bool:
    """Whether ``term`` is a subject to study and its sentence can stand alone as its answer."""
    if not study_subject(term.term, language) or looks_like_code(term.definition):
        return False
    return not leans_on_context(term.meaning or term.definition, language)


def _key_term(
    patterns: Sequence[tuple[str, re.Pattern[str]]],
    lang: AidsLanguage,
    sentence: str,
    pages: tuple[int, ...],
    text: str,
) -> KeyTerm | None:
    """The key term ``sentence`` gives, or ``None`` when it defines nothing and says what nothing is for."""
    bare = _CITATION.sub("", sentence).strip()
    if not complete_sentence(bare) or len(bare) > _MAX_DEFINITION_CHARS or _CODE.search(bare):
        return None
    for kind, pattern in patterns:
        match = pattern.match(bare)
        if match is None or len(match.group("rest").split()) < _MIN_DEFINITION_WORDS - 2:
            continue
        if match.group("verb")[:1].isupper():
            continue  # "doc Permite …": an item of a list, its verb starts a line of its own
        term = _term(match, lang)
        if term is None:
            continue
        article = (match.group("article") or "").strip().lower()
        plural = any(word.lower() in lang.plural for word in match.group("verb").split())
        rest = match.group("rest").strip()
        meaning = rest[:1].upper() + rest[1:] if kind == "definition" else ""
        term = term if article or lang.capitalizes_nouns else _natural_case(term, text)
        return KeyTerm(term, sentence.strip(), pages, meaning, article, plural, kind)
    return None


def _term(match: re.Match[str], lang: AidsLanguage) -> str | None:
    """The term of a matched sentence, or ``None`` when its subject is not a term."""
    term = match.group("term").strip(" ,;:")
    words = term.lower().split()
    if not words or any(w in lang.stop for w in words) or len(term) < 3 or len(words) > 3:
        return None  # "Thus if Lst is …", "The simplest such structure is …": not a term
    if words[0].endswith(_ADVERB_ENDINGS):
        return None  # "Technically R is …", "Normalmente o comando é …"
    article = (match.group("article") or "").strip().lower()
    if lang.articles.startswith("the|") and len(words) == 1 and article == "the":
        return None  # "The result is …", "The value is …": a word of the passage before, not a term
    return term


def _natural_case(term: str, text: str) -> str:
    """A term that starts its sentence without an article, in the case the text writes it elsewhere: "Functions
    are …" → "functions" when the text says "functions" more often than "Functions" within a sentence, "Solving
    linear equations is …" → "solving linear equations" when the text uses its first word nowhere else; names
    ("Beamer", "LaTeX", "R", "Donald Knuth") keep theirs."""
    first = term.split()[0]
    if len(first) < 2 or not first[0].isupper() or first[1:] != first[1:].lower():
        return term
    lower = first[0].lower() + first[1:]
    said_lower = len(re.findall(rf"(?<![\w{{\\]){re.escape(lower)}\b", text))
    said_upper = len(re.findall(rf"[^\W\d_],?\s+{re.escape(first)}\b", text))
    if said_lower == said_upper == 0:  # no other use: a phrase in lower case after its first word is no name
        rest = term.split()[1:]
        return lower + term[len(first) :] if rest and all(w == w.lower() for w in rest) else term
    return lower + term[len(first) :] if said_lower > said_upper else term


def _phrase_in(template: str, term: KeyTerm, lang: AidsLanguage) -> str:
    """``template`` (singular, or plural for a plural term) with the term and its article."""
    phrase = term.phrase
    if lang.elide and phrase[:1].lower() in _VOWELS:
        template = template.replace("que {term}", "qu'{term}")
    return template.format(term=phrase)


def _cite(pages: Sequence[int], lang: AidsLanguage) -> str:
    return f" ({lang.pages.format(pages=page_ranges(list(pages)))})" if pages else ""


def review_question(term: KeyTerm, language: str) -> str:
    """The review question ``term`` gives: what it is (a definition), what it is for (a purpose), or its sentence
    with the term blanked out (a cloze)."""
    lang = aids_language(language)
    if term.kind == "cloze":
        return lang.cloze.format(sentence=term.meaning)
    singular, plural = lang.question if term.kind == "definition" else lang.purpose
    return _phrase_in(plural if term.plural else singular, term, lang)


def section_aids(terms: Sequence[KeyTerm], language: str) -> str:
    """The key terms (the definitions) and review questions (up to four, definitions first) of one section as
    Markdown (``""`` without terms)."""
    if not terms:
        return ""
    lang = aids_language(language)
    lines: list[str] = []
    defined = [t for t in terms if t.kind == "definition"]
    if defined:
        lines += [f"### {lang.key_terms}", ""]
        lines += [f"- **{t.term}**: {t.meaning}{_cite(t.pages, lang)}" for t in defined]
        lines += [""]
    lines += [f"### {lang.questions}", ""]
    for t in terms[:MAX_QUESTIONS]:
        question = review_question(t, language)
        lines += [f"**{lang.q}:** {question}", f"**{lang.a}:** {t.definition}{_cite(t.pages, lang)}", ""]
    return "\n".join(lines).strip()


def glossary_markdown(sections: Sequence[tuple[str, Sequence[KeyTerm]]], language: str) -> str:
    """The glossary: every defined term of the guide once, alphabetically, with the section that defines it and
    its page — an index, so no definition is printed twice (``""`` without definitions)."""
    lang = aids_language(language)
    first: dict[str, tuple[str, KeyTerm]] = {}
    for title, terms in sections:
        for t in terms:
            if t.kind == "definition":
                first.setdefault(t.term.casefold(), (title, t))
    if not first:
        return ""
    ordered = sorted(first.values(), key=lambda item: item[1].term.casefold())
    items = [f"- **{t.term}**: {lang.see.format(title=title)}{_cite(t.pages, lang)}" for title, t in ordered]
    return "\n".join([f"## {lang.glossary}", "", *items])


def head_overview(titles: Sequence[str], all_pages: Sequence[int], terms: Sequence[KeyTerm], language: str) -> str:
    """The guide's overview (what it covers, from the plan; only with two sections or more) and learning
    objectives (one per defined term, at most six; none without definitions)."""
    lang = aids_language(language)
    if len(titles) < 2:
        return _objectives(terms, lang)
    shown = titles if len(titles) <= 12 else [*titles[:12], "…"]
    pages = lang.pages.format(pages=page_ranges(list(all_pages))) if all_pages else ""
    overview = lang.overview.format(count=len(titles), pages=pages, titles="; ".join(shown))
    overview = overview.replace(" ()", "").replace(" ( )", "")
    objectives = _objectives(terms, lang)
    return f"{overview}\n\n{objectives}" if objectives else overview


def _objectives(terms: Sequence[KeyTerm], lang: AidsLanguage) -> str:
    defined = [t for t in terms if t.kind == "definition"][:6]
    if not defined:
        return ""
    items = [f"- {_phrase_in(lang.objective[1] if t.plural else lang.objective[0], t, lang)}" for t in defined]
    return "\n".join([f"**{lang.objectives}**", "", *items])

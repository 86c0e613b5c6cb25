"""The parts of a study guide taken from the document itself, not generated: key terms, review questions, the
overview and learning objectives, the glossary.

A small model cannot be trusted to define terms or to ask and answer questions, so these are extractive: a key
term is the subject of a defining sentence of the section's own passages ("A fotossíntese é o processo …",
"Photosynthesis is the process …"), its definition what that sentence says of it, its page the passage's page; a
review question asks for that definition ("O que é fotossíntese?") and its answer is the sentence, with its page;
the glossary lists every term with the section that defines it. A section without such sentences gets none —
nothing is made up, and no sentence is printed twice. Labels and templates in pt, en, es, fr, de and it
(English for other languages).

The Markdown follows what :mod:`core.app.export.cards` reads: ``- **Term**: definition (p. 3)`` under a key-terms
heading, ``**P:** …`` / ``**R:** …`` pairs under a questions heading. Pure functions; thread-safe.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.app.document_structure import page_ranges

__all__ = ["KeyTerm", "glossary_markdown", "head_overview", "key_terms", "section_aids"]

_MAX_TERMS = 4
_MAX_QUESTIONS = 3
_MIN_DEFINITION_WORDS = 5
_MAX_DEFINITION_CHARS = 320
_CODE = re.compile(r"[\\{}<>=]|\d[^\W\d_]")  # markup, formulas, a footnote number glued to a word
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-ZÀ-Ý0-9])")
_ADVERB_ENDINGS = ("ly", "mente", "ment")


@dataclass(frozen=True, slots=True)
class _Language:
    articles: str
    verbs: str
    stop: frozenset[str]
    key_terms: str
    questions: str
    question: str
    q: str
    a: str
    glossary: str
    see: str
    overview: str
    objectives: str
    objective: str
    pages: str


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_LANGUAGES: dict[str, _Language] = {
    "en": _Language(
        r"the|a|an",
        r"is|are|means|refers to|is called",
        _words(
            "it this that these those there he she they we you which what here each all one and where also other "
            "if thus even so then hence such however therefore now only when first second third last next actual "
            "same following previous"
        ),
        "Key terms",
        "Review questions",
        "What is {term}?",
        "Q",
        "A",
        "Glossary",
        "see the section “{title}”",
        "This guide covers {count} sections of the document ({pages}): {titles}.",
        "Learning objectives",
        "Explain what {term} is.",
        "p. {pages}",
    ),
    "pt": _Language(
        r"o|a|os|as|um|uma",
        r"é|são|significa|chama-se|denomina-se|consiste em",
        _words(
            "isso isto este esta esse essa ele ela eles elas nós você que qual aqui cada tudo ali não e onde "
            "outra outro outras outros deste desta destes destas mas também ainda mais já se assim então porém "
            "portanto logo quando primeiro primeira segundo segunda último última próximo próxima mesmo mesma "
            "seguinte principal"
        ),
        "Termos-chave",
        "Perguntas de revisão",
        "O que é {term}?",
        "P",
        "R",
        "Glossário",
        "ver a seção “{title}”",
        "Este guia cobre {count} seções do documento ({pages}): {titles}.",
        "Objetivos de aprendizagem",
        "Explicar o que é {term}.",
        "pág. {pages}",
    ),
    "es": _Language(
        r"el|la|los|las|un|una",
        r"es|son|significa|se llama|consiste en",
        _words("esto este esta ese esa él ella ellos ellas que cual aquí cada todo no"),
        "Términos clave",
        "Preguntas de repaso",
        "¿Qué es {term}?",
        "P",
        "R",
        "Glosario",
        "ver la sección «{title}»",
        "Esta guía cubre {count} secciones del documento ({pages}): {titles}.",
        "Objetivos de aprendizaje",
        "Explicar qué es {term}.",
        "pág. {pages}",
    ),
    "fr": _Language(
        r"le|la|les|l'|un|une",
        r"est|sont|désigne|signifie|s'appelle",
        _words("ce cela ceci il elle ils elles on nous vous qui que quel ici chaque tout ne"),
        "Termes clés",
        "Questions de révision",
        "Qu'est-ce que {term} ?",
        "Q",
        "R",
        "Glossaire",
        "voir la section « {title} »",
        "Ce guide couvre {count} sections du document ({pages}) : {titles}.",
        "Objectifs d'apprentissage",
        "Expliquer ce qu'est {term}.",
        "p. {pages}",
    ),
    "de": _Language(
        r"der|die|das|ein|eine",
        r"ist|sind|bezeichnet|bedeutet|heißt",
        _words("es dies das er sie wir ihr man was welche hier jede alles nicht"),
        "Schlüsselbegriffe",
        "Wiederholungsfragen",
        "Was ist {term}?",
        "F",
        "A",
        "Glossar",
        "siehe Abschnitt „{title}“",
        "Dieser Leitfaden umfasst {count} Abschnitte des Dokuments ({pages}): {titles}.",
        "Lernziele",
        "Erklären, was {term} ist.",
        "S. {pages}",
    ),
    "it": _Language(
        r"il|lo|la|i|gli|le|l'|un|una|uno",
        r"è|sono|significa|si chiama|consiste in",
        _words("questo questa quello quella esso essa lui lei loro noi voi che quale qui ogni tutto non"),
        "Termini chiave",
        "Domande di ripasso",
        "Che cos'è {term}?",
        "D",
        "R",
        "Glossario",
        "vedi la sezione «{title}»",
        "Questa guida copre {count} sezioni del documento ({pages}): {titles}.",
        "Obiettivi di apprendimento",
        "Spiegare che cos'è {term}.",
        "p. {pages}",
    ),
}


def _language(code: str) -> _Language:
    return _LANGUAGES.get(code, _LANGUAGES["en"])


def _definition_pattern(lang: _Language) -> re.Pattern[str]:
    """A defining sentence: "[article] Term (1–4 words) is a/the …" — the definition starts with an article."""
    return re.compile(
        rf"^(?:(?:{lang.articles})\s+|l')?(?P<term>[^\W\d_][\w'’-]*(?:\s+[\w'’-]+){{0,3}}?)\s+(?:{lang.verbs})\s+"
        rf"(?P<rest>(?:{lang.articles})\s.+)$",
        re.IGNORECASE | re.S,
    )


@dataclass(frozen=True, slots=True)
class KeyTerm:
    """A term the document defines: the term, its defining sentence and the pages it is on."""

    term: str
    definition: str
    pages: tuple[int, ...]
    meaning: str = ""
    """The definition without its subject and verb ("O processo pelo qual …")."""


def key_terms(
    passages: Sequence[str], numbers: Sequence[int], pages: Sequence[Sequence[int]], language: str
) -> list[KeyTerm]:
    """Up to four terms the passages ``numbers`` (1-based) define, in order, each once (case-insensitive)."""
    lang = _language(language)
    pattern = _definition_pattern(lang)
    found: dict[str, KeyTerm] = {}
    for n in numbers:
        for sentence in _SENTENCE_END.split(" ".join(passages[n - 1].split())):
            term = _term(pattern, lang, sentence)
            if term is None or term.lower() in found:
                continue
            meaning = _meaning(pattern, sentence)
            found[term.lower()] = KeyTerm(term, sentence.strip(), tuple(pages[n - 1]) if pages else (), meaning)
            if len(found) >= _MAX_TERMS:
                return list(found.values())
    return list(found.values())


def _term(pattern: re.Pattern[str], lang: _Language, sentence: str) -> str | None:
    """The term ``sentence`` defines, or ``None`` when it is not a defining sentence."""
    if len(sentence) > _MAX_DEFINITION_CHARS or not sentence.rstrip().endswith(".") or _CODE.search(sentence):
        return None
    match = pattern.match(sentence.strip())
    if match is None or len(match.group("rest").split()) < _MIN_DEFINITION_WORDS - 2:
        return None
    term = match.group("term").strip(" ,;:")
    words = term.lower().split()
    if not words or any(w in lang.stop for w in words) or len(term) < 3 or len(words) > 3:
        return None  # "Thus if Lst is …", "The simplest such structure is …": not a term
    if words[0].endswith(_ADVERB_ENDINGS):
        return None  # "Technically R is …", "Normalmente o comando é …"
    if lang is _LANGUAGES["en"] and len(words) == 1 and sentence.lstrip().lower().startswith("the "):
        return None  # "The result is …", "The value is …": a word of the passage before, not a term
    return term


def _meaning(pattern: re.Pattern[str], sentence: str) -> str:
    match = pattern.match(sentence.strip())
    rest = match.group("rest").strip() if match is not None else sentence.strip()
    return rest[:1].upper() + rest[1:]


def _cite(pages: Sequence[int], lang: _Language) -> str:
    return f" ({lang.pages.format(pages=page_ranges(list(pages)))})" if pages else ""


def section_aids(terms: Sequence[KeyTerm], language: str) -> str:
    """The key terms and review questions of one section as Markdown (``""`` without terms)."""
    if not terms:
        return ""
    lang = _language(language)
    lines = [f"### {lang.key_terms}", ""]
    lines += [f"- **{t.term}**: {t.meaning}{_cite(t.pages, lang)}" for t in terms]
    lines += ["", f"### {lang.questions}", ""]
    for t in terms[:_MAX_QUESTIONS]:
        question = lang.question.format(term=t.term)
        lines += [f"**{lang.q}:** {question}", f"**{lang.a}:** {t.definition}{_cite(t.pages, lang)}", ""]
    return "\n".join(lines).strip()


def glossary_markdown(sections: Sequence[tuple[str, Sequence[KeyTerm]]], language: str) -> str:
    """The glossary: every key term of the guide once, alphabetically, with the section that defines it and its
    page — an index, so no definition is printed twice (``""`` without terms)."""
    lang = _language(language)
    first: dict[str, tuple[str, KeyTerm]] = {}
    for title, terms in sections:
        for t in terms:
            first.setdefault(t.term.casefold(), (title, t))
    if not first:
        return ""
    ordered = sorted(first.values(), key=lambda item: item[1].term.casefold())
    items = [f"- **{t.term}**: {lang.see.format(title=title)}{_cite(t.pages, lang)}" for title, t in ordered]
    return "\n".join([f"## {lang.glossary}", "", *items])


def head_overview(titles: Sequence[str], all_pages: Sequence[int], terms: Sequence[KeyTerm], language: str) -> str:
    """The guide's overview (what it covers, from the plan; only with two sections or more) and learning
    objectives (one per key term, at most six; none without key terms)."""
    lang = _language(language)
    if len(titles) < 2:
        return _objectives(terms, lang)
    shown = titles if len(titles) <= 12 else [*titles[:12], "…"]
    pages = lang.pages.format(pages=page_ranges(list(all_pages))) if all_pages else ""
    overview = lang.overview.format(count=len(titles), pages=pages, titles="; ".join(shown))
    overview = overview.replace(" ()", "").replace(" ( )", "")
    objectives = _objectives(terms, lang)
    return f"{overview}\n\n{objectives}" if objectives else overview


def _objectives(terms: Sequence[KeyTerm], lang: _Language) -> str:
    if not terms:
        return ""
    return "\n".join([f"**{lang.objectives}**", "", *(f"- {lang.objective.format(term=t.term)}" for t in terms[:6])])

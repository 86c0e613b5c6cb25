"""The words of :mod:`daemon.guide_writer.study_aids`, by language (pt, en, es, fr, de, it; English for other
languages): what a defining sentence looks like, and the labels and templates of the study aids.

Plain data; thread-safe. How terms and articles agree: docs/design/guide-writer.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["GLOSSARY_REFERENCE", "AidsLanguage", "aids_language"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


@dataclass(frozen=True, slots=True)
class AidsLanguage:
    """One language's words and templates (``{term}`` is the term with its article; each template pair is
    (singular, plural))."""

    articles: str
    """Regex alternation of the articles a term may follow."""
    verbs: str
    """Regex alternation of the verbs of a defining sentence ("X is a …")."""
    purposes: str
    """Regex alternation of the verbs of a sentence that says what a thing is for ("X is used to …")."""
    plural: frozenset[str]
    """Words of those verbs that say the subject is plural."""
    stop: frozenset[str]
    """Words that are never part of a term (pronouns, conjunctions, adverbs …)."""
    key_terms: str
    questions: str
    question: tuple[str, str]
    purpose: tuple[str, str]
    q: str
    a: str
    glossary: str
    see: str
    overview: str
    objectives: str
    objective: tuple[str, str]
    pages: str
    cloze: str
    """A fill-in-the-blank question; ``{sentence}`` is the sentence with its blank."""
    capitalizes_nouns: bool = False
    elide: bool = False
    """``que`` becomes ``qu'`` before a vowel (French)."""


_LANGUAGES: dict[str, AidsLanguage] = {
    "en": AidsLanguage(
        r"the|a|an",
        r"is|are|means|refers to|is called",
        r"is used to|is used for|are used to|are used for|is useful for|are useful for|is suitable for"
        r"|are suitable for|allows|allow|lets you",
        _words("are allow"),
        _words(
            "it this that these those there he she they we you which what here each all one and where also other "
            "if thus even so then hence such however therefore now only when first second third last next actual "
            "same following previous will can may must should would could might"
        ),
        "Key terms",
        "Review questions",
        ("What is {term}?", "What are {term}?"),
        ("What is {term} used for?", "What are {term} used for?"),
        "Q",
        "A",
        "Glossary",
        "see the section “{title}”",
        "This guide covers {count} sections of the document ({pages}): {titles}.",
        "Learning objectives",
        ("Explain what {term} is.", "Explain what {term} are."),
        "p. {pages}",
        "Fill in the blank: “{sentence}”",
    ),
    "pt": AidsLanguage(
        r"o|a|os|as|um|uma",
        r"é|são|significa|chama-se|denomina-se|consiste em",
        r"serve para|servem para|é usad[oa] para|são usad[oa]s para|é utilizad[oa] para|são utilizad[oa]s para"
        r"|permite|permitem|é adequad[oa] para|são adequad[oa]s para|é útil para|são úteis para",
        _words("são servem permitem"),
        _words(
            "isso isto este esta esse essa ele ela eles elas nós você que qual aqui cada tudo ali não e onde "
            "outra outro outras outros deste desta destes destas mas também ainda mais já se assim então porém "
            "portanto logo quando primeiro primeira segundo segunda último última próximo próxima mesmo mesma "
            "seguinte principal"
        ),
        "Termos-chave",
        "Perguntas de revisão",
        ("O que é {term}?", "O que são {term}?"),
        ("Para que serve {term}?", "Para que servem {term}?"),
        "P",
        "R",
        "Glossário",
        "ver a seção “{title}”",
        "Este guia cobre {count} seções do documento ({pages}): {titles}.",
        "Objetivos de aprendizagem",
        ("Explicar o que é {term}.", "Explicar o que são {term}."),
        "pág. {pages}",
        "Complete a lacuna: “{sentence}”",
    ),
    "es": AidsLanguage(
        r"el|la|los|las|un|una",
        r"es|son|significa|se llama|consiste en",
        r"sirve para|sirven para|se usa para|se usan para|permite|permiten",
        _words("son sirven usan permiten"),
        _words("esto este esta ese esa él ella ellos ellas que cual aquí cada todo no"),
        "Términos clave",
        "Preguntas de repaso",
        ("¿Qué es {term}?", "¿Qué son {term}?"),
        ("¿Para qué sirve {term}?", "¿Para qué sirven {term}?"),
        "P",
        "R",
        "Glosario",
        "ver la sección «{title}»",
        "Esta guía cubre {count} secciones del documento ({pages}): {titles}.",
        "Objetivos de aprendizaje",
        ("Explicar qué es {term}.", "Explicar qué son {term}."),
        "pág. {pages}",
        "Completa el espacio en blanco: «{sentence}»",
    ),
    "fr": AidsLanguage(
        r"le|la|les|l'|un|une",
        r"est|sont|désigne|signifie|s'appelle",
        r"sert à|servent à|permet de|permettent de",
        _words("sont servent permettent"),
        _words("ce cela ceci il elle ils elles on nous vous qui que quel ici chaque tout ne"),
        "Termes clés",
        "Questions de révision",
        ("Qu'est-ce que {term} ?", "Que sont {term} ?"),
        ("À quoi sert {term} ?", "À quoi servent {term} ?"),
        "Q",
        "R",
        "Glossaire",
        "voir la section « {title} »",
        "Ce guide couvre {count} sections du document ({pages}) : {titles}.",
        "Objectifs d'apprentissage",
        ("Expliquer ce qu'est {term}.", "Expliquer ce que sont {term}."),
        "p. {pages}",
        "Complétez : « {sentence} »",
        elide=True,
    ),
    "de": AidsLanguage(
        r"der|die|das|ein|eine",
        r"ist|sind|bezeichnet|bedeutet|heißt",
        r"dient zu|dienen zu|dient dazu|dienen dazu|ermöglicht|ermöglichen",
        _words("sind dienen ermöglichen"),
        _words("es dies das er sie wir ihr man was welche hier jede alles nicht"),
        "Schlüsselbegriffe",
        "Wiederholungsfragen",
        ("Was ist {term}?", "Was sind {term}?"),
        ("Wozu dient {term}?", "Wozu dienen {term}?"),
        "F",
        "A",
        "Glossar",
        "siehe Abschnitt „{title}“",
        "Dieser Leitfaden umfasst {count} Abschnitte des Dokuments ({pages}): {titles}.",
        "Lernziele",
        ("Erklären, was {term} ist.", "Erklären, was {term} sind."),
        "S. {pages}",
        "Ergänzen Sie: „{sentence}“",
        capitalizes_nouns=True,
    ),
    "it": AidsLanguage(
        r"il|lo|la|i|gli|le|l'|un|una|uno",
        r"è|sono|significa|si chiama|consiste in",
        r"serve a|servono a|serve per|servono per|permette di|permettono di|consente di|consentono di",
        _words("sono servono permettono consentono"),
        _words("questo questa quello quella esso essa lui lei loro noi voi che quale qui ogni tutto non"),
        "Termini chiave",
        "Domande di ripasso",
        ("Che cos'è {term}?", "Che cosa sono {term}?"),
        ("A che cosa serve {term}?", "A che cosa servono {term}?"),
        "D",
        "R",
        "Glossario",
        "vedi la sezione «{title}»",
        "Questa guida copre {count} sezioni del documento ({pages}): {titles}.",
        "Obiettivi di apprendimento",
        ("Spiegare che cos'è {term}.", "Spiegare che cosa sono {term}."),
        "p. {pages}",
        "Completa lo spazio vuoto: «{sentence}»",
    ),
}


def aids_language(code: str) -> AidsLanguage:
    """The words of ``code`` (English for a language without its own)."""
    return _LANGUAGES.get(code, _LANGUAGES["en"])


def _glossary_reference() -> re.Pattern[str]:
    forms = []
    for lang in _LANGUAGES.values():
        before, after = lang.see.split("{title}")
        forms.append(re.escape(before) + ".+?" + re.escape(after))
    return re.compile(rf"^(?:{'|'.join(forms)})(?:\s*\([^()]*\))?$")


GLOSSARY_REFERENCE = _glossary_reference()
"""What a glossary entry says after its term, in any language: the section that defines it, with its pages (the
writer's cross-reference, not a sentence of the document)."""

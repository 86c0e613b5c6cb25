"""The study-guide prompts, in the document's language, and the language guess that picks them.

Each language has the same set of templates (see :class:`Prompts`); adding one means adding an entry to
:data:`PROMPTS`, to :data:`LANGUAGES`, and its words to :mod:`daemon.readers.language` and
:mod:`daemon.guide_writer.checks`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from daemon.readers.language import detect_language as detect_text_language
from daemon.readers.language import normalize_language_tag

__all__ = ["LANGUAGES", "PROMPTS", "Language", "Prompts", "detect_language", "supported_language"]

Language = Literal["pt", "en", "es", "fr", "de", "it"]
LANGUAGES: tuple[Language, ...] = ("pt", "en", "es", "fr", "de", "it")
"""The languages a guide can be written in (prompts and checks)."""


_PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def supported_language(code: str | None) -> Language | None:
    """``code`` (``"pt-BR"``, ``"fr"`` …) as a guide language, or ``None`` when guides are not written in it."""
    primary = normalize_language_tag(code)
    for language in LANGUAGES:
        if primary == language:
            return language
    return None


_SAMPLES = 12
_SAMPLE_CHARS = 5000


def detect_language(text: str, default: Language = "en") -> Language:
    """The guide language of ``text``: the majority language of up to twelve samples of 5,000 characters spread
    over the whole text (:func:`daemon.readers.language.detect_language` on each), so a document mostly in one
    language with passages, front matter or a licence in another is written in its majority language; ``default``
    when the text is in no language guides are written in, or too short to tell.
    """
    if len(text) <= _SAMPLE_CHARS * 2:
        return supported_language(detect_text_language(text)) or default
    step = max((len(text) - _SAMPLE_CHARS) // (_SAMPLES - 1), 1)
    votes: dict[Language, int] = {}
    for start in range(0, len(text) - _SAMPLE_CHARS + 1, step)[:_SAMPLES]:
        found = supported_language(detect_text_language(text[start : start + _SAMPLE_CHARS]))
        if found is not None:
            votes[found] = votes.get(found, 0) + 1
    return max(votes, key=lambda language: votes[language]) if votes else default


@dataclass(frozen=True, slots=True)
class Prompts:
    """Templates for one language. ``{placeholders}`` are filled with :meth:`str.format`."""

    guide_title: str
    part_title: str
    outline_system: str
    outline_user: str
    section_system: str
    section_user: str

    @property
    def section_instructions(self) -> tuple[str, ...]:
        """The section prompt's own words, each piece apart: the system prompt and the user prompt's text around
        its placeholders (what :mod:`daemon.guide_writer.checks` looks for in a text that echoes its prompt)."""
        pieces = _PLACEHOLDER.split(self.section_user)
        return (self.section_system, *(piece for piece in pieces if piece.strip()))


PROMPTS: dict[Language, Prompts] = {
    "en": Prompts(
        guide_title="Study guide",
        part_title="Part {number}",
        outline_system=(
            "You are a teacher preparing a study guide. You read numbered passages of a document "
            "and group them into sections. Write the titles in English. Answer with JSON only."
        ),
        outline_user=(
            "Passages:\n\n{passages}\n\n"
            "Group these passages into at most {max_sections} sections of consecutive passages. "
            "For each section give a short title in English (2 to 6 words) and the numbers of the "
            "passages it covers (from {first} to {last})."
        ),
        section_system=(
            "You write clear study guides in English, in Markdown. Explain the key ideas, definitions "
            "and facts of the source with short paragraphs and bullet points. Use only what the source says."
        ),
        section_user='Write the study-guide section "{title}" in English from this text:\n\n{source}',
    ),
    "pt": Prompts(
        guide_title="Guia de estudo",
        part_title="Parte {number}",
        outline_system=(
            "Você é um professor preparando um guia de estudo. Você lê trechos numerados de um "
            "documento e os agrupa em seções. Escreva os títulos em português. Responda somente com JSON."
        ),
        outline_user=(
            "Trechos:\n\n{passages}\n\n"
            "Agrupe estes trechos em no máximo {max_sections} seções de trechos consecutivos. "
            "Para cada seção, dê um título curto em português (de 2 a 6 palavras) e os números dos "
            "trechos que ela cobre (de {first} a {last})."
        ),
        section_system=(
            "Você escreve guias de estudo claros em português, em Markdown. Explique as ideias principais, "
            "as definições e os fatos da fonte com parágrafos curtos e tópicos. "
            "Use somente o que a fonte diz."
        ),
        section_user=('Escreva a seção "{title}" do guia de estudo em português a partir deste texto:\n\n{source}'),
    ),
    "es": Prompts(
        guide_title="Guía de estudio",
        part_title="Parte {number}",
        outline_system=(
            "Eres un profesor que prepara una guía de estudio. Lees fragmentos numerados de un documento "
            "y los agrupas en secciones. Escribe los títulos en español. Responde solo con JSON."
        ),
        outline_user=(
            "Fragmentos:\n\n{passages}\n\n"
            "Agrupa estos fragmentos en como máximo {max_sections} secciones de fragmentos consecutivos. "
            "Para cada sección, da un título corto en español (de 2 a 6 palabras) y los números de los "
            "fragmentos que cubre (de {first} a {last})."
        ),
        section_system=(
            "Escribes guías de estudio claras en español, en Markdown. Explica las ideas principales, las "
            "definiciones y los hechos de la fuente con párrafos cortos y viñetas. Usa solo lo que dice la fuente."
        ),
        section_user=(
            'Escribe la sección "{title}" de la guía de estudio en español a partir de este texto:\n\n{source}'
        ),
    ),
    "fr": Prompts(
        guide_title="Guide d'étude",
        part_title="Partie {number}",
        outline_system=(
            "Vous êtes un enseignant qui prépare un guide d'étude. Vous lisez des extraits numérotés d'un "
            "document et les regroupez en sections. Écrivez les titres en français. Répondez uniquement en JSON."
        ),
        outline_user=(
            "Extraits :\n\n{passages}\n\n"
            "Regroupez ces extraits en {max_sections} sections au plus, faites d'extraits consécutifs. "
            "Pour chaque section, donnez un titre court en français (de 2 à 6 mots) et les numéros des "
            "extraits qu'elle couvre (de {first} à {last})."
        ),
        section_system=(
            "Vous écrivez des guides d'étude clairs en français, en Markdown. Expliquez les idées principales, "
            "les définitions et les faits de la source avec des paragraphes courts et des listes à puces. "
            "N'utilisez que ce que dit la source."
        ),
        section_user=('Écrivez la section "{title}" du guide d\'étude en français à partir de ce texte :\n\n{source}'),
    ),
    "de": Prompts(
        guide_title="Lernleitfaden",
        part_title="Teil {number}",
        outline_system=(
            "Sie sind eine Lehrkraft, die einen Lernleitfaden erstellt. Sie lesen nummerierte Abschnitte eines "
            "Dokuments und fassen sie zu Kapiteln zusammen. Schreiben Sie die Titel auf Deutsch. Antworten Sie "
            "nur mit JSON."
        ),
        outline_user=(
            "Abschnitte:\n\n{passages}\n\n"
            "Fassen Sie diese Abschnitte zu höchstens {max_sections} Kapiteln aus aufeinanderfolgenden "
            "Abschnitten zusammen. Geben Sie für jedes Kapitel einen kurzen deutschen Titel (2 bis 6 Wörter) und "
            "die Nummern der Abschnitte an, die es umfasst (von {first} bis {last})."
        ),
        section_system=(
            "Sie schreiben klare Lernleitfäden auf Deutsch, in Markdown. Erklären Sie die wichtigsten Gedanken, "
            "Definitionen und Fakten der Quelle in kurzen Absätzen und Aufzählungen. Verwenden Sie nur, was die "
            "Quelle sagt."
        ),
        section_user='Schreiben Sie das Kapitel "{title}" des Lernleitfadens auf Deutsch aus diesem Text:\n\n{source}',
    ),
    "it": Prompts(
        guide_title="Guida allo studio",
        part_title="Parte {number}",
        outline_system=(
            "Sei un insegnante che prepara una guida allo studio. Leggi brani numerati di un documento e li "
            "raggruppi in sezioni. Scrivi i titoli in italiano. Rispondi solo con JSON."
        ),
        outline_user=(
            "Brani:\n\n{passages}\n\n"
            "Raggruppa questi brani in al massimo {max_sections} sezioni di brani consecutivi. "
            "Per ogni sezione, dai un titolo breve in italiano (da 2 a 6 parole) e i numeri dei brani che "
            "copre (da {first} a {last})."
        ),
        section_system=(
            "Scrivi guide allo studio chiare in italiano, in Markdown. Spiega le idee principali, le definizioni "
            "e i fatti della fonte con paragrafi brevi ed elenchi puntati. Usa solo ciò che dice la fonte."
        ),
        section_user='Scrivi la sezione "{title}" della guida allo studio in italiano da questo testo:\n\n{source}',
    ),
}

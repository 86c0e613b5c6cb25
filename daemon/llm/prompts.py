"""The study-guide prompts, in the document's language, and the language guess that picks them.

Each language has the same set of templates (see :class:`Prompts`); adding one means adding an entry to
:data:`PROMPTS` and its stop words to :data:`_STOPWORDS`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["PROMPTS", "Language", "Prompts", "detect_language"]

Language = Literal["pt", "en"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_STOPWORDS: dict[Language, frozenset[str]] = {
    "en": _words(
        """the of and to in is that it for as with was on are be by this which from or an at not have
        has were their they these can its also but been more than into such when other"""
    ),
    "pt": _words(
        """de que não uma um para com os as do da dos das em no na nos nas por mais foi ao pelo pela são
        como mas se seu sua ou ser está também entre quando muito já isso esta este essa esse"""
    ),
}
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def detect_language(text: str, default: Language = "en") -> Language:
    """Guess whether ``text`` is Portuguese or English from its most common short words.

    Args:
        text: Any amount of text; the first ~20,000 characters are looked at.
        default: Returned when neither language is recognised (no stop words at all).
    """
    words = [w.lower() for w in _WORD.findall(text[:20_000])]
    scores = {lang: sum(1 for w in words if w in stops) for lang, stops in _STOPWORDS.items()}
    best = max(scores, key=lambda lang: scores[lang])
    return best if scores[best] > 0 else default


@dataclass(frozen=True, slots=True)
class Prompts:
    """Templates for one language. ``{placeholders}`` are filled with :meth:`str.format`."""

    guide_title: str
    part_title: str
    outline_system: str
    outline_user: str
    section_system: str
    section_user: str


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
}

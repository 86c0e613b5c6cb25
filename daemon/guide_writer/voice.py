"""Whether a section's summary speaks as a summary: of its pages, in the third person, to nobody in particular.

:func:`voice_problems` names what it finds per sentence (``first_person``, ``question``, ``chatter``). Plain
functions over regular expressions; thread-safe. The signals: docs/design/guide-writer.md.
"""

from __future__ import annotations

import re

from daemon.guide_writer.checks import split_sentences

__all__ = ["VOICE_CODES", "voice_problems"]

VOICE_CODES = ("first_person", "question", "chatter")

_ROMAN_BEFORE = (
    r"(?<!\bpart )(?<!\bchapter )(?<!\bsection )(?<!\bvolume )(?<!\bbook )(?<!\bwar )(?<!\bphase )(?<!\btype )"
    r"(?<!\bclass )(?<!\bstage )(?<!\blevel )(?<!\bappendix )(?<!\btable )(?<!\bfigure )(?<!\barticle )"
    r"(?<!\btitle )(?<!\bunit )(?<!\bmodule )(?<!\bact )(?<!\bstep )"
)
_FIRST_PERSON = {
    "en": re.compile(_ROMAN_BEFORE + r"\bI\b(?!\.\w)|\b(?:I'm|I've|I'll|I'd|me|my|mine|myself|let's)\b", re.IGNORECASE),
    "pt": re.compile(
        r"\b(?:eu|meu|minha|meus|minhas|comigo|me|deixe-me|vamos|vou|estou|fiz|criei|acho|tenho|posso|farei|"
        r"fizemos|estamos)\b",
        re.IGNORECASE,
    ),
}
_CHATTER = {
    "en": re.compile(
        r"^(?:here(?:'s| is| are)\b|sure\b|certainly\b|of course\b|okay\b|ok\b|great\b|as an ai\b|"
        r"feel free\b|let me know\b|please\b|note:|this summary\b|in this summary\b|summary:)",
        re.IGNORECASE,
    ),
    "pt": re.compile(
        r"^(?:aqui est[áa]|aqui v[ãa]o|claro\b|certamente\b|com certeza\b|espero que\b|fique [àa] vontade\b|"
        r"por favor\b|ok\b|observa[çc][ãa]o:|este resumo\b|neste resumo\b|resumo:)",
        re.IGNORECASE,
    ),
}
_CHATTER_ANYWHERE = {
    "en": re.compile(r"\b(?:I hope this helps|hope this helps|as an AI)\b", re.IGNORECASE),
    "pt": re.compile(r"\b(?:espero ter ajudado|espero que ajude)\b", re.IGNORECASE),
}


def voice_problems(text: str, language: str) -> tuple[str, ...]:
    """The codes of :data:`VOICE_CODES` that ``text`` (Markdown) shows, in that order; ``()`` for a summary that
    speaks as one. English's rules apply to a language this module has no words for."""
    key = language if language in _FIRST_PERSON else "en"
    found: set[str] = set()
    for sentence in split_sentences(text):
        if _FIRST_PERSON[key].search(sentence):
            found.add("first_person")
        if sentence.rstrip("\"'”’)»").endswith("?"):
            found.add("question")
        if _CHATTER[key].match(sentence) or _CHATTER_ANYWHERE[key].search(sentence):
            found.add("chatter")
    return tuple(code for code in VOICE_CODES if code in found)

"""A small language detector: which language is a document written in?

:func:`detect_language` returns a code, or ``None`` when there is too little text or no language clearly wins.
Pure, thread-safe; a few milliseconds whatever the size. How: docs/design/readers.md.
"""

from __future__ import annotations

import re
from collections import Counter

__all__ = ["MIN_WORDS", "STOPWORDS", "detect_language", "normalize_language_tag"]

MIN_WORDS = 20
"""Fewer words than this: :func:`detect_language` returns ``None``."""

_SAMPLE_WINDOW = 8000
_WORD = re.compile(r"\b[^\W\d_]+\b")  # whole words: "y2" is not the Spanish "y"

_LISTS: dict[str, str] = {
    "en": """the and of to is that it for with as was on are be this by at from or an which have not but they you
        can will were their has been if there we would all when what more he she his her its one about into than
        them these so only other also how some out who may should any each between after through where because
        those does do such could our your then being while must both very just own most many same""",
    "pt": """não uma um os ao aos com do da dos das em no na nos nas é são para pelo pela pelos pelas mais foi ele
        ela eles elas seu sua seus suas ou quando muito muitos muita muitas já também só até isso isto entre depois
        sem mesmo quem esse essa esses essas este esta estes estas você vocês nós lhe dele dela meu minha num numa
        pode podem ser está estão tem têm há onde como mas porque então ainda sobre cada outro outra outros outras
        qual quais às à nem seja sendo foram era eram fazer vez bem assim aqui agora através após antes sempre
        nunca apenas ter tinha pois contra desde porém aquele aquela deve devem sido será muito pelo mesma""",
    "es": """de que el la los las del al y en un una unos unas es son por con para no se su sus lo le les más pero como
        está están ser fue era muy también ya hay sin sobre entre cuando donde porque desde hasta todo todos esta
        este esto estos estas ese esa eso mismo otro otra otros puede pueden hace cada tiene tienen sólo qué cómo
        nos yo él ella ellos nosotros usted ustedes cual cuales aunque después entonces según así aquí ahora
        siempre nunca mientras durante tras había sido será muchos mucho""",
    "fr": """le la les des du de un une et est sont pour dans par sur avec ne pas plus qui que ce cette ces il elle
        ils elles nous vous on au aux en leur leurs mais ou où comme tout tous très aussi été être avoir fait peut
        sans sous entre dont donc si lui même autre autres alors encore chaque après avant depuis ainsi déjà bien
        toujours quand sa son ses mon ma mes notre votre je tu qu peuvent doit cela celui celle ceux""",
    "de": """der die und den dem das ist nicht ein eine einen einem zu mit auf für von sich auch es im sind wird
        werden wie oder aber bei nach aus wenn nur noch kann können dass daß sie er wir ich ihr diese dieser dieses
        als um durch über so hat haben war wurde schon sehr mehr zum zur vom beim man keine kein doch ob weil""",
    "it": """il lo la gli le di del della dei delle degli che è e un una uno per non con si sono ma come anche più
        nel nella nei alla alle al ai dal dalla questo questa questi quello quella essere stato sua suo loro ci ne
        se perché quando dove molto tutti tutto sempre ancora già fra tra cui ha hanno era solo dopo ogni poi così
        bene fatto""",
}


def _exclusive(lists: dict[str, str]) -> dict[str, frozenset[str]]:
    sets = {lang: frozenset(words.split()) for lang, words in lists.items()}
    seen = Counter(word for words in sets.values() for word in words)
    return {lang: frozenset(w for w in words if seen[w] == 1) for lang, words in sets.items()}


STOPWORDS: dict[str, frozenset[str]] = _exclusive(_LISTS)
"""Language → the function words that belong to that language's list only."""

_ASCII = re.compile(r"[\x00-\x7f]+")
_ASCII_LETTERS = re.compile(r"[A-Za-z]+")
_SCRIPTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("latin", re.compile(r"[\u00c0-\u024f]+")),  # ASCII letters are counted apart
    ("kana", re.compile(r"[\u3040-\u30ff]+")),
    ("han", re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")),
    ("hangul", re.compile(r"[\u1100-\u11ff\uac00-\ud7af]+")),
    ("cyrillic", re.compile(r"[\u0400-\u04ff]+")),
    ("greek", re.compile(r"[\u0370-\u03ff]+")),
    ("arabic", re.compile(r"[\u0600-\u06ff]+")),
    ("hebrew", re.compile(r"[\u0590-\u05ff]+")),
    ("thai", re.compile(r"[\u0e00-\u0e7f]+")),
)
# One CJK character carries about as much as a short Latin word: weigh it up so that the Latin commands and
# English terms of a Japanese manual do not outvote its Japanese text.
_WEIGHT = {"kana": 2, "han": 3, "hangul": 2}


def _sample(text: str) -> str:
    if len(text) <= 3 * _SAMPLE_WINDOW:
        return text
    starts = (len(text) // 10, len(text) // 2, (len(text) * 4) // 5)
    return " ".join(text[s : s + _SAMPLE_WINDOW] for s in starts)


def _count(pattern: re.Pattern[str], text: str) -> int:
    """How many characters of ``text`` ``pattern`` matches (one C-speed pass, no list of matches)."""
    return len(text) - len(pattern.sub("", text))


def _script(sample: str) -> str | None:
    rest = _ASCII.sub("", sample)  # the non-ASCII characters: few in Latin-script text
    if len(rest) * 4 < len(sample):
        return "latin"
    counts = {name: _count(pattern, rest) * _WEIGHT.get(name, 1) for name, pattern in _SCRIPTS}
    counts["latin"] += _count(_ASCII_LETTERS, sample)
    if sum(counts.values()) == 0:
        return None
    name = max(counts, key=lambda key: counts[key])
    if counts["kana"] + counts["han"] > max(counts["latin"], counts["hangul"]):
        # Japanese mixes kana with kanji; Chinese has no kana.
        return "ja" if counts["kana"] * 10 >= counts["kana"] + counts["han"] else "zh"
    return {"latin": "latin", "hangul": "ko", "greek": "el", "hebrew": "he", "thai": "th"}.get(name)


def detect_language(text: str) -> str | None:
    """The ISO 639-1 code of ``text``'s language, or ``None`` when unsure.

    Returns ``"pt"``, ``"en"``, ``"es"``, ``"fr"``, ``"de"``, ``"it"`` for Latin-script text with at least
    :data:`MIN_WORDS` words where one language's function words clearly outnumber the others';
    ``"ja"``, ``"zh"``, ``"ko"``, ``"el"``, ``"he"``, ``"th"`` by script; ``None`` otherwise (too little text,
    a language we do not know, a mix with no clear winner).
    """
    sample = _sample(text)
    script = _script(sample)
    if script != "latin":
        return script
    words = _WORD.findall(sample.lower())
    if len(words) < MIN_WORDS:
        return None
    counts = Counter(words)
    scores = {lang: sum(counts[w] for w in stop if w in counts) for lang, stop in STOPWORDS.items()}
    ranked = sorted(scores.items(), key=lambda item: item[1], reverse=True)
    (best, top), (_, second) = ranked[0], ranked[1]
    if top < 3 or top < 0.04 * len(words) or top < 1.5 * second:
        return None
    return best


def normalize_language_tag(tag: str | None) -> str | None:
    """``"pt"`` for ``"pt-BR"``, ``"en"`` for ``"en_US"`` …: the ISO 639-1 part of a language tag, or ``None``.

    Three-letter tags of the languages above (``"por"``, ``"eng"`` …) are mapped too; anything else that is not
    two letters gives ``None``.
    """
    if not tag:
        return None
    primary = re.split(r"[-_]", tag.strip().lower(), maxsplit=1)[0]
    three = {"por": "pt", "eng": "en", "spa": "es", "fra": "fr", "fre": "fr", "deu": "de", "ger": "de", "ita": "it"}
    if primary in three:
        return three[primary]
    return primary if re.fullmatch(r"[a-z]{2}", primary) else None

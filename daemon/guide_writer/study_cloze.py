"""Fill-in-the-blank review questions: a key sentence of the section with one of its terms blanked out, answered by
the sentence itself, quoted with its page.

Pure functions; thread-safe. When they are asked: docs/design/guide-writer.md.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from daemon.guide_writer.checks import normalize_sentence
from daemon.guide_writer.extractive import rank_sentences
from daemon.guide_writer.study_aids import KeyTerm, complete_sentence, paragraph_sentences
from daemon.guide_writer.study_aids_text import aids_language
from daemon.guide_writer.study_subjects import looks_like_code, study_subject

__all__ = ["BLANK", "cloze_terms"]

BLANK = "____"
_MIN_WORDS, _MAX_WORDS = 8, 40
_NAME_MIN_SAID = 3
_CODE = re.compile(r"[\\{}<>=|]|https?:|\w@\w")
_NAME = re.compile(r"\b[^\W\d_]*[A-ZÀ-Ý][^\W\d_]*[A-ZÀ-Ý][^\W\d_]*\b|(?<=[^\W\d_] )[A-ZÀ-Ý][^\W\d_]{2,}\b")
"""A word with two capitals ("LATEX", "CTAN", "LaTeX"), or a capitalised word within a sentence ("Beamer")."""


def _names(text: str, stop: set[str] | frozenset[str]) -> list[str]:
    """Names the text says at least :data:`_NAME_MIN_SAID` times, most said first."""
    counts = Counter(m.group(0) for m in _NAME.finditer(text) if m.group(0).lower() not in stop)
    return [name for name, n in counts.most_common() if n >= _NAME_MIN_SAID and len(name) >= 3]


def cloze_terms(
    passages: Sequence[str],
    numbers: Sequence[int],
    pages: Sequence[Sequence[int]],
    language: str,
    *,
    terms: Iterable[str],
    used: set[str],
    wanted: int,
) -> list[KeyTerm]:
    """Up to ``wanted`` fill-in-the-blank questions from the passages ``numbers`` (1-based), as :class:`KeyTerm`
    with ``kind="cloze"`` (``term`` is the blanked word, ``meaning`` the sentence with the blank, ``definition``
    the sentence).

    Args:
        passages, numbers, pages: The plan's passages, the section's numbers and each passage's pages.
        language: The guide's language.
        terms: The guide's defined terms, blanked first when a sentence holds one.
        used: :func:`~daemon.guide_writer.checks.normalize_sentence` keys of the sentences the guide's questions already
            quote; the chosen ones are added.
        wanted: How many to make at most.
    """
    if wanted <= 0:
        return []
    lang = aids_language(language)
    candidates: list[tuple[str, tuple[int, ...]]] = []
    for n in numbers:
        for sentence in paragraph_sentences(passages[n - 1]):
            sentence = sentence.lstrip("•-–* ")
            size = len(sentence.split())
            fits = _MIN_WORDS <= size <= _MAX_WORDS and complete_sentence(sentence) and not _CODE.search(sentence)
            fits = fits and not looks_like_code(sentence)
            if fits and normalize_sentence(sentence) not in used:
                candidates.append((sentence, tuple(pages[n - 1]) if pages else ()))
    text = "\n\n".join(passages[n - 1] for n in numbers)
    stop = lang.stop | set(lang.articles.split("|"))
    targets = [t for t in dict.fromkeys(terms) if len(t) >= 3] + _names(text, stop)
    targets = [t for t in targets if study_subject(t, language)]  # no blank for "Figura", "CMD" or "Este"
    made: list[KeyTerm] = []
    for index in rank_sentences([s for s, _p in candidates]):
        sentence, own = candidates[index]
        key = normalize_sentence(sentence)
        target = next((t for t in targets if re.search(rf"(?<!\w){re.escape(t)}(?!\w)", sentence)), None)
        if target is None or key in used:
            continue
        blanked = re.sub(rf"(?<!\w){re.escape(target)}(?!\w)", BLANK, sentence)
        if len(blanked.split()) - blanked.count(BLANK) < _MIN_WORDS - 2:
            continue
        used.add(key)
        made.append(KeyTerm(target, sentence, own, blanked, kind="cloze"))
        if len(made) >= wanted:
            break
    return made

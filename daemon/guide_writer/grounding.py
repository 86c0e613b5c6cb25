"""Whether a generated text says what its passages say, and whether a section title belongs to its passages.

:func:`grounding`, :func:`sentence_support`, :func:`title_problems` and :func:`extractive_title` count words; they
judge no meaning. The common words are computed once per process per language; otherwise pure functions,
thread-safe. The measures and thresholds: docs/design/guide-writer.md.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from daemon.guide_writer.checks import (
    DICTIONARY_LANGUAGES,
    TextChecker,
    _dictionary,
    plain_text,
    split_sentences,
    word_tokens,
)
from daemon.readers.language import detect_language

__all__ = [
    "GROUNDED_MIN",
    "MAX_NEW_NUMBERS",
    "SENTENCE_GROUNDED_MIN",
    "SENTENCE_MIN_WORDS",
    "Grounding",
    "SentenceSupport",
    "checked_titles",
    "extractive_title",
    "grounding",
    "sentence_support",
    "title_problems",
]

GROUNDED_MIN = 0.6
"""Share of a text's content words its passages must contain."""
MIN_CONTENT_WORDS = 8
"""Below this many content words the share says too little: such a text is not judged on it."""
SENTENCE_MIN_WORDS = 3
"""Below this many content words a sentence ("It has three parts.") is not judged on its share."""
SENTENCE_GROUNDED_MIN = 0.5
"""Share of a sentence's content words the passages it cites must contain (lower than the whole text's: a sentence
has few words, and one word of its own weighs more)."""
MAX_NEW_NUMBERS = 2
"""A text with this many numbers its passages do not contain invents figures."""
_COMMON_WORDS = 400
_PREFIX_MIN = 5
_TITLE_MAX_WORDS = 8
_LOCK = threading.Lock()
_log = logging.getLogger(__name__)
_HEADING_NUMBER = re.compile(
    r"^(?:(?:chapter|cap[íi]tulo|cap\.|section|se[çc][ãa]o|parte?|part)\s+)?[\dIVXivx]+(?:\.\d+)*\.?\s+"
)
_AND = {"pt": "e", "en": "and", "es": "y", "fr": "et", "de": "und", "it": "e"}


@lru_cache(maxsize=8)
def _common(language: str) -> frozenset[str]:
    """The language's most frequent words (articles, pronouns, common verbs): they say nothing of a passage."""
    if language not in DICTIONARY_LANGUAGES:
        return frozenset()
    with _LOCK:
        counts = _dictionary(language).word_frequency.dictionary
        top = sorted(counts.items(), key=lambda item: -item[1])[:_COMMON_WORDS]
    return frozenset(word for word, _count in top)


def _has_digit(word: str) -> bool:
    return any(c.isdigit() for c in word)


def _content_words(words: Iterable[str], language: str) -> list[str]:
    common = _common(language)
    return [
        w
        for w in (word.lower() for word in words)
        if _has_digit(w) or (len(w) >= 4 and w not in common and any(c.isalpha() for c in w))
    ]


class _Vocabulary:
    """The words of some passages and their prefixes of five letters or more, lower-cased."""

    def __init__(self, sources: Sequence[str]) -> None:
        self.words = {w.lower() for source in sources for w in word_tokens(source)}
        self.prefixes = {w[:n] for w in self.words for n in range(_PREFIX_MIN, len(w) + 1)}

    def has(self, word: str) -> bool:
        if word in self.words:
            return True
        if _has_digit(word) or len(word) < _PREFIX_MIN + 1:
            return False
        return word[: max(_PREFIX_MIN, len(word) - 3)] in self.prefixes


@dataclass(frozen=True, slots=True)
class Grounding:
    """How much of a text its passages support.

    Attributes:
        content_words: The text's content words (numbers included).
        supported: How many of them occur in the passages.
        new_numbers: The numbers of the text that the passages do not contain.
    """

    content_words: int
    supported: int
    new_numbers: tuple[str, ...]

    @property
    def share(self) -> float:
        """Share of the content words found in the passages (1.0 for a text without any)."""
        return self.supported / self.content_words if self.content_words else 1.0

    @property
    def ok(self) -> bool:
        """Whether the text stays with its passages: enough of its words are theirs, and it invents no figures."""
        if len(self.new_numbers) >= MAX_NEW_NUMBERS:
            return False
        return self.content_words < MIN_CONTENT_WORDS or self.share >= GROUNDED_MIN


def grounding(text: str, sources: Sequence[str], language: str) -> Grounding:
    """How much of ``text`` (Markdown) the passages ``sources`` support (see docs/design/guide-writer.md)."""
    vocabulary = _Vocabulary(sources)
    content = _content_words(word_tokens(plain_text(text)), language)
    supported = sum(1 for w in content if vocabulary.has(w))
    new_numbers = tuple(dict.fromkeys(w for w in content if _has_digit(w) and w not in vocabulary.words))
    return Grounding(len(content), supported, new_numbers)


_CITATION = re.compile(r"\((?:pp?|p[áa]gs?|pages?|p[áa]ginas?)\.?\s*([^()]{1,40})\)", re.IGNORECASE)
_CITED_PAGE = re.compile(r"\d+|[ivxlc]+", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class SentenceSupport:
    """One sentence of a text and how much the passages of the pages it cites support it.

    Attributes:
        sentence: The sentence (plain text).
        grounding: Its :class:`Grounding` against the passages it was checked with.
        pages: The page labels it cites (empty: checked against every passage).
    """

    sentence: str
    grounding: Grounding
    pages: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """Whether the sentence stays with its passages (a short one is not judged)."""
        found = self.grounding
        return found.content_words < SENTENCE_MIN_WORDS or found.share >= SENTENCE_GROUNDED_MIN


def _cited(sentence: str) -> tuple[str, ...]:
    return tuple(page.lower() for match in _CITATION.finditer(sentence) for page in _CITED_PAGE.findall(match[1]))


def sentence_support(
    text: str, sources: Sequence[str], language: str, pages: Sequence[str | None] | None = None
) -> list[SentenceSupport]:
    """Each sentence of ``text`` (Markdown) with its support by the passages ``sources`` (``pages``: each one's
    page label): the passages of the pages it cites when it cites some that are there, else all of them."""
    labels = [str(label).lower() if label is not None else "" for label in (pages or [None] * len(sources))]
    results = []
    unsplit = _CITATION.sub(lambda match: f"(p {match[1]})", plain_text(text))  # "p." ends no sentence
    for sentence in split_sentences(unsplit):
        cited = _cited(sentence)
        chosen = [source for source, label in zip(sources, labels, strict=False) if label and label in cited]
        support = grounding(_CITATION.sub("", sentence), chosen or sources, language)
        results.append(SentenceSupport(sentence, support, cited if chosen else ()))
    return results


def title_problems(title: str, sources: Sequence[str], language: str) -> tuple[str, ...]:
    """Why ``title`` cannot head a section written from ``sources`` (empty when it can).

    Codes: ``"empty"``, ``"unknown_words"`` (a word neither in the dictionary nor in the passages),
    ``"wrong_language"``, ``"unrelated"`` (no content word of the title occurs in the passages).
    """
    words = [w for w in word_tokens(title) if any(c.isalpha() for c in w)]
    if not words:
        return ("empty",)
    problems: list[str] = []
    vocabulary = _Vocabulary(sources)
    alphabetic = [w.lower() for w in words if not _has_digit(w)]
    foreign = [w for w in alphabetic if len(w) > 1 and not vocabulary.has(w)]
    if foreign and TextChecker(language).unknown_words(" ".join(f"x {w}" for w in foreign)):
        problems.append("unknown_words")  # "x " keeps each word lower-case and mid-sentence: no proper nouns
    if len(words) >= 4:
        detected = detect_language(title)
        if detected is not None and detected != language:
            problems.append("wrong_language")
    content = [w for w in _content_words(words, language) if not _has_digit(w)] or alphabetic
    if not any(vocabulary.has(w) for w in content):
        problems.append("unrelated")
    return tuple(problems)


def extractive_title(sources: Sequence[str], language: str) -> str:
    """A title from the passages: the line that opens them when it reads as a heading (short, no final full stop,
    starting with a capital), without its numbering; else their two or three most frequent content words."""
    for source in sources[:1]:
        first = source.strip().split("\n", 1)[0].strip()
        first = _HEADING_NUMBER.sub("", first, count=1).strip(" .:—-")
        words = word_tokens(first)
        heading = 1 <= len(words) <= _TITLE_MAX_WORDS and first[:1].isupper() and not first.endswith((".", ",", ";"))
        if heading and not title_problems(first, sources, language):
            return first
    counts: Counter[str] = Counter()
    shown: dict[str, str] = {}
    for source in sources:
        for word in word_tokens(source):
            lower = word.lower()
            if _has_digit(lower) or len(lower) < 4 or lower in _common(language) or not lower.isalpha():
                continue
            counts[lower] += 1
            shown.setdefault(lower, word if not word.isupper() else lower)
    top = [shown[w] for w, n in counts.most_common(3) if n > 1] or [shown[w] for w, _n in counts.most_common(2)]
    if not top:
        return ""
    joined = top[0] if len(top) == 1 else f"{', '.join(top[:-1])} {_AND.get(language, 'and')} {top[-1]}"
    return joined[:1].upper() + joined[1:]


def checked_titles(
    sections: Sequence[tuple[str, Sequence[int]]], passages: Sequence[str], language: str
) -> list[tuple[str, list[int]]]:
    """``sections`` (titles and 1-based passage numbers) with every title that fails :func:`title_problems`
    against its own passages replaced by :func:`extractive_title` of them (kept when they give none)."""
    checked: list[tuple[str, list[int]]] = []
    for title, numbers in sections:
        sources = [passages[n - 1] for n in numbers]
        problems = title_problems(title, sources, language)
        if problems:
            replacement = extractive_title(sources, language) or title
            _log.info(
                "section title %r rejected (%s), titled %r from its passages", title, ", ".join(problems), replacement
            )
            title = replacement
        checked.append((title, list(numbers)))
    return checked

"""The check every generated text passes before it goes into a guide.

:meth:`TextChecker.check` names the problems found (:attr:`CheckResult.problems`). The dictionaries load once per
process per language and are read-only afterwards: a :class:`TextChecker` may be used from any thread. The
problems: docs/design/guide-writer.md.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from spellchecker import SpellChecker

from daemon.readers.language import detect_language

__all__ = [
    "CHECK_CODES",
    "DICTIONARY_LANGUAGES",
    "CheckResult",
    "TextChecker",
    "echoed_words",
    "longest_copy",
    "normalize_sentence",
    "plain_text",
    "split_sentences",
    "word_tokens",
]

CHECK_CODES = (
    "repeated_sentence",
    "repeated_words",
    "unknown_words",
    "wrong_language",
    "too_short",
    "copied",
    "echoed_prompt",
)
"""Every code :meth:`TextChecker.check` may give (the guide's writer adds ``"ungrounded"``). The order
is a priority: of the checks a text failed, a guide's job details name the one listed first
(:data:`daemon.jobs.generate.QUOTE_REASONS` ranks ``"echoed_prompt"`` and then ``"ungrounded"`` ahead of the
rest)."""

DICTIONARY_LANGUAGES = frozenset({"pt", "en", "es", "fr", "de", "it"})
"""Languages whose words are checked against a dictionary; the other checks apply to every language."""

MIN_WORDS = 25
UNKNOWN_WORD_LIMIT = 0.03
"""Share of a text's words that may be unknown (typos, technical terms the source does not spell out)."""
COPY_LIMIT_WORDS = 40
ECHO_GRAM = 5
"""Length of the word runs compared with the prompt's instructions: shorter runs ("in the source") are common
phrases, five words of an instruction in a row are not."""
ECHO_LIMIT_WORDS = 8
"""Words of a text in runs taken from the instructions that make it an echo: one run of eight, or two of five."""
_SENTENCE_MIN_WORDS = 4

_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+|\n+")
_WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*", re.UNICODE)
_MARKUP = re.compile(r"^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)|[*_`|]+", re.MULTILINE)
_LOCK = threading.Lock()


@dataclass(frozen=True, slots=True)
class CheckResult:
    """The verdict on one text.

    Attributes:
        problems: Codes of the failed checks (see docs/design/guide-writer.md); empty when the text passes.
        words: How many words the text has.
        unknown_words: How many of them are not known (see ``"unknown_words"``).
    """

    problems: tuple[str, ...]
    words: int
    unknown_words: int

    @property
    def ok(self) -> bool:
        """Whether the text passed every check."""
        return not self.problems

    @property
    def unknown_rate(self) -> float:
        """Share of words not known; 0 for a text without words."""
        return self.unknown_words / self.words if self.words else 0.0


def plain_text(markdown: str) -> str:
    """``markdown`` without heading marks, list bullets, quote marks, emphasis and code ticks."""
    return _MARKUP.sub("", markdown)


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text`` (Markdown marks removed): cut after ``.!?…`` and at line breaks."""
    return [s.strip() for s in _SENTENCE_END.split(plain_text(text)) if s.strip()]


def word_tokens(text: str) -> list[str]:
    """The words of ``text``, as written (letters and digits, with inner hyphens and apostrophes)."""
    return _WORD.findall(text)


def normalize_sentence(sentence: str) -> str:
    """The key two sentences share when they say the same words: lower case, punctuation dropped; ``""`` for a
    sentence of fewer than four words (too short to count as a repetition)."""
    words = [w.lower() for w in word_tokens(sentence)]
    return " ".join(words) if len(words) >= _SENTENCE_MIN_WORDS else ""


@lru_cache(maxsize=8)
def _dictionary(language: str) -> SpellChecker:
    with _LOCK:
        return SpellChecker(language=language, distance=1)


class TextChecker:
    """Checks texts written in ``language`` (an ISO 639-1 code) for one guide.

    Args:
        language: The language the texts must be in.
        min_words: Fewer words than this is ``"too_short"``.
    """

    def __init__(self, language: str, *, min_words: int = MIN_WORDS) -> None:
        self.language = language
        self.min_words = min_words
        self._dictionary = _dictionary(language) if language in DICTIONARY_LANGUAGES else None

    def check(
        self,
        text: str,
        *,
        sources: Sequence[str] = (),
        seen_sentences: Iterable[str] = (),
        quoted: bool = False,
        instructions: Sequence[str] = (),
    ) -> CheckResult:
        """Check ``text`` (Markdown) against its ``sources`` and the sentences the guide already holds.

        Args:
            text: The generated text.
            sources: The passages it was written from.
            seen_sentences: :func:`normalize_sentence` keys of the sentences already in the guide.
            quoted: The text is made of quotes of the sources (no ``"copied"`` check, no length minimum).
            instructions: The prompt's own words, each piece apart (the system prompt, the user prompt's text
                around its placeholders): a text that says them again fails with ``"echoed_prompt"``.
        """
        plain = plain_text(text)
        words = word_tokens(plain)
        problems: list[str] = []
        if _repeats_sentence(plain, set(seen_sentences)):
            problems.append("repeated_sentence")
        if _repeats_words([w.lower() for w in words]):
            problems.append("repeated_words")
        unknown = self.unknown_words(plain, sources)
        if words and len(unknown) / len(words) > UNKNOWN_WORD_LIMIT:
            problems.append("unknown_words")
        detected = detect_language(plain)
        if detected is not None and detected != self.language:
            problems.append("wrong_language")
        if not quoted and len(words) < self.min_words:
            problems.append("too_short")
        if not quoted and sources and longest_copy(words, sources) >= COPY_LIMIT_WORDS:
            problems.append("copied")
        if instructions and echoed_words(words, instructions, sources) >= ECHO_LIMIT_WORDS:
            problems.append("echoed_prompt")
        return CheckResult(problems=tuple(problems), words=len(words), unknown_words=len(unknown))

    def unknown_words(self, text: str, sources: Sequence[str] = ()) -> list[str]:
        """The words of ``text`` (plain) that are neither in the dictionary, nor proper nouns, numbers or words
        of ``sources``. Every word is known for a language without a dictionary."""
        if self._dictionary is None:
            return []
        known_source = {w.lower() for source in sources for w in word_tokens(source)}
        candidates: list[str] = []
        for sentence in _SENTENCE_END.split(text):
            for index, word in enumerate(word_tokens(sentence)):
                if any(not c.isalpha() for c in word.replace("-", "").replace("'", "").replace("’", "")):
                    continue  # numbers, codes, identifiers
                if index > 0 and word[0].isupper():
                    continue  # a proper noun or an acronym inside the sentence
                lower = word.lower()
                if lower in known_source or len(lower) == 1:
                    continue
                candidates.append(lower)
        if not candidates:
            return []
        parts = {p for word in candidates for p in re.split(r"[-'’]", word) if p}
        missing = self._dictionary.unknown(parts)
        if self.language == "pt" and missing:  # the dictionary spells European Portuguese
            missing = {p for p in missing if not self._dictionary.known(_european_spellings(p))}
        return [w for w in candidates if any(p in missing for p in re.split(r"[-'’]", w) if p)]


_BRAZILIAN_TO_EUROPEAN = (("ô", "ó"), ("ê", "é"), ("ção", "cção"), ("çõe", "cçõe"), ("to", "cto"), ("tro", "to"))


def _european_spellings(word: str) -> list[str]:
    """The European spellings a Brazilian word may have (``seção`` → ``secção``, ``econômico`` → ``económico``,
    ``contato`` → ``contacto``, ``registro`` → ``registo``)."""
    variants = {word}
    for brazilian, european in _BRAZILIAN_TO_EUROPEAN:
        variants |= {v.replace(brazilian, european) for v in variants if brazilian in v}
    variants.discard(word)
    return sorted(variants)


def _repeats_sentence(text: str, seen: set[str]) -> bool:
    keys = [k for k in (normalize_sentence(s) for s in _SENTENCE_END.split(text)) if k]
    return len(keys) != len(set(keys)) or any(k in seen for k in keys)


def _repeats_words(words: Sequence[str]) -> bool:
    for size, limit in ((4, 4), (6, 3), (12, 2)):
        grams = Counter(tuple(words[i : i + size]) for i in range(len(words) - size + 1))
        if grams and max(grams.values()) >= limit:
            return True
    return False


def _grams(text: str, size: int) -> set[tuple[str, ...]]:
    tokens = [w.lower() for w in word_tokens(text)]
    return {tuple(tokens[i : i + size]) for i in range(len(tokens) - size + 1)}


def echoed_words(
    words: Sequence[str], instructions: Sequence[str], sources: Sequence[str] = (), gram: int = ECHO_GRAM
) -> int:
    """How many of ``words`` stand in a run of ``gram`` words (lower-cased) that occurs in one of
    ``instructions`` and in none of ``sources`` (a passage that says what the prompt says may be quoted)."""
    told = set().union(*(_grams(piece, gram) for piece in instructions))
    if not told:
        return 0
    told -= set().union(*(_grams(source, gram) for source in sources))
    lowered = [w.lower() for w in words]
    covered = [False] * len(lowered)
    for i in range(len(lowered) - gram + 1):
        if tuple(lowered[i : i + gram]) in told:
            covered[i : i + gram] = [True] * gram
    return sum(covered)


def longest_copy(words: Sequence[str], sources: Sequence[str], gram: int = 8) -> int:
    """The longest run of ``words`` (lower-cased) found word for word in ``sources``, in words (runs shorter than
    ``gram`` words count as 0)."""
    source_grams: set[tuple[str, ...]] = set()
    for source in sources:
        tokens = [w.lower() for w in word_tokens(source)]
        source_grams.update(tuple(tokens[i : i + gram]) for i in range(len(tokens) - gram + 1))
    lowered = [w.lower() for w in words]
    longest = run = 0
    for i in range(len(lowered) - gram + 1):
        run = run + 1 if tuple(lowered[i : i + gram]) in source_grams else 0
        longest = max(longest, run + gram - 1 if run else 0)
    return longest

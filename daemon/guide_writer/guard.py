"""The wrapper around each model call of the guide writer: generate, check, try once more, else quote.

Used on the writer's event loop; one :class:`SectionGuard` per guide (it remembers the guide's sentences), never
shared between guides running at once. The retry and the fallback: docs/design/guide-writer.md.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from daemon.guide_writer.checks import CheckResult, TextChecker, normalize_sentence, split_sentences
from daemon.guide_writer.extractive import QUOTES_NOTE, quoted_section
from daemon.guide_writer.grounding import grounding, sentence_support
from daemon.guide_writer.study_aids_text import GLOSSARY_REFERENCE
from daemon.guide_writer.voice import voice_problems
from daemon.llm.base import ChatMessage, TextGenerator, TokenCallback
from daemon.llm.sampling import DEFAULT_SAMPLING, SamplingSettings, retry_sampling

__all__ = ["QUOTES_ONLY_MAX", "CheckedText", "SectionGuard", "guide_sentence_keys"]

_log = logging.getLogger(__name__)
_LABEL = re.compile(r"^(?:[-*]\s+)?\*\*[^*\n]{1,100}\*\*:?\s*")
"""A line's bold label: a review question's ``**P:**`` / ``**R:**``, a key term's ``- **Term**:``."""
QUOTES_ONLY_MAX = 12
"""The most quotes a section of a writer without summaries holds (one per ~120 words of its passages): its key
passages are the section, where a fallback's six stand in for one summary."""
_NOTE_KEYS = frozenset(normalize_sentence(note) for note in QUOTES_NOTE.values())


@dataclass(frozen=True, slots=True)
class CheckedText:
    """A section's text as it goes into the guide.

    Attributes:
        body: The Markdown body.
        origin: ``"model"`` (the model's text passed) or ``"quotes"`` (made of the passages' sentences).
        attempts: Model calls made (1 or 2).
        problems: The failed checks of each rejected attempt, in order.
        model_text: The last text the model wrote (what the benchmark measures), even when rejected.
    """

    body: str
    origin: Literal["model", "quotes"]
    attempts: int
    problems: tuple[tuple[str, ...], ...] = ()
    model_text: str = ""


def guide_sentence_keys(markdown: str) -> list[str]:
    """The :func:`~daemon.guide_writer.checks.normalize_sentence` keys of a guide's sentences, in order, without what
    the writer adds itself: headings (titles), lines wholly in italics (the quotes note, the sources line), table
    rows (the coverage table), the glossary's cross-references (``- **Term**: see the section “…” (p. 5)``) and a
    line's bold label (``**R:**``, ``- **Term**:``), so an answer and a quote of the same sentence have the same
    key."""
    keys = []
    for line in markdown.splitlines():
        bare = line.strip()
        if bare.startswith(("#", "|")) or (len(bare) > 1 and bare[0] in "*_" and bare[-1] == bare[0]):
            continue
        text = _LABEL.sub("", bare)
        if GLOSSARY_REFERENCE.match(text):
            continue
        for sentence in split_sentences(text):
            key = normalize_sentence(sentence)
            if key and key not in _NOTE_KEYS:
                keys.append(key)
    return keys


@dataclass
class SectionGuard:
    """Checks every section of one guide against the guide so far.

    Args:
        generator: The model.
        language: The guide's language (ISO 639-1).
        sampling: The first try's settings (a generator with ``with_sampling`` uses them all; another one only
            their temperature).
    """

    generator: TextGenerator
    language: str
    sampling: SamplingSettings = DEFAULT_SAMPLING
    seen: set[str] = field(default_factory=set)
    checker: TextChecker = field(init=False)

    def __post_init__(self) -> None:
        self.checker = TextChecker(self.language)

    def remember(self, body: str) -> None:
        """Count a section written earlier (a resumed guide) as part of the guide."""
        self.seen.update(guide_sentence_keys(body))

    async def write(
        self,
        messages: Sequence[ChatMessage],
        *,
        sources: Sequence[str],
        pages: Sequence[str | None] | None = None,
        max_tokens: int,
        clean: Callable[[str], str],
        instructions: Sequence[str] = (),
        stop_event: threading.Event | None = None,
        on_token: TokenCallback | None = None,
    ) -> CheckedText:
        """Generate a section from ``messages``, check it, retry once, else quote ``sources``.

        Args:
            messages: The prompt.
            sources: The passages sent in the prompt (what the text may use, and what a fallback quotes).
            pages: Each source's page label, for the quotes.
            max_tokens: The answer's budget.
            clean: Turns the model's raw answer into the section's body (before the check).
            instructions: The prompt's own words (:attr:`~daemon.guide_writer.prompts.Prompts.section_instructions`): a
                text that echoes them fails (``"echoed_prompt"``).
            stop_event, on_token: As :meth:`TextGenerator.chat`; ``on_token`` counts restart with the retry.

        Raises:
            GenerationStoppedError, LLMError: As :meth:`TextGenerator.chat`.
        """
        settings = self.sampling
        rejected: list[tuple[str, ...]] = []
        text = ""
        for attempt in (1, 2):
            raw = await self._generator(settings).chat(
                messages, max_tokens=max_tokens, temperature=settings.temperature, stop_event=stop_event,
                on_token=on_token,
            )  # fmt: skip
            text = clean(raw)
            verdict = self.check(text, sources, instructions, pages)
            if verdict.ok:
                self.remember(text)
                return CheckedText(text, "model", attempt, tuple(rejected), text)
            rejected.append(verdict.problems)
            _log.info("generated text rejected (attempt %d): %s", attempt, ", ".join(verdict.problems))
            settings = retry_sampling(settings)
        body = quoted_section(sources, language=self.language, pages=pages, seen_sentences=self.seen)
        return CheckedText(body, "quotes", 2, tuple(rejected), text)

    def quote(self, sources: Sequence[str], pages: Sequence[str | None] | None = None) -> CheckedText:
        """The section made of quotes of ``sources`` without asking the model (a model that writes no summaries):
        no note in the section, the guide's head says why (:func:`~daemon.guide_writer.extractive.quotes_only_note`)."""
        body = quoted_section(
            sources,
            language=self.language,
            pages=pages,
            seen_sentences=self.seen,
            max_quotes=QUOTES_ONLY_MAX,
            note=False,
        )
        return CheckedText(body, "quotes", 0)

    def check(
        self,
        text: str,
        sources: Sequence[str],
        instructions: Sequence[str] = (),
        pages: Sequence[str | None] | None = None,
    ) -> CheckResult:
        """The check of one section's text against its sources, its prompt's ``instructions`` and the guide so far
        (:mod:`daemon.guide_writer.checks`); whether the sources support the whole text and each of its sentences,
        against the pages it cites (:func:`~daemon.guide_writer.grounding.grounding`,
        :func:`~daemon.guide_writer.grounding.sentence_support`: ``"ungrounded"``); and whether it speaks as a summary
        (:func:`~daemon.guide_writer.voice.voice_problems`: ``"first_person"``, ``"question"``, ``"chatter"``)."""
        verdict = self.checker.check(text, sources=sources, seen_sentences=self.seen, instructions=instructions)
        problems = list(verdict.problems)
        support = grounding(text, sources, self.language)
        unsupported = [s for s in sentence_support(text, sources, self.language, pages) if not s.ok]
        if not support.ok or unsupported:
            _log.info(
                "generated text not grounded: %d of %d content words in its passages, numbers of its own: %s; "
                "%d sentence(s) its pages do not support%s",
                support.supported, support.content_words, ", ".join(support.new_numbers) or "none",
                len(unsupported), f", the first: {unsupported[0].sentence[:120]!r}" if unsupported else "",
            )  # fmt: skip
            problems.append("ungrounded")
        problems.extend(voice_problems(text, self.language))
        return replace(verdict, problems=tuple(problems))

    def _generator(self, settings: SamplingSettings) -> TextGenerator:
        resample = getattr(self.generator, "with_sampling", None)
        if resample is None or settings == getattr(self.generator, "sampling", None):
            return self.generator
        made: TextGenerator = resample(settings)
        return made

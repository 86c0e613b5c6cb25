"""The study-guide writer: extracted text in, a Markdown study guide out.

1. The text is cut into numbered passages (paragraphs, merged when short, split when long) that remember their
   paragraphs, hence their pages (:mod:`daemon.llm.guide_plan`).
2. The sections are the document's own chapters when it declares them. Otherwise passages are grouped into
   chunks that fit the model's context window with room for the answer, and for each chunk the model returns
   an outline (:class:`Outline`), repaired so that every passage belongs to a section, in document order. A
   section too long for one prompt is split into parts: no passage is cut.
3. Each section is written from its passages and ends with its sources (pages, else chapter, else paragraphs).
   Prompts and output follow the document's language. The guide's head, then each section, then a coverage
   table (which pages fed which section, which were left out) are handed to ``on_part`` as soon as they are
   written; the guide's Markdown is those parts joined (:mod:`core.app.guide_markdown`).

Progress is reported through ``on_progress`` with real counters (step *i* of *n*, tokens generated of the
step's budget), on the event loop's thread. The stop event ends the current generation within the generator's
stop latency; :class:`~daemon.llm.errors.GenerationStoppedError` propagates unchanged.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from pydantic import BaseModel, Field

from core.app.document_structure import Chapter, DocumentStructure, page_ranges, paragraphs
from core.app.guide_markdown import HEAD_POSITION, head_markdown, join_guide, section_markdown
from daemon.llm.base import ChatMessage, TextGenerator, TokenProgress
from daemon.llm.errors import InvalidOutputError
from daemon.llm.grounding import checked_titles
from daemon.llm.guard import CheckedText, SectionGuard
from daemon.llm.guide_plan import (
    GuidePlan,
    chapter_sections,
    coverage_markdown,
    fit_sections,
    labels_for,
    passage_pages,
    passage_spans,
    sources_line,
)
from daemon.llm.prompts import PROMPTS, Language, Prompts, detect_language
from daemon.llm.sampling import DEFAULT_SAMPLING
from daemon.llm.study_aids import glossary_markdown, head_overview, key_terms, section_aids

__all__ = [
    "GuidePlan",
    "GuideProgress",
    "GuideSection",
    "GuideWriter",
    "Outline",
    "OutlineSection",
    "PartCallback",
    "StudyGuide",
    "split_passages",
]

_log = logging.getLogger(__name__)
_PROMPT_OVERHEAD_TOKENS = 160  # instructions, chat template and passage labels, with a margin


class OutlineSection(BaseModel):
    """One section of the outline, as the model writes it."""

    title: str = Field(min_length=1, max_length=100)
    passages: list[int] = Field(min_length=1, max_length=40)


class Outline(BaseModel):
    """The model's outline for one chunk of passages."""

    sections: list[OutlineSection] = Field(min_length=1, max_length=8)


@dataclass(frozen=True, slots=True)
class GuideProgress:
    """A progress report.

    Attributes:
        phase: ``"outline"`` (one step per chunk) or ``"section"`` (one step per section).
        step: 1-based index of the current step within the phase.
        steps: Number of steps in the phase (sections are known once the outline is done).
        tokens: Tokens generated so far in this step.
        token_budget: The step's ``max_tokens``: the answer is at most this long.
        title: The section being written (phase ``"section"``).
        prompt_tokens: The step's prompt in tokens: counted before it is sent (step start), exact once the model
            reports it.
    """

    phase: Literal["outline", "section"]
    step: int
    steps: int
    tokens: int
    token_budget: int
    title: str | None = None
    prompt_tokens: int = 0


ProgressCallback = Callable[[GuideProgress], None]

PartCallback = Callable[[int, str, str, str], Awaitable[None]]
"""``on_part(position, title, markdown, origin)``: a part of the guide is written (position 0 is the head, then the
sections from 1; ``origin`` is ``"model"``, or ``"quotes"`` for a section made of quotes because the model's text
failed its check); awaited before the writer goes on, on the event loop's thread."""


@dataclass(frozen=True, slots=True)
class GuideSection:
    """A written section: its title, the 1-based passage numbers it covers, its Markdown body, and how it was
    made (``"model"``, or ``"quotes"`` when the model's text failed its check; ``"kept"`` for a body an earlier
    attempt wrote). ``model_text`` is the model's last answer for it, even when rejected ("" when kept)."""

    title: str
    passages: tuple[int, ...]
    body: str
    origin: str = "model"
    model_text: str = ""
    problems: tuple[str, ...] = ()
    """The failed checks of the model's last text when the section is made of quotes."""


@dataclass(frozen=True, slots=True)
class StudyGuide:
    """The result: ``markdown`` is the whole guide; the rest is for the caller's records."""

    title: str
    language: Language
    sections: tuple[GuideSection, ...]
    markdown: str


def split_passages(text: str, max_chars: int = 1200, min_chars: int = 300) -> list[str]:
    """Cut text into passages: paragraphs, short ones merged up to ``min_chars``, long ones split at
    sentences, a sentence longer than ``max_chars`` split into pieces (see :func:`guide_plan.passage_spans`)."""
    return [passage for passage, _span in passage_spans(text, max_chars, min_chars)]


class GuideWriter:
    """Writes study guides with a :class:`~daemon.llm.base.TextGenerator`.

    Args:
        generator: The model.
        section_tokens: ``max_tokens`` for each section's text.
        outline_tokens: ``max_tokens`` for each chunk's outline.
        max_sections_per_chunk: Upper bound asked of the model for one chunk.
        temperature: Sampling temperature of the outline (0: deterministic). Sections use the generator's own
            sampling settings (``generator.sampling``), and other ones for the second try
            (:mod:`daemon.llm.guard`).
    """

    def __init__(
        self,
        generator: TextGenerator,
        *,
        section_tokens: int = 400,
        outline_tokens: int = 400,
        max_sections_per_chunk: int = 5,
        temperature: float = 0.0,
    ) -> None:
        self.generator = generator
        self.section_tokens = section_tokens
        self.outline_tokens = outline_tokens
        self.max_sections_per_chunk = max_sections_per_chunk
        self.temperature = temperature

    async def write(
        self,
        text: str,
        *,
        title: str | None = None,
        language: Language | None = None,
        structure: DocumentStructure | None = None,
        stop_event: threading.Event | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> StudyGuide:
        """Write the study guide for ``text``: :meth:`outline`, then :meth:`write_sections`.

        Args:
            text: The document's extracted text.
            title: The guide's heading; defaults to "Study guide" in the document's language.
            language: Forces the language instead of guessing it.
            structure: The document's pages and chapters (:mod:`core.app.document_structure`), for citations and
                the plan.
            stop_event: Set from any thread to stop; see the module docstring.
            on_progress: Called at the start of each step and after each token.

        Raises:
            ValueError: ``text`` has no words.
            GenerationStoppedError: ``stop_event`` was set.
            LLMError: The model failed; see its ``transient`` flag.
        """
        plan = await self.outline(
            text, language=language, structure=structure, stop_event=stop_event, on_progress=on_progress
        )
        return await self.write_sections(plan, title=title, stop_event=stop_event, on_progress=on_progress)

    async def outline(
        self,
        text: str,
        *,
        language: Language | None = None,
        structure: DocumentStructure | None = None,
        stop_event: threading.Event | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> GuidePlan:
        """The first half of :meth:`write`: cut the text into passages and plan the sections.

        The sections are the document's own chapters when ``structure`` has at least two that fit this text;
        otherwise the model is asked for an outline, chunk by chunk, and each title it gives must pass
        :func:`~daemon.llm.grounding.title_problems` against its own passages, else the section is titled from them
        (:func:`~daemon.llm.grounding.extractive_title`). A section too long for one prompt is split into parts
        (:func:`guide_plan.fit_sections`), so every passage is written from, whole.
        """
        base, chapters = _passages(text, language, structure)
        prompts = PROMPTS[base.language]
        report = on_progress or (lambda _progress: None)
        passages = list(base.passages)
        sections = chapter_sections(base.spans, chapters)
        from_chapters = bool(sections)
        if not sections:
            chunks = await self._chunks(passages)
            for step, chunk in enumerate(chunks, start=1):
                sections.extend(await self._outline(passages, chunk, prompts, step, len(chunks), stop_event, report))
            sections = checked_titles(sections, passages, base.language)  # the model's titles, checked
        costs = [await self.generator.count_tokens(passage) + 2 for passage in passages]
        budget = self.generator.context_window - self.section_tokens - _PROMPT_OVERHEAD_TOKENS
        fitted = fit_sections(sections, costs, budget, labels_for(base.language))
        return replace(
            base,
            sections=tuple((t, tuple(n)) for t, n in fitted),
            from_chapters=from_chapters,
            tokens=sum(costs),
        )

    async def restore(
        self, text: str, stored: str, *, language: Language | None = None, structure: DocumentStructure | None = None
    ) -> GuidePlan | None:
        """The plan stored by an earlier attempt (:meth:`GuidePlan.to_json`) for the same text, with no model
        call; ``None`` when it does not fit this text."""
        return _passages(text, language, structure)[0].restored(stored)

    async def write_sections(
        self,
        plan: GuidePlan,
        *,
        title: str | None = None,
        stop_event: threading.Event | None = None,
        on_progress: ProgressCallback | None = None,
        on_part: PartCallback | None = None,
        written: Mapping[int, str] | None = None,
    ) -> StudyGuide:
        """The second half of :meth:`write`: write every section of ``plan`` and assemble the Markdown.

        Args:
            plan: The outline from :meth:`outline`.
            title: The guide's heading; defaults to "Study guide" in the plan's language.
            stop_event: Set from any thread to stop; see the module docstring.
            on_progress: Called at the start of each step and after each token.
            on_part: Awaited with the head first, then with each section as soon as it is written (not for the
                sections taken from ``written``), then with the coverage table (position: sections + 1).
            written: Bodies of sections an earlier attempt wrote, by 1-based position: those are not asked of the
                model again. The caller checks that they belong to this plan.

        The Markdown is :func:`core.app.guides.join_guide` of the head, the sections and the coverage, so it equals
        the parts ``on_part`` was given, joined.
        """
        prompts = PROMPTS[plan.language]
        labels = labels_for(plan.language)
        report = on_progress or (lambda _progress: None)
        heading = title or prompts.guide_title
        terms = [key_terms(plan.passages, numbers, plan.pages, plan.language) for _t, numbers in plan.sections]
        every_term = [term for found in terms for term in found]
        all_pages = sorted({page for pages in plan.pages for page in pages})
        titles = [t for t, _n in plan.sections]
        head = head_markdown(heading, head_overview(titles, all_pages, every_term, plan.language))
        if on_part is not None:
            await on_part(HEAD_POSITION, heading, head, "model")
        kept = written or {}
        guard = SectionGuard(self.generator, plan.language, getattr(self.generator, "sampling", DEFAULT_SAMPLING))
        for body in kept.values():
            guard.remember(body)
        sections: list[GuideSection] = []
        for step, (section_title, numbers) in enumerate(plan.sections, start=1):
            earlier = kept.get(step)
            if earlier is not None:
                sections.append(GuideSection(section_title, tuple(numbers), earlier, "kept"))
                continue
            checked = await self._section(
                guard, plan, section_title, list(numbers), prompts, (step, len(plan.sections)), stop_event, report
            )
            chapter = section_title if plan.from_chapters else None
            sources = sources_line(numbers, plan.pages, plan.spans, chapter, labels)
            aids = section_aids(terms[step - 1], plan.language)
            body = "\n\n".join(part for part in (checked.body, aids, sources) if part)
            if on_part is not None:
                await on_part(step, section_title, section_markdown(section_title, body), checked.origin)
            last = checked.problems[-1] if checked.problems else ()
            sections.append(GuideSection(section_title, tuple(numbers), body, checked.origin, checked.model_text, last))
        glossary = glossary_markdown(list(zip(titles, terms, strict=True)), plan.language)
        coverage = coverage_markdown(plan.sections, plan.pages, plan.spans, plan.page_count, labels)
        closing = f"{glossary}\n\n{coverage}" if glossary else coverage
        if on_part is not None:
            await on_part(len(plan.sections) + 1, closing.split("\n", 1)[0].removeprefix("## "), closing, "model")
        markdown = join_guide([head, *(section_markdown(s.title, s.body) for s in sections), closing])
        return StudyGuide(title=heading, language=plan.language, sections=tuple(sections), markdown=markdown)

    async def _chunks(self, passages: Sequence[str]) -> list[list[int]]:
        """Group 1-based passage numbers so that each group's prompt fits the context with the outline."""
        budget = self.generator.context_window - self.outline_tokens - _PROMPT_OVERHEAD_TOKENS
        if budget <= 0:
            raise ValueError("The model's context window is too small for a study-guide outline.")
        chunks: list[list[int]] = [[]]
        used = 0
        for number, passage in enumerate(passages, start=1):
            cost = await self.generator.count_tokens(passage) + 8  # label and separators
            if chunks[-1] and used + cost > budget:
                chunks.append([])
                used = 0
            chunks[-1].append(number)
            used += cost
        return chunks

    async def _outline(
        self,
        passages: Sequence[str],
        chunk: Sequence[int],
        prompts: Prompts,
        step: int,
        steps: int,
        stop_event: threading.Event | None,
        report: ProgressCallback,
    ) -> list[tuple[str, list[int]]]:
        """Ask for the outline of one chunk and repair it: every passage of the chunk in exactly one
        section."""
        listing = "\n\n".join(f"[{n}] {passages[n - 1]}" for n in chunk)
        messages: list[ChatMessage] = [
            {"role": "system", "content": prompts.outline_system},
            {
                "role": "user",
                "content": prompts.outline_user.format(
                    passages=listing, max_sections=self.max_sections_per_chunk, first=chunk[0], last=chunk[-1]
                ),
            },
        ]
        budget = self.outline_tokens
        prompt = await self.generator.count_tokens(listing) + _PROMPT_OVERHEAD_TOKENS

        def on_token(progress: TokenProgress) -> None:
            tokens = progress.prompt_tokens or prompt
            report(GuideProgress("outline", step, steps, progress.completion_tokens, budget, prompt_tokens=tokens))

        report(GuideProgress("outline", step, steps, 0, budget, prompt_tokens=prompt))
        try:
            outline = await self.generator.chat_structured(
                messages,
                Outline,
                max_tokens=budget,
                temperature=self.temperature,
                stop_event=stop_event,
                on_token=on_token,
            )
            proposed = [(s.title, s.passages) for s in outline.sections]
        except InvalidOutputError as exc:  # small models sometimes run out of tokens mid-JSON
            _log.warning("outline of chunk %d/%d unusable, falling back to one section: %s", step, steps, exc)
            proposed = []
        return _repair_outline(proposed, chunk, prompts, step)

    async def _section(
        self,
        guard: SectionGuard,
        plan: GuidePlan,
        title: str,
        numbers: Sequence[int],
        prompts: Prompts,
        position: tuple[int, int],
        stop_event: threading.Event | None,
        report: ProgressCallback,
    ) -> CheckedText:
        """Write one section from its passages, trimmed to fit the context, through ``guard``'s check."""
        step, steps = position
        passages = plan.passages
        budget = self.generator.context_window - self.section_tokens - _PROMPT_OVERHEAD_TOKENS
        source_parts: list[str] = []
        page_labels: list[str | None] = []
        used = 0
        for n in numbers:
            cost = await self.generator.count_tokens(passages[n - 1]) + 2
            if source_parts and used + cost > budget:
                break
            source_parts.append(passages[n - 1])
            pages = plan.pages[n - 1] if n - 1 < len(plan.pages) else ()
            page_labels.append(
                labels_for(plan.language)["pages"].format(pages=page_ranges(list(pages))) if pages else None
            )
            used += cost
        messages: list[ChatMessage] = [
            {"role": "system", "content": prompts.section_system},
            {
                "role": "user",
                "content": prompts.section_user.format(title=title, source="\n\n".join(source_parts)),
            },
        ]
        max_tokens = self.section_tokens
        prompt = used + _PROMPT_OVERHEAD_TOKENS

        def on_token(progress: TokenProgress) -> None:
            tokens = progress.prompt_tokens or prompt
            report(GuideProgress("section", step, steps, progress.completion_tokens, max_tokens, title, tokens))

        report(GuideProgress("section", step, steps, 0, max_tokens, title, prompt))
        return await guard.write(
            messages,
            sources=source_parts,
            pages=page_labels,
            max_tokens=max_tokens,
            clean=lambda text: _clean_section(text, title),
            stop_event=stop_event,
            on_token=on_token,
        )


def _passages(
    text: str, language: Language | None, structure: DocumentStructure | None
) -> tuple[GuidePlan, tuple[Chapter, ...]]:
    """A plan without sections (the passages, their paragraphs and pages, the language) and the document's
    chapters, when ``structure`` fits ``text``.

    Raises:
        ValueError: ``text`` has no words.
    """
    cut = passage_spans(text)
    if not cut:
        raise ValueError("The document has no text to write a study guide from.")
    spans = tuple(span for _passage, span in cut)
    known = structure if structure is not None and structure.fits(len(paragraphs(text))) else DocumentStructure()
    base = GuidePlan(
        language=language or detect_language(text),
        passages=tuple(passage for passage, _span in cut),
        sections=(),
        spans=spans,
        pages=passage_pages(spans, known),
        page_count=known.page_count,
    )
    return base, known.chapters


def _repair_outline(
    proposed: Sequence[tuple[str, Sequence[int]]], chunk: Sequence[int], prompts: Prompts, chunk_number: int
) -> list[tuple[str, list[int]]]:
    """Make the model's outline usable: passages of this chunk only, each in one section, in document order.

    A section's place is its first valid passage; a passage no section claims joins the section before it (or
    the first one). With nothing usable, the whole chunk becomes one section titled "Part n".
    """
    in_chunk = set(chunk)
    owner: dict[int, int] = {}
    titles: list[str] = []
    for title, numbers in proposed:
        valid = [n for n in numbers if n in in_chunk and n not in owner]
        clean_title = " ".join(title.split()).strip(" #*")
        if not valid or not clean_title:
            continue
        titles.append(clean_title)
        for n in valid:
            owner[n] = len(titles) - 1
    if not titles:
        return [(prompts.part_title.format(number=chunk_number), list(chunk))]
    current = owner.get(chunk[0], owner[min(owner)])
    members: dict[int, list[int]] = {i: [] for i in range(len(titles))}
    for n in chunk:
        current = owner.get(n, current)
        members[current].append(n)
    ordered = sorted((nums[0], titles[i], nums) for i, nums in members.items() if nums)
    return [(title, nums) for _first, title, nums in ordered]


def _clean_section(text: str, title: str) -> str:
    """Drop a repeated title and demote headings so the guide's own ``#``/``##`` structure stays intact."""
    lines = text.strip().splitlines()
    while lines and lines[0].lstrip("#* ").strip().rstrip(":").lower() == title.lower():
        lines.pop(0)
    out = []
    for line in lines:
        match = re.match(r"^(#{1,2})\s+(.*)$", line)
        out.append(f"### {match.group(2)}" if match else line)
    return "\n".join(out).strip()

"""The study-guide writer: extracted text in, a Markdown study guide out.

Runs on one event loop: ``on_part`` and ``on_progress`` are called on that loop's thread, as each part is written.
The stop event (any thread) ends the current generation within the generator's stop latency;
:class:`~daemon.llm.errors.GenerationStoppedError` propagates unchanged. The steps: docs/design/guide-writer.md.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from core.app.documents.structure import DocumentStructure
from core.app.guides.markdown import HEAD_POSITION, head_markdown, join_guide, section_markdown
from core.app.guides.progress import MAX_SECTIONS_PER_CHUNK, OUTLINE_TOKENS, SECTION_TOKENS
from core.app.guides.stored import CLOSING_ORIGIN
from daemon.guide_writer.checks import normalize_sentence
from daemon.guide_writer.extractive import quotes_only_note
from daemon.guide_writer.grounding import checked_titles
from daemon.guide_writer.guard import CheckedText, SectionGuard
from daemon.guide_writer.matter import set_aside
from daemon.guide_writer.outline import Outline, OutlineSection, ask_outline, base_plan, chunk_passages
from daemon.guide_writer.plan import (
    GuidePlan,
    chapter_sections,
    coverage_markdown,
    fit_sections,
    labels_for,
    passage_spans,
    sources_line,
    split_at_subchapters,
)
from daemon.guide_writer.prompts import PROMPTS, Language, Prompts
from daemon.guide_writer.results import (
    PROMPT_OVERHEAD_TOKENS,
    GuideProgress,
    GuideSection,
    PartCallback,
    ProgressCallback,
    StudyGuide,
)
from daemon.guide_writer.section import assemble_section, clean_section, passage_pages, section_prompt
from daemon.guide_writer.study_aids import (
    MAX_QUESTIONS,
    KeyTerm,
    glossary_markdown,
    head_overview,
    key_terms,
    section_aids,
)
from daemon.guide_writer.study_cloze import cloze_terms
from daemon.llm.base import TextGenerator, TokenProgress
from daemon.llm.sampling import DEFAULT_SAMPLING

MIN_QUESTIONS = 2
"""Review questions a section gets when its passages hold enough sentences to ask them from."""

__all__ = [
    "MIN_QUESTIONS",
    "PROMPT_OVERHEAD_TOKENS",
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
            (:mod:`daemon.guide_writer.guard`).
        summaries: Whether the model writes each section's summary. ``False`` for a model that cannot summarise
            without inventing (the bundled demo, ``CatalogModel.writes_summaries``): each section then quotes its
            key passages with their pages, asking the model nothing, and the guide's head says why; the model
            still plans the sections of a document without chapters.
    """

    def __init__(
        self,
        generator: TextGenerator,
        *,
        section_tokens: int = SECTION_TOKENS,
        outline_tokens: int = OUTLINE_TOKENS,
        max_sections_per_chunk: int = MAX_SECTIONS_PER_CHUNK,
        temperature: float = 0.0,
        summaries: bool = True,
    ) -> None:
        self.generator = generator
        self.summaries = summaries
        self.section_tokens = section_tokens
        self.outline_tokens = outline_tokens
        self.max_sections_per_chunk = max_sections_per_chunk
        self.temperature = temperature

    @property
    def context_window(self) -> int:
        """The model's context window in tokens (``core.app.guides.progress.GuideShape``)."""
        return self.generator.context_window

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
            structure: The document's pages and chapters (:mod:`core.app.documents.structure`), for citations and
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
        :func:`~daemon.guide_writer.grounding.title_problems` against its own passages, else the section is titled from
        them (:func:`~daemon.guide_writer.grounding.extractive_title`). A section too long for one prompt is split where
        its sub-chapters start (:func:`~daemon.guide_writer.plan.split_at_subchapters`), then into numbered parts
        (:func:`~daemon.guide_writer.plan.fit_sections`), so every passage is written from, whole — with or without
        summaries: a stored plan serves a guide written again with another model. Front and back matter (title
        page, thanks, table of contents, index, bibliography) is left out of the sections and named in the plan's
        ``left_out``; a section with hardly any text joins its neighbour
        (:func:`~daemon.guide_writer.matter.set_aside`).
        """
        base, chapters = base_plan(text, language, structure)
        prompts = PROMPTS[base.language]
        report = on_progress or (lambda _progress: None)
        passages = list(base.passages)
        sections = chapter_sections(base.spans, chapters)
        from_chapters = bool(sections)
        if not sections:
            chunks = await chunk_passages(self.generator, passages, self.outline_tokens)
            for step, chunk in enumerate(chunks, start=1):
                sections += await ask_outline(
                    self.generator, passages, chunk, prompts, position=(step, len(chunks)),
                    max_sections=self.max_sections_per_chunk, max_tokens=self.outline_tokens,
                    temperature=self.temperature, stop_event=stop_event, report=report,
                )  # fmt: skip
            sections = checked_titles(sections, passages, base.language)  # the model's titles, checked
        costs = [await self.generator.count_tokens(passage) + 2 for passage in passages]
        budget = self.generator.context_window - self.section_tokens - PROMPT_OVERHEAD_TOKENS
        if from_chapters:  # a chapter too long for one prompt: its own sub-chapters first, then numbered parts
            sections = split_at_subchapters(sections, base.spans, chapters, costs, budget)
        sections, left_out = set_aside(sections, passages)
        fitted = fit_sections(sections, costs, budget, labels_for(base.language))
        return replace(
            base,
            sections=tuple((t, tuple(n)) for t, n in fitted),
            from_chapters=from_chapters,
            tokens=sum(costs),
            left_out=tuple(left_out),
        )

    async def restore(
        self, text: str, stored: str, *, language: Language | None = None, structure: DocumentStructure | None = None
    ) -> GuidePlan | None:
        """The plan stored by an earlier attempt (:meth:`GuidePlan.to_json`) for the same text, with no model
        call; ``None`` when it does not fit this text."""
        return base_plan(text, language, structure)[0].restored(stored)

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
                sections taken from ``written``), then with the glossary and coverage table (position: sections
                + 1, origin :data:`~core.app.guides.stored.CLOSING_ORIGIN`).
            written: Bodies of sections an earlier attempt wrote, by 1-based position: those are not asked of the
                model again. The caller checks that they belong to this plan.

        The Markdown is :func:`core.app.guides.markdown.join_guide` of the head, the sections and the closing part, so
        it equals the parts ``on_part`` was given, joined.
        """
        report = on_progress or (lambda _progress: None)
        heading = title or PROMPTS[plan.language].guide_title
        terms = await _search_terms(plan, report)
        held = [n for _t, numbers in plan.sections for n in numbers]
        all_pages = sorted({p for n in held for p in plan.pages[n - 1]}) if plan.pages else []
        titles = [t for t, _n in plan.sections]
        overview = head_overview(titles, all_pages, [t for found in terms for t in found], plan.language)
        if not self.summaries:  # the head says once why every section is quotes
            overview = "\n\n".join(part for part in (overview, quotes_only_note(plan.language)) if part)
        head = head_markdown(heading, overview)
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
            section = await self._write_one(guard, plan, step, terms[step - 1], stop_event, report)
            if on_part is not None:
                await on_part(step, section_title, section_markdown(section_title, section.body), section.origin)
            sections.append(section)
        closing = _closing(plan, titles, terms)
        if on_part is not None:
            title = closing.split("\n", 1)[0].removeprefix("## ")
            await on_part(len(plan.sections) + 1, title, closing, CLOSING_ORIGIN)
        markdown = join_guide([head, *(section_markdown(s.title, s.body) for s in sections), closing])
        return StudyGuide(title=heading, language=plan.language, sections=tuple(sections), markdown=markdown)

    async def _write_one(
        self,
        guard: SectionGuard,
        plan: GuidePlan,
        step: int,
        terms: Sequence[KeyTerm],
        stop_event: threading.Event | None,
        report: ProgressCallback,
    ) -> GuideSection:
        """Section ``step`` (1-based) of ``plan``: the model's text (or quotes), its key terms and review
        questions, its sources."""
        title, numbers = plan.sections[step - 1]
        aids = section_aids(terms, plan.language)
        guard.remember(aids)  # the answers' sentences: neither the model's text nor the quotes say them again
        if self.summaries:
            checked = await self._section(guard, plan, step, PROMPTS[plan.language], stop_event, report)
        else:  # a model that writes no summaries: the section's key passages, quoted, with nothing asked of it
            report(GuideProgress("section", step, len(plan.sections), 0, 0, title, 0))
            quoted = [plan.passages[n - 1] for n in numbers]  # off the loop: a long section takes seconds
            checked = await asyncio.to_thread(guard.quote, quoted, passage_pages(plan, numbers))
        chapter = title if plan.from_chapters else None
        sources = sources_line(numbers, plan.pages, plan.spans, chapter, labels_for(plan.language))
        body = assemble_section(checked.body, checked.origin, aids, sources, plan.language)
        last = checked.problems[-1] if checked.problems else ()
        return GuideSection(title, tuple(numbers), body, checked.origin, checked.model_text, last)

    async def _section(
        self,
        guard: SectionGuard,
        plan: GuidePlan,
        step: int,
        prompts: Prompts,
        stop_event: threading.Event | None,
        report: ProgressCallback,
    ) -> CheckedText:
        """Write section ``step`` from its passages, trimmed to fit the context, through ``guard``'s check."""
        title, numbers = plan.sections[step - 1]
        steps = len(plan.sections)
        budget = self.generator.context_window - self.section_tokens - PROMPT_OVERHEAD_TOKENS
        prompt = await section_prompt(self.generator, plan, title, numbers, prompts, budget)
        max_tokens = self.section_tokens
        tokens = prompt.tokens + PROMPT_OVERHEAD_TOKENS

        def on_token(progress: TokenProgress) -> None:
            told = progress.prompt_tokens or tokens
            written = progress.completion_tokens
            report(GuideProgress("section", step, steps, written, max_tokens, title, told, progress.prompt_read))

        report(GuideProgress("section", step, steps, 0, max_tokens, title, tokens))
        return await guard.write(
            prompt.messages,
            sources=prompt.sources,
            pages=prompt.pages,
            max_tokens=max_tokens,
            clean=lambda text: clean_section(text, title),
            instructions=prompts.section_instructions,
            stop_event=stop_event,
            on_token=on_token,
        )


async def _search_terms(plan: GuidePlan, report: ProgressCallback) -> list[list[KeyTerm]]:
    """Each section's key terms (:func:`_distinct_terms`), found on a thread (1.7 s for R-exts.pdf); each section's
    search is reported on the loop as a ``"terms"`` step."""
    loop = asyncio.get_running_loop()

    def searched(step: int, steps: int) -> None:  # on the search's thread: the report goes to the loop
        loop.call_soon_threadsafe(report, GuideProgress("terms", step, steps, 0, 0))

    return await asyncio.to_thread(_distinct_terms, plan, searched)


def _distinct_terms(plan: GuidePlan, searched: Callable[[int, int], None]) -> list[list[KeyTerm]]:
    """Each section's key terms and review questions: its definitions and purposes (as many as it shows), a term's
    question only in the first section that shows it, then fill-in-the-blank questions up to :data:`MIN_QUESTIONS`
    (each question and each answer's sentence once in the guide). ``searched(k, n)`` is called on this thread
    after the definitions of section ``k`` of ``n`` are found (the fill-in-the-blank pass after them is the
    cheaper one)."""
    seen: set[tuple[str, str]] = set()
    used: set[str] = set()  # a term's second definition is no blank to fill either
    found: list[list[KeyTerm]] = []
    for _title, numbers in plan.sections:
        defined = key_terms(plan.passages, numbers, plan.pages, plan.language)
        terms = [t for t in defined if t.key not in seen][:MAX_QUESTIONS]
        seen.update(t.key for t in terms)
        used.update(normalize_sentence(t.definition) for t in defined)
        found.append(terms)
        searched(len(found), len(plan.sections))
    named = [t.term for terms in found for t in terms if t.kind == "definition"]
    for (_title, numbers), terms in zip(plan.sections, found, strict=True):
        wanted = MIN_QUESTIONS - len(terms)
        terms += cloze_terms(plan.passages, numbers, plan.pages, plan.language, terms=named, used=used, wanted=wanted)
    return found


def _closing(plan: GuidePlan, titles: Sequence[str], terms: Sequence[Sequence[KeyTerm]]) -> str:
    """The guide's closing part: the glossary (when a section has key terms), then the coverage table."""
    glossary = glossary_markdown(list(zip(titles, terms, strict=True)), plan.language)
    labels = labels_for(plan.language)
    coverage = coverage_markdown(
        plan.sections, plan.pages, plan.spans, plan.page_count, labels, plan.left_out, plan.language, plan.recognised
    )
    return f"{glossary}\n\n{coverage}" if glossary else coverage

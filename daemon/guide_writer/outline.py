"""The plan's first half: the document's passages, and the model's outline where the document has no chapters.

Runs on the writer's event loop; the stop event ends a model call within the generator's stop latency.
:func:`repair_outline` guarantees every passage of a chunk in exactly one section, in document order.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence

from pydantic import BaseModel, Field

from core.app.documents.structure import Chapter, DocumentStructure, paragraphs
from daemon.guide_writer.plan import GuidePlan, chapter_sections, passage_pages, passage_spans, top_chapters
from daemon.guide_writer.prompts import Language, Prompts, detect_language
from daemon.guide_writer.results import PROMPT_OVERHEAD_TOKENS, GuideProgress, ProgressCallback
from daemon.llm.base import ChatMessage, TextGenerator, TokenProgress
from daemon.llm.errors import InvalidOutputError

__all__ = [
    "Outline",
    "OutlineSection",
    "ask_outline",
    "base_plan",
    "chunk_passages",
    "repair_outline",
    "sections_from_chapters",
]

_log = logging.getLogger(__name__)


class OutlineSection(BaseModel):
    """One section of the outline, as the model writes it."""

    title: str = Field(min_length=1, max_length=100)
    passages: list[int] = Field(min_length=1, max_length=40)


class Outline(BaseModel):
    """The model's outline for one chunk of passages."""

    sections: list[OutlineSection] = Field(min_length=1, max_length=8)


def base_plan(
    text: str, language: Language | None, structure: DocumentStructure | None
) -> tuple[GuidePlan, tuple[Chapter, ...]]:
    """A plan without sections (the passages, their paragraphs and pages, the language) and the document's
    chapters, when ``structure`` fits ``text``. A passage never runs across the start of a chapter the sections
    may follow (:func:`~daemon.guide_writer.plan.top_chapters`).

    Raises:
        ValueError: ``text`` has no words.
    """
    known = structure if structure is not None and structure.fits(len(paragraphs(text))) else DocumentStructure()
    cut = passage_spans(text, breaks={c.paragraph for c in top_chapters(known.chapters)})
    if not cut:
        raise ValueError("The document has no text to write a study guide from.")
    spans = tuple(span for _passage, span in cut)
    base = GuidePlan(
        language=language or detect_language(text),
        passages=tuple(passage for passage, _span in cut),
        sections=(),
        spans=spans,
        pages=passage_pages(spans, known),
        page_count=known.page_count,
        recognised=known.recognised,
    )
    return base, known.chapters


def sections_from_chapters(text: str, structure: DocumentStructure | None) -> int:
    """How many sections the document's own chapters give (:func:`chapter_sections`, as
    :meth:`~daemon.guide_writer.writer.GuideWriter.outline` makes them, before a long one is split), 0 when the
    model is to outline it: its time estimate needs to know which (the chapters ask the model nothing)."""
    if structure is None or not structure.chapters or not text.strip():
        return 0
    try:
        base, chapters = base_plan(text, "en", structure)  # the language changes no passage
    except ValueError:
        return 0
    return len(chapter_sections(base.spans, chapters))


async def chunk_passages(generator: TextGenerator, passages: Sequence[str], outline_tokens: int) -> list[list[int]]:
    """Group 1-based passage numbers so that each group's prompt fits the context with an outline of
    ``outline_tokens``.

    Raises:
        ValueError: The context cannot hold an outline prompt at all.
    """
    budget = generator.context_window - outline_tokens - PROMPT_OVERHEAD_TOKENS
    if budget <= 0:
        raise ValueError("The model's context window is too small for a study-guide outline.")
    chunks: list[list[int]] = [[]]
    used = 0
    for number, passage in enumerate(passages, start=1):
        cost = await generator.count_tokens(passage) + 8  # label and separators
        if chunks[-1] and used + cost > budget:
            chunks.append([])
            used = 0
        chunks[-1].append(number)
        used += cost
    return chunks


async def ask_outline(
    generator: TextGenerator,
    passages: Sequence[str],
    chunk: Sequence[int],
    prompts: Prompts,
    *,
    position: tuple[int, int],
    max_sections: int,
    max_tokens: int,
    temperature: float,
    stop_event: threading.Event | None,
    report: ProgressCallback,
) -> list[tuple[str, list[int]]]:
    """Ask for the outline of one chunk (step ``position[0]`` of ``position[1]``) and repair it: every passage of
    the chunk in exactly one section. An answer that does not validate gives one section, "Part n"."""
    step, steps = position
    listing = "\n\n".join(f"[{n}] {passages[n - 1]}" for n in chunk)
    user = prompts.outline_user.format(passages=listing, max_sections=max_sections, first=chunk[0], last=chunk[-1])
    messages: list[ChatMessage] = [
        {"role": "system", "content": prompts.outline_system},
        {"role": "user", "content": user},
    ]
    prompt = await generator.count_tokens(listing) + PROMPT_OVERHEAD_TOKENS

    def on_token(progress: TokenProgress) -> None:
        tokens = progress.prompt_tokens or prompt
        report(
            GuideProgress(
                "outline", step, steps, progress.completion_tokens, max_tokens,
                prompt_tokens=tokens, prompt_read=progress.prompt_read,
            )
        )  # fmt: skip

    report(GuideProgress("outline", step, steps, 0, max_tokens, prompt_tokens=prompt))
    try:
        outline = await generator.chat_structured(
            messages, Outline, max_tokens=max_tokens, temperature=temperature, stop_event=stop_event,
            on_token=on_token,
        )  # fmt: skip
        proposed = [(s.title, s.passages) for s in outline.sections]
    except InvalidOutputError as exc:  # small models sometimes run out of tokens mid-JSON
        _log.warning("outline of chunk %d/%d unusable, falling back to one section: %s", step, steps, exc)
        proposed = []
    return repair_outline(proposed, chunk, prompts, step)


def repair_outline(
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

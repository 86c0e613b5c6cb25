"""One section of a study guide: its prompt, the model's answer made into Markdown, and the section's parts.

Pure functions but :func:`section_prompt` (which counts tokens with the model's tokenizer). What a section holds:
docs/design/guide-writer.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.app.documents.structure import page_ranges
from daemon.guide_writer.plan import GuidePlan, labels_for
from daemon.guide_writer.prompts import Prompts
from daemon.llm.base import ChatMessage, TextGenerator

__all__ = [
    "KEY_PASSAGES_HEADING",
    "SUMMARY_HEADING",
    "SectionPrompt",
    "assemble_section",
    "clean_section",
    "passage_pages",
    "section_prompt",
]

SUMMARY_HEADING: dict[str, str] = {
    "pt": "Resumo",
    "en": "Summary",
    "es": "Resumen",
    "fr": "Résumé",
    "de": "Zusammenfassung",
    "it": "Riassunto",
}
"""The heading over a section's summary (the model's text), by language (English for any other)."""

KEY_PASSAGES_HEADING: dict[str, str] = {
    "pt": "Trechos principais",
    "en": "Key passages",
    "es": "Pasajes clave",
    "fr": "Passages clés",
    "de": "Wichtige Textstellen",
    "it": "Passaggi chiave",
}
"""The heading over a section made of quotes (its key sentences), by language (English for any other)."""


@dataclass(frozen=True, slots=True)
class SectionPrompt:
    """What one section's model call is given.

    Attributes:
        messages: The chat prompt.
        sources: The passages it holds (all of the section's that fit, in order, whole).
        pages: Each source's page label ("p. 12"), ``None`` for a passage without pages.
        tokens: The prompt's size in tokens (its passages counted, the rest estimated).
    """

    messages: list[ChatMessage]
    sources: list[str]
    pages: list[str | None]
    tokens: int


async def section_prompt(
    generator: TextGenerator, plan: GuidePlan, title: str, numbers: Sequence[int], prompts: Prompts, budget: int
) -> SectionPrompt:
    """The prompt that writes section ``title`` from the passages ``numbers`` (1-based) of ``plan``: as many whole
    passages as fit ``budget`` tokens (at least one; :func:`~daemon.guide_writer.plan.fit_sections` made the sections
    fit already), each with its page label."""
    sources: list[str] = []
    pages: list[str | None] = []
    used = 0
    for n, page in zip(numbers, passage_pages(plan, numbers), strict=True):
        cost = await generator.count_tokens(plan.passages[n - 1]) + 2
        if sources and used + cost > budget:
            break
        sources.append(plan.passages[n - 1])
        pages.append(page)
        used += cost
    messages: list[ChatMessage] = [
        {"role": "system", "content": prompts.section_system},
        {"role": "user", "content": prompts.section_user.format(title=title, source="\n\n".join(sources))},
    ]
    return SectionPrompt(messages, sources, pages, used)


def passage_pages(plan: GuidePlan, numbers: Sequence[int]) -> list[str | None]:
    """Each passage's page label ("p. 12", in the plan's language) for the passages ``numbers`` (1-based) of
    ``plan``; ``None`` for a passage without pages."""
    labels = labels_for(plan.language)
    found: list[str | None] = []
    for n in numbers:
        own = plan.pages[n - 1] if n - 1 < len(plan.pages) else ()
        found.append(labels["pages"].format(pages=page_ranges(list(own))) if own else None)
    return found


def clean_section(text: str, title: str) -> str:
    """The model's answer as a summary: a first line that repeats the title dropped, headings demoted to ``####``
    so the guide's ``#``/``##`` and the section's own ``###`` parts stay intact."""
    lines = text.strip().splitlines()
    while lines and lines[0].lstrip("#* ").strip().rstrip(":").lower() == title.lower():
        lines.pop(0)
    out = []
    for line in lines:
        match = re.match(r"^#{1,3}\s+(.*)$", line)
        out.append(f"#### {match.group(1)}" if match else line)
    return "\n".join(out).strip()


def assemble_section(text: str, origin: str, aids: str, sources: str, language: str) -> str:
    """A section's Markdown body: ``text`` (the model's summary, or quotes when ``origin`` is ``"quotes"``) under
    its heading, then the key terms and review questions (``aids``, may be empty), then the sources line."""
    headings = KEY_PASSAGES_HEADING if origin == "quotes" else SUMMARY_HEADING
    first = f"### {headings.get(language, headings['en'])}\n\n{text}" if text else ""
    return "\n\n".join(part for part in (first, aids, sources) if part)

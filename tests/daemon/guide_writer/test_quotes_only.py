"""A model that writes no summaries (the bundled demo): its guides quote each section's key passages, the model is
asked only for the outline, and the time left counts no section writing — on the tiny real model."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from core.app.documents.structure import Chapter, DocumentStructure
from core.app.timing.guide_estimate import GenerateEstimate
from core.app.timing.speeds import prior_speeds
from daemon.guide_writer.extractive import QUOTES_NOTE, is_whole_sentence, quoted_section, quotes_only_note
from daemon.guide_writer.guard import QUOTES_ONLY_MAX, guide_sentence_keys
from daemon.guide_writer.prompts import PROMPTS
from daemon.guide_writer.section import KEY_PASSAGES_HEADING, SUMMARY_HEADING
from daemon.guide_writer.writer import GuideProgress, GuideWriter
from daemon.jobs.estimates import prepare_text
from daemon.llm.llamacpp import LlamaCppGenerator
from daemon.llm.models import ModelChoice, create_generator
from devkit.recording import RecordingGenerator
from tests.daemon.guide_writer.test_writer import ENGLISH, PORTUGUESE

TEXT = "\n\n".join(
    f"Paragraph {n}: plants turn light, water and carbon dioxide into sugar and oxygen in their leaves." * 3
    for n in range(8)
)


@pytest.fixture
def tiny(tiny_model: Path) -> LlamaCppGenerator:
    return LlamaCppGenerator(tiny_model, n_ctx=8192, n_threads=1)


@pytest.mark.parametrize(("text", "language"), [(ENGLISH, "en"), (PORTUGUESE, "pt")])
async def test_a_writer_without_summaries_quotes_every_section_and_asks_the_model_only_for_the_outline(
    tiny: LlamaCppGenerator, text: str, language: str
):
    recording = RecordingGenerator(tiny)
    reports: list[GuideProgress] = []
    writer = GuideWriter(recording, outline_tokens=300, summaries=False)  # type: ignore[arg-type]
    guide = await writer.write(text, on_progress=reports.append)

    section_system = PROMPTS[language].section_system
    assert recording.record.sent, "the outline is still the model's"
    assert all(messages[0]["content"] != section_system for messages in recording.record.sent), (
        "a section was asked for"
    )
    assert guide.sections and all(s.origin == "quotes" and s.model_text == "" for s in guide.sections)
    for section in guide.sections:
        assert section.body.startswith(f"### {KEY_PASSAGES_HEADING[language]}\n\n> ")
        assert QUOTES_NOTE[language] not in section.body, "no section claims the model's text failed"
    assert f"### {SUMMARY_HEADING[language]}" not in guide.markdown
    head = guide.markdown.split("\n## ", 1)[0]
    assert quotes_only_note(language) in head
    keys = guide_sentence_keys(guide.markdown)
    assert len(keys) == len(set(keys)), "a sentence is in the guide twice"
    sections = [r for r in reports if r.phase == "section"]
    assert [r.step for r in sections] == list(range(1, len(guide.sections) + 1))
    assert all(r.tokens == 0 and r.token_budget == 0 for r in sections)


def test_the_time_left_of_a_writer_without_summaries_counts_its_quoting_and_no_model_writing(tiny_model: Path):
    prior = prior_speeds(tiny_model.stat().st_size, 1)
    generator = create_generator(ModelChoice(kind="gguf", path=tiny_model, n_threads=1))  # not loaded
    quoting, writing = (
        GenerateEstimate(prior, GuideWriter(generator, summaries=flag), model_bytes=1, loaded=True)
        for flag in (False, True)
    )
    for estimate in (quoting, writing):
        prepare_text(estimate, TEXT)
    quoted_total, written_total = quoting.expected_seconds(), writing.expected_seconds()
    assert quoted_total is not None and written_total is not None
    assert quoted_total < written_total - prior.section_tokens / prior.section_decode_rate  # a section at least

    quoting.outlined([len(TEXT) // 3] * 3)
    now = time.monotonic()
    quoting.on_progress(GuideProgress("section", 1, 3, 0, 0, "One", 0), now)
    left = quoting.remaining("sections", 0.0, 0.0)
    one_section = prior.section_tokens / prior.section_decode_rate
    assert left is not None and left < one_section / 10  # the quoting of two sections and the finish: no model
    done = quoting.phase_done()  # the quoting's own share: the key terms found, the first section started
    assert done is not None and 0.0 < done < 0.5
    learned = quoting.learned()
    assert learned is not None
    assert (learned.section_tokens, learned.section_decode_rate) == (prior.section_tokens, prior.section_decode_rate)


NOUNS = ("river", "bridge", "engine", "garden", "market", "harbour", "library", "orchard", "tower", "valley")


def _long_and_short_chapters() -> tuple[str, DocumentStructure]:
    """Thirty paragraphs of a long chapter and four of a short one, each paragraph on its own page."""
    paragraphs = [
        f"Chapter part {i} shows how the {NOUNS[i % 10]} of the town depends on the {NOUNS[(i * 3 + 1) % 10]} "
        f"and why people {('build', 'visit', 'repair', 'measure', 'paint')[i % 5]} it every season of the year. "
        f"Its {NOUNS[(i + 7) % 10]} number {i} was drawn on an old map that the school of the {NOUNS[(i + 2) % 10]} "
        f"still keeps beside the {NOUNS[(i * 7 + 5) % 10]} and the {NOUNS[(i + 4) % 10]}."
        for i in range(34)
    ]
    pages = tuple((i + 1, i + 1) for i in range(34))
    return "\n\n".join(paragraphs), DocumentStructure(pages, 34, (Chapter("Long", 0), Chapter("Short", 30)))


async def test_with_or_without_summaries_the_plan_is_the_same_so_another_model_can_write_it_again(tiny_model: Path):
    small = LlamaCppGenerator(tiny_model, n_ctx=1024, n_threads=1)  # the long chapter needs several prompts
    text, structure = _long_and_short_chapters()
    writing = await GuideWriter(small, summaries=True).outline(text, language="en", structure=structure)
    quoting = await GuideWriter(small, summaries=False).outline(text, language="en", structure=structure)
    assert [t for t, _n in writing.sections][:2] == ["Long (1)", "Long (2)"]
    assert quoting.sections == writing.sections


async def test_without_summaries_a_long_section_quotes_up_to_twelve_key_passages_with_their_pages(
    tiny: LlamaCppGenerator,
):
    text, structure = _long_and_short_chapters()
    guide = await GuideWriter(tiny, summaries=False).write(text, language="en", structure=structure)
    assert [s.title for s in guide.sections] == ["Long", "Short"]
    quotes = [line for line in guide.sections[0].body.splitlines() if line.startswith("> ")]
    assert 6 < len(quotes) <= QUOTES_ONLY_MAX, "more than a fallback's six: the key passages are the section"
    assert all(re.search(r"\(p\. \d+(–\d+)?\)$", line) for line in quotes), quotes


def test_quotes_are_whole_sentences_not_lead_ins_to_a_command_or_fragments():
    passage = (
        "Start the R program from a terminal window with the command\n\n"
        "(alternatively, ls()) can be used to display the names of the objects stored within R.\n\n"
        "All objects created during an R session can be stored permanently in a file for later sessions. "
        "At the end of each R session you are given the chance to save all the objects you made. "
        "The working directory holds the data files and the history of the commands you typed."
    )
    body = quoted_section([passage], language="en", pages=["p. 9"], max_quotes=QUOTES_ONLY_MAX, note=False)
    quoted = [line for line in body.splitlines() if line.startswith("> ")]
    assert quoted and all(is_whole_sentence(line[2:].removesuffix(" (p. 9)")) for line in quoted), quoted
    assert not any("with the command" in line or "(alternatively" in line for line in quoted)
    assert is_whole_sentence("“Um texto citado.”") and is_whole_sentence("¿Qué es una célula?")
    assert not is_whole_sentence("a fragment that a line break cut.")
    assert not is_whole_sentence("The lead-in to an example:")

"""The study-guide writer: passages, language, outline repair, chunking, progress and stop — on real
models."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from daemon.guide_writer.checks import word_tokens
from daemon.guide_writer.extractive import quoted_section
from daemon.guide_writer.guard import guide_sentence_keys
from daemon.guide_writer.outline import repair_outline
from daemon.guide_writer.prompts import PROMPTS, detect_language
from daemon.guide_writer.writer import GuideProgress, GuideWriter, split_passages
from daemon.llm.errors import GenerationStoppedError
from daemon.llm.llamacpp import LlamaCppGenerator
from daemon.llm.models import create_generator
from devkit.recording import RecordingGenerator
from devkit.tiny_gguf import expected_tiny_reply

ENGLISH = """Photosynthesis is the process by which green plants, algae and some bacteria convert light energy
into chemical energy. Light is captured by chlorophyll and used to turn water and carbon dioxide into glucose
and oxygen.

The process takes place mainly in the chloroplasts of leaf cells. It has two stages: the light-dependent
reactions, in the thylakoid membranes, which produce ATP and NADPH; and the Calvin cycle, in the stroma, which
uses that energy
to fix carbon dioxide into sugar."""

PORTUGUESE = """A fotossíntese é o processo pelo qual as plantas verdes, as algas e algumas bactérias
transformam a energia da luz em energia química. A luz é captada pela clorofila e usada para transformar água
e gás carbônico em glicose e oxigênio.

O processo acontece principalmente nos cloroplastos das células das folhas. Ele tem duas etapas: as reações
que dependem da luz, nas membranas dos tilacoides, e o ciclo de Calvin, no estroma, que fixa o gás carbônico
em
açúcar."""

TINY_TITLE = expected_tiny_reply(100)  # the tiny model's titles run to the schema's max_length
PASSAGE_TITLE = "Energy, process and light"
"""What a section of ``ENGLISH`` is titled: the tiny model's title fails its check, so the passage's most frequent
content words title it."""


@pytest.fixture
def tiny(tiny_model: Path) -> LlamaCppGenerator:
    return LlamaCppGenerator(tiny_model, n_ctx=8192, n_threads=1)


def test_language_is_detected() -> None:
    assert detect_language(ENGLISH) == "en"
    assert detect_language(PORTUGUESE) == "pt"
    assert detect_language("12345 !!!") == "en"
    assert detect_language("12345 !!!", default="pt") == "pt"


def test_passages_follow_paragraphs_and_stay_bounded() -> None:
    assert split_passages(ENGLISH, max_chars=400, min_chars=50) == [" ".join(p.split()) for p in ENGLISH.split("\n\n")]
    merged = split_passages("One.\n\nTwo.\n\nThree.", max_chars=400, min_chars=300)
    assert merged == ["One.\n\nTwo.\n\nThree."]
    long = " ".join(f"Sentence number {i} is here." for i in range(200))
    pieces = split_passages(long, max_chars=300, min_chars=100)
    assert all(len(p) <= 300 for p in pieces)
    assert " ".join(pieces) == long
    assert split_passages("x" * 1000, max_chars=300) == ["x" * 300, "x" * 300, "x" * 300, "x" * 100]
    assert split_passages(" \n\n \n") == []


def test_outline_repair_keeps_order_and_covers_every_passage() -> None:
    en = PROMPTS["en"]
    assert repair_outline([("B", [3, 4]), ("A", [1])], [1, 2, 3, 4], en, 1) == [("A", [1, 2]), ("B", [3, 4])]
    # Out-of-chunk and repeated numbers are dropped; an unclaimed first passage joins the first section.
    assert repair_outline([("A", [2, 9]), ("B", [2, 3])], [1, 2, 3], en, 1) == [("A", [1, 2]), ("B", [3])]
    assert repair_outline([("  ", [1]), ("X", [7])], [5, 6], en, 3) == [("Part 3", [5, 6])]
    assert repair_outline([], [1], PROMPTS["pt"], 2) == [("Parte 2", [1])]


async def test_tiny_model_guide_is_exact_and_its_garbled_text_is_replaced_by_quotes(tiny: LlamaCppGenerator) -> None:
    guide = await GuideWriter(tiny, section_tokens=40, outline_tokens=300).write(ENGLISH)
    assert guide.language == "en"
    assert [(s.title, s.passages) for s in guide.sections] == [(PASSAGE_TITLE, (1,))]  # short paragraphs merge
    definition = (
        "Photosynthesis is the process by which green plants, algae and some bacteria convert light energy into "
        "chemical energy."
    )
    meaning = definition.removeprefix("Photosynthesis is t")
    term = f"- **Photosynthesis**: T{meaning}"  # what the passage's own defining sentence says, not generated
    head = "# Study guide\n\n**Learning objectives**\n\n- Explain what Photosynthesis is."
    aids = f"### Key terms\n\n{term}\n\n### Review questions\n\n**Q:** What is Photosynthesis?\n**A:** {definition}"
    sources = "*Sources: paragraphs 1–2*"  # a text without pages or chapters cites its paragraphs
    section = guide.sections[0]
    assert (section.origin, section.model_text) == ("quotes", expected_tiny_reply(40))
    answered = set(guide_sentence_keys(aids))  # the answer's sentence is not quoted again
    quotes = quoted_section([" ".join(ENGLISH.split())], language="en", seen_sentences=answered)
    body = f"### Key passages\n\n{quotes}\n\n{aids}\n\n{sources}"  # quotes are never called a summary
    glossary = f"## Glossary\n\n- **Photosynthesis**: see the section “{PASSAGE_TITLE}”"
    coverage = f"## Coverage\n\n| Section | Source |\n|---|---|\n| {PASSAGE_TITLE} | paragraphs 1–2 |"
    assert section.body == body
    assert guide.markdown == f"{head}\n\n## {PASSAGE_TITLE}\n\n{body}\n\n{glossary}\n\n{coverage}\n"


async def test_portuguese_document_gets_portuguese_prompts_and_title(tiny: LlamaCppGenerator) -> None:
    recording = RecordingGenerator(tiny)
    guide = await GuideWriter(recording, section_tokens=10).write(PORTUGUESE)
    assert guide.language == "pt"
    assert guide.markdown.startswith("# Guia de estudo\n")
    prompts = [m["content"] for messages in recording.record.sent for m in messages]
    assert all(detect_language(p) == "pt" for p in prompts)
    assert any("trechos" in p for p in prompts)


async def test_long_document_is_chunked_to_the_context_and_progress_is_real(tiny_model: Path) -> None:
    small = LlamaCppGenerator(tiny_model, n_ctx=1024, n_threads=1)
    paragraphs = [f"Paragraph {i} talks about topic {i}. " * 12 for i in range(12)]
    progress: list[GuideProgress] = []
    writer = GuideWriter(small, section_tokens=20, outline_tokens=300)
    guide = await writer.write("\n\n".join(paragraphs), on_progress=progress.append)

    outline = [p for p in progress if p.phase == "outline"]
    sections = [p for p in progress if p.phase == "section"]
    chunks = outline[0].steps
    assert chunks > 1, "the document should not fit one outline prompt"
    assert [p.step for p in outline if p.tokens == 0 and not p.prompt_read] == list(range(1, chunks + 1))
    assert all(p.tokens <= p.token_budget == 300 for p in outline)
    assert [p.step for p in sections if p.tokens == 0 and not p.prompt_read] == list(range(1, len(guide.sections) + 1))
    reading = [p for p in outline + sections if p.prompt_read]  # the batches of the prompts read, as they went
    assert reading and all(p.tokens == 0 and 0 < p.prompt_read < p.prompt_tokens for p in reading)
    assert {p.steps for p in sections} == {len(guide.sections)}
    assert max(p.tokens for p in sections) == 20
    # Every passage is in exactly one section, in document order. The tiny model's title ("abcdef…") and the
    # "Part n" of the chunks whose outline ran out of tokens are replaced by titles from the sections' own words.
    covered = [n for s in guide.sections for n in s.passages]
    assert covered == list(range(1, len(covered) + 1))
    assert len(guide.sections) == chunks
    document_words = {w.lower() for p in paragraphs for w in word_tokens(p)} | {"and"}
    for section in guide.sections:
        assert section.title != TINY_TITLE and not section.title.startswith("Part ")
        assert {w.lower() for w in word_tokens(section.title)} <= document_words, section.title
    assert guide.markdown.count("\n## ") == len(guide.sections) + 1  # and the coverage table


async def test_each_part_is_handed_over_as_soon_as_it_is_written_and_the_parts_joined_are_the_guide(
    tiny_model: Path,
) -> None:
    small = LlamaCppGenerator(tiny_model, n_ctx=1024, n_threads=1)
    paragraphs = [f"Paragraph {i} talks about topic {i}. " * 12 for i in range(12)]
    progress: list[GuideProgress] = []
    parts: list[tuple[int, str, str, int]] = []  # position, title, markdown, section steps started by then

    async def on_part(position: int, title: str, markdown: str, _origin: str) -> None:
        started = len({p.step for p in progress if p.phase == "section"})
        parts.append((position, title, markdown, started))

    writer = GuideWriter(small, section_tokens=20, outline_tokens=300)
    plan = await writer.outline("\n\n".join(paragraphs))
    guide = await writer.write_sections(plan, title="Topics", on_progress=progress.append, on_part=on_part)

    assert len(guide.sections) > 1
    count = len(guide.sections)
    assert [p[0] for p in parts] == list(range(count + 2))  # the head, the sections, the coverage table
    assert parts[0][:2] == (0, "Topics")
    assert parts[0][2].startswith(f"# Topics\n\nThis guide covers {count} sections of the document: ")
    assert [p[1] for p in parts[1:-1]] == [s.title for s in guide.sections]
    assert [p[3] for p in parts[:-1]] == list(range(count + 1))  # each before the next one starts
    assert [p[2] for p in parts[1:-1]] == [f"## {s.title}\n\n{s.body}" for s in guide.sections]
    assert parts[-1][1] == "Coverage"  # no term is defined in this text: no glossary
    assert guide.markdown == "\n\n".join(p[2] for p in parts) + "\n"


async def test_sections_an_earlier_attempt_wrote_are_not_asked_of_the_model_again(tiny_model: Path) -> None:
    recording = RecordingGenerator(LlamaCppGenerator(tiny_model, n_ctx=1024, n_threads=1))
    writer = GuideWriter(recording, section_tokens=10, outline_tokens=300)
    plan = await writer.outline("\n\n".join(f"Paragraph {i} talks about topic {i}. " * 12 for i in range(12)))
    assert len(plan.sections) > 2
    first = await writer.write_sections(plan)
    asked_first = len(recording.record.sent)
    parts: list[int] = []

    async def on_part(position: int, _title: str, _markdown: str, _origin: str) -> None:
        parts.append(position)

    again = await writer.write_sections(plan, on_part=on_part, written={1: "Kept from before."})
    # Each section the tiny model writes fails its check: two calls per section.
    assert len(recording.record.sent) - asked_first == 2 * (len(plan.sections) - 1)
    assert again.sections[0].body == "Kept from before."
    assert [s.body for s in again.sections[1:]] == [s.body for s in first.sections[1:]]
    assert parts == [0, *range(2, len(plan.sections) + 2)]


async def test_stop_while_writing_a_section(tiny: LlamaCppGenerator) -> None:
    stop = threading.Event()
    set_at: list[float] = []

    def on_progress(progress: GuideProgress) -> None:
        if progress.phase == "section" and progress.tokens == 100 and not stop.is_set():
            stop.set()
            set_at.append(time.perf_counter())

    writer = GuideWriter(tiny, section_tokens=5000)
    with pytest.raises(GenerationStoppedError) as caught:
        await writer.write(ENGLISH, stop_event=stop, on_progress=on_progress)
    assert time.perf_counter() - set_at[0] < 1.0  # a bound a loaded machine keeps; the tokens say how soon
    assert caught.value.partial_text == expected_tiny_reply(len(caught.value.partial_text))
    assert 100 <= len(caught.value.partial_text) <= 102  # one token at most after the one that set the stop


async def test_an_outline_cut_by_its_token_budget_falls_back_to_one_part(tiny: LlamaCppGenerator) -> None:
    guide = await GuideWriter(tiny, section_tokens=5, outline_tokens=20).write(ENGLISH)
    # the fallback section's "Part 1" is not about the passage: it is titled from the passage's words
    assert [(s.title, s.passages, s.model_text) for s in guide.sections] == [(PASSAGE_TITLE, (1,), "abcde")]
    assert "\n\n### Key terms\n\n" in guide.sections[0].body
    assert guide.sections[0].body.endswith("\n\n*Sources: paragraphs 1–2*")


async def test_empty_document_is_refused(tiny: LlamaCppGenerator) -> None:
    with pytest.raises(ValueError, match="no text"):
        await GuideWriter(tiny).write("\n\n  \n")


@pytest.mark.slow
@pytest.mark.parametrize(("text", "heading"), [(ENGLISH, "# Study guide"), (PORTUGUESE, "# Guia de estudo")])
async def test_default_model_writes_an_outline_and_a_section(text: str, heading: str) -> None:
    generator = create_generator()
    progress: list[GuideProgress] = []
    started = time.perf_counter()
    guide = await GuideWriter(generator, section_tokens=120, outline_tokens=200).write(
        text.split("\n\n")[0], on_progress=progress.append
    )
    elapsed = time.perf_counter() - started
    assert guide.markdown.startswith(heading + "\n\n") and "\n## " in guide.markdown
    assert len(guide.sections) >= 1
    first = guide.sections[0]
    assert first.title and len(first.title) <= 100
    assert len(first.body.split()) >= 10, first.body
    assert any(p.phase == "section" and p.tokens > 0 for p in progress)
    assert elapsed < 120

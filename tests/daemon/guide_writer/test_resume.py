"""A guide's plan is stored and taken back without asking the model again; a resumed guide writes only the
sections that are missing — counted in real model calls of the tiny deterministic model."""

from __future__ import annotations

from pathlib import Path

from core.app.documents.counters import counter_text
from daemon.guide_writer.writer import GuideWriter
from daemon.llm.llamacpp import LlamaCppGenerator
from devkit.recording import RecordingGenerator

TEXT = "\n\n".join(f"Paragraph {i} talks about topic {i}. " * 12 for i in range(12))


async def test_a_stored_plan_comes_back_without_a_model_call_and_only_for_its_own_text(tiny_model: Path) -> None:
    recording = RecordingGenerator(LlamaCppGenerator(tiny_model, n_ctx=1024, n_threads=1))
    writer = GuideWriter(recording, section_tokens=10, outline_tokens=300)
    plan = await writer.outline(TEXT)
    asked = len(recording.record.sent)
    assert asked > 1 and len(plan.sections) > 2 and plan.tokens > 0

    restored = await writer.restore(TEXT, plan.to_json())
    assert restored == plan
    assert len(recording.record.sent) == asked  # no model call
    assert await writer.restore(TEXT + "\n\nOne more paragraph about something else.", plan.to_json()) is None
    assert await writer.restore(TEXT, "not json") is None


async def test_a_guide_resumed_at_section_k_asks_the_model_only_for_sections_k_onwards(tiny_model: Path) -> None:
    recording = RecordingGenerator(LlamaCppGenerator(tiny_model, n_ctx=1024, n_threads=1))
    writer = GuideWriter(recording, section_tokens=10, outline_tokens=300)
    plan = await writer.outline(TEXT)
    first = await writer.write_sections(plan)
    k = 3
    written = {n: first.sections[n - 1].body for n in range(1, k)}

    before = len(recording.record.sent)
    restored = await writer.restore(TEXT, plan.to_json())
    assert restored is not None
    again = await writer.write_sections(restored, written=written)
    asked = recording.record.sent[before:][::2]  # the tiny model's text fails its check: each section is asked twice
    assert len(recording.record.sent) - before == 2 * (len(plan.sections) - (k - 1))
    assert all(plan.sections[n - 1][0] in m[-1]["content"] for n, m in zip(range(k, 99), asked, strict=False))
    assert again.markdown == first.markdown


def test_the_details_show_the_plan_in_the_readers_language() -> None:
    detail = {"plan_sections": 12, "plan_tokens": 34000, "plan_seconds": 1500, "plan_from_chapters": True}
    english = counter_text(detail, "en")
    assert english == "plan: 12 sections from the document's chapters, 34\u2009000 tokens, about 25 min"
    portuguese = counter_text({**detail, "plan_from_chapters": False, "plan_seconds": None}, "pt_BR")
    assert portuguese == "plano: 12 seções a partir de 34\u2009000 tokens"


async def test_each_step_reuses_the_prompt_prefix_the_model_already_processed(tiny_model: Path) -> None:
    generator = LlamaCppGenerator(tiny_model, n_ctx=1024, n_threads=1)
    model = await generator.load()  # shared by every generator of this file in the process: count the difference
    sent, processed = model.prompt_tokens_sent, model.prompt_tokens_processed
    writer = GuideWriter(generator, section_tokens=10, outline_tokens=300)
    plan = await writer.outline(TEXT)
    await writer.write_sections(plan)
    sent, processed = model.prompt_tokens_sent - sent, model.prompt_tokens_processed - processed
    source = sum([await generator.count_tokens(p) for p in plan.passages])
    steps = len(plan.sections) + 2  # the outline chunks and the sections
    assert processed < sent - 20 * steps  # the shared instructions (chat template, system message) are reused
    # every passage is sent twice (its outline chunk, its section) and never more; besides the passages, a step
    # processes its own instructions (long in the tiny model's one-byte tokens: about 250 per step)
    assert 2 * source <= processed <= 2 * source + 300 * steps, (processed, sent, source, steps)
    await generator.aclose()

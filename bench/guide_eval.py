"""Guide evaluation: what a model's study guides are worth, on a fixed set of Portuguese and English documents.

Any model the app can use: ``--model`` takes a catalog id (its downloaded file, or ``smollm2-135m-demo`` for the
bundled demo), a GGUF file, or a server's URL (``http://127.0.0.1:8080/v1`` with ``--server-model NAME``); without
it, the bundled SmolLM2. The model runs as the worker runs it (:func:`daemon.runtime.model_choice` of this computer's
settings with the model setting naming it: its context, threads, a catalog model's sampling and run settings), and
each document goes through the real pipeline: read like the ``ingest`` job reads it (text and page structure), cut
to its first pages, and written by :class:`daemon.guide_writer.writer.GuideWriter` (outline, then sections checked by
:class:`daemon.guide_writer.guard.SectionGuard`). The documents are real PDFs of the test corpus
(``tests/daemon/corpus.py``: Debian's ``texlive-lang-portuguese``, ``camlidl-doc`` and ``r-doc-pdf``), named as in
``bench/guide_quality.py``.

Printed per document:

* **sections**, **words** — the guide's sections and words (its sections' bodies);
* **model calls** — outline and section calls (a second try of a rejected text counted);
* **kept** — sections whose summary is the model's (the rest quote their passages);
* **grounded** — of the kept summaries' sentences, those whose content words the pages they cite hold
  (:func:`daemon.guide_writer.grounding.sentence_support`, the guide's own check); each kept sentence that fails is
  printed (the check should have rejected it); **grounded, all written** — the same over every summary the model wrote,
  those its check rejected too (each section's last try);
* **non-words** — share of the guide's words in no dictionary of its language nor in the document;
* **repeated** — sentences said more than once in the guide;
* **language** — detected in the guide's text (the document's in brackets);
* **seconds** — outline and sections, reading the document not counted;
* **÷ floor** — seconds ÷ the model's floor: the document's tokens ÷ the prompt speed + the tokens the model wrote
  ÷ its decode speed, both measured in this run (a probe prompt before the first document and after the last, the
  mean of the two). What the pipeline costs beyond reading the document once and writing its answers; far below 1
  when the model reads little or nothing (a document with chapters and no summaries asks the model nothing).

``--summaries auto`` (the default) writes summaries as the worker does, by the model catalog's word (the bundled
SmolLM2 writes none); ``on`` / ``off`` force them.

Run: ``.venv/bin/python bench/guide_eval.py [--model ID|FILE|URL] [--summaries auto|on|off] [--docs pt-beamer:4,…]``
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_support import model_settings
from guide_quality import DOCUMENTS, corpus_path, first_pages, nonword_rate, parse_docs

from core.app.documents.structure import DocumentStructure
from core.app.models.library import writes_summaries
from daemon.guide_writer.checks import TextChecker, plain_text, word_tokens
from daemon.guide_writer.grounding import SentenceSupport, sentence_support
from daemon.guide_writer.guard import guide_sentence_keys
from daemon.guide_writer.prompts import detect_language, supported_language
from daemon.guide_writer.section import passage_pages
from daemon.guide_writer.writer import GuidePlan, GuideWriter, StudyGuide
from daemon.llm.base import TextGenerator, TokenProgress
from daemon.llm.models import create_generator
from daemon.readers import read_document
from daemon.runtime import model_choice
from devkit.recording import RecordingGenerator

EVAL_DOCS = "pt-beamer:4,pt-latexsheet:1,en-camlidl:3,en-r-faq:5"
"""The fixed set: two Portuguese and two English documents, each cut to its first pages (short enough that the
bundled model writes all four in minutes on two cores)."""
_PROBE_SENTENCE = "The cell membrane controls what enters and leaves the cell, and the nucleus holds its DNA. "
_PROBE_ANSWER = 48


@dataclass
class Speed:
    """Prompt tokens read and answer tokens written per second."""

    prompt: float
    decode: float


@dataclass
class EvalRow:
    name: str
    pages: int
    language: str
    detected: str
    sections: int
    words: int
    kept: int
    sentences: int
    grounded: int
    written: int
    written_grounded: int
    calls: int
    nonwords: float
    repeated: int
    seconds: float
    source_tokens: int
    output_tokens: int
    floor: float = 0.0


async def probe_speed(generator: TextGenerator, tokens: int, tag: str) -> Speed:
    """The model's prompt and decode speeds on a prompt of about ``tokens`` tokens (``tag`` opens it, so no cached
    prefix of an earlier call is reused): prompt tokens ÷ the time to the first answer token, and answer tokens
    after the first ÷ the time from the first to the last."""
    per = await generator.count_tokens(_PROBE_SENTENCE)
    prompt = f"{tag}. " + _PROBE_SENTENCE * max(1, tokens // max(per, 1)) + "\nSay what the cell membrane does."
    marks: list[tuple[float, int, int]] = []

    def on_token(progress: TokenProgress) -> None:
        if progress.completion_tokens:
            marks.append((time.perf_counter(), progress.completion_tokens, progress.prompt_tokens))

    started = time.perf_counter()
    await generator.chat([{"role": "user", "content": prompt}], max_tokens=_PROBE_ANSWER, on_token=on_token)
    if len(marks) < 2:
        raise SystemExit("the model wrote fewer than two tokens for the speed probe")
    (first, n0, told), (last, n1, _told) = marks[0], marks[-1]
    prompt_tokens = told or await generator.count_tokens(prompt)
    return Speed(prompt_tokens / (first - started), (n1 - n0) / (last - first) if last > first else 0.0)


def summary_support(plan: GuidePlan, guide: StudyGuide, *, kept: bool) -> list[tuple[str, SentenceSupport]]:
    """Each sentence of each summary the model wrote (``kept``: only those the guide kept, not the ones its check
    replaced by quotes) with its support by the passages of the pages it cites: the guide's own measure
    (:func:`daemon.guide_writer.grounding.sentence_support`)."""
    found = []
    for section in guide.sections:
        if not section.model_text or (kept and section.origin != "model"):
            continue
        numbers = list(section.passages)
        sources = [plan.passages[n - 1] for n in numbers]
        for support in sentence_support(section.model_text, sources, plan.language, passage_pages(plan, numbers)):
            found.append((section.title, support))
    return found


async def run_document(key: str, cap: int, generator: TextGenerator, summaries: bool) -> EvalRow:
    """Write the guide of document ``key``'s first ``cap`` pages and measure it."""
    document = read_document(corpus_path(key))
    structure = DocumentStructure.from_json(document.structure)
    text, structure = first_pages(document.text, structure, cap)
    language = supported_language(document.language) or detect_language(text)
    recording = RecordingGenerator(generator)
    writer = GuideWriter(recording, summaries=summaries)
    started = time.perf_counter()
    plan = await writer.outline(text, language=language, structure=structure)
    guide = await writer.write_sections(plan, title=key)
    seconds = time.perf_counter() - started
    bodies = [section.body for section in guide.sections]
    supports = summary_support(plan, guide, kept=True)
    written = summary_support(plan, guide, kept=False)
    for title, support in supports:
        if not support.ok:
            print(f"{key}: KEPT SUMMARY SENTENCE NOT GROUNDED in “{title}”: {support.sentence}", flush=True)
    counts = Counter(guide_sentence_keys(guide.markdown))
    guide_text = " ".join(plain_text(body) for body in bodies)
    return EvalRow(
        name=key,
        pages=structure.page_count or document.page_count or 0,
        language=language,
        detected=detect_language(guide_text, default="en"),
        sections=len(guide.sections),
        words=len(word_tokens(guide_text)),
        kept=sum(section.origin == "model" for section in guide.sections),
        sentences=len(supports),
        grounded=sum(support.ok for _title, support in supports),
        written=len(written),
        written_grounded=sum(support.ok for _title, support in written),
        calls=recording.record.calls,
        nonwords=nonword_rate(TextChecker(language), bodies, text),
        repeated=sum(n - 1 for n in counts.values() if n > 1),
        seconds=seconds,
        source_tokens=await generator.count_tokens(text),
        output_tokens=recording.record.completion_tokens,
    )


def share(part: int, whole: int, none: str) -> str:
    return f"{part}/{whole} ({part / whole:.0%})" if whole else none


def table(rows: list[EvalRow]) -> str:
    lines = [
        "| document | pages | sections | words | model calls | kept | grounded | grounded, all written | non-words "
        "| repeated | language | seconds | ÷ floor |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.name} | {r.pages} | {r.sections} | {r.words} | {r.calls} | {r.kept} "
            f"| {share(r.grounded, r.sentences, '— (none kept)')} | {share(r.written_grounded, r.written, '— (none)')} "
            f"| {r.nonwords:.1%} | {r.repeated} | {r.detected} (doc {r.language}) | {r.seconds:.1f} "
            f"| {r.seconds / r.floor:.2f} |"
        )
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default=None, help="a catalog id, a GGUF file or a server URL (default: bundled)")
    parser.add_argument("--server-model", default=None, help="the model's name on the server (with a URL)")
    parser.add_argument("--threads", type=int, default=None, help="CPU threads (default: the model setting's)")
    parser.add_argument("--summaries", choices=("auto", "on", "off"), default="auto")
    parser.add_argument(
        "--docs", default=EVAL_DOCS, help=f"name:pages, comma-separated, of {', '.join(DOCUMENTS)}"
    )  # fmt: skip
    parser.add_argument("--probe-tokens", type=int, default=1000, help="prompt tokens of the speed probe")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="  %(name)s: %(message)s", stream=sys.stdout)
    settings = model_settings(args.model, server_model=args.server_model, threads=args.threads)
    summaries = {"on": True, "off": False}.get(args.summaries, writes_summaries(settings))
    choice = model_choice(settings)
    generator = create_generator(choice)
    load = getattr(generator, "load", None)
    if load is not None:
        await load()
    print(
        f"model {choice.path.name if choice.path else choice.model_name or 'bundled'} ({settings.model.kind}), "
        f"context {generator.context_window}, summaries {'on' if summaries else 'off'} ({args.summaries})",
        flush=True,
    )
    before = await probe_speed(generator, args.probe_tokens, "First")
    rows = []
    for key, cap in parse_docs(args.docs, 3):
        rows.append(await run_document(key, cap, generator, summaries))
        print(f"{key}: {rows[-1].seconds:.0f} s, {rows[-1].output_tokens} tokens written", flush=True)
    after = await probe_speed(generator, args.probe_tokens, "Last")
    speed = Speed((before.prompt + after.prompt) / 2, (before.decode + after.decode) / 2)
    for row in rows:
        row.floor = row.source_tokens / speed.prompt + row.output_tokens / max(speed.decode, 1e-9)
    await generator.aclose()
    print(
        f"speeds: prompt {speed.prompt:.0f} tokens/s (before {before.prompt:.0f}, after {after.prompt:.0f}), "
        f"decode {speed.decode:.1f} tokens/s (before {before.decode:.1f}, after {after.decode:.1f})",
        flush=True,
    )
    print(table(rows))


if __name__ == "__main__":
    asyncio.run(main())

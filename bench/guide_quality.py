"""Benchmark of the study guides themselves: what a model writes from real documents, and what it costs.

Held-out real PDFs (the test corpus's ``tests/daemon/corpus.py``; none is in the calibration set of
``bench/calibrate.py``: ``bench_support.held_out`` holds each name out), Portuguese and English, one of 80+ pages.
Each is read like the ``ingest`` job reads it (text and page structure), cut to ``--pages`` pages when longer
(said in the table), and written into a guide by :class:`daemon.guide_writer.writer.GuideWriter` with the bundled model
(or ``--model PATH``). Printed per document and overall:

* **repeated** — sentences that occur more than once in the guide (goal 0);
* **non-words model / guide** — share of the words not in the language's dictionary (proper nouns, numbers and the
  document's own words count as known) in the model's last answer of each section, and in the final guide;
* **valid pages** — sections whose sources line cites pages, all of them pages of the section's own passages
  (goal 100 %); **pages cited** — pages with text that some section cites (pages the coverage table leaves out
  as front or back matter, with their reason, are not counted);
* **quotes** — sections made of quotes: the model's text failed its check, or the model writes no summaries;
* **language** — the language detected in the guide's text against the document's;
* **prompt/source** — prompt tokens llama.cpp evaluated (its perf counters: a reused prefix is not evaluated
  again) per token of the document's text (goal ≤ 2.2);
* **decode ÷ bare (wall)** — tokens per second between the first and the last token of each generation of the
  writer, against a bare llama.cpp loop (``Llama.eval`` + ``Llama.sample``, greedy) on the same model file,
  context size, threads and batch, after a prompt as deep as the document's mean section prompt (decode slows as
  the context deepens), run right before and right after the sections (the mean of the two): on shared cores a
  loop run once, minutes away, says more about the load than about the writer (goal ≥ 0.9); **(CPU)** — the same
  per second of the process's CPU time (all threads), which other processes' load changes far less. Printed
  first: the writer's decode path (``chat``) against the bare loop on the same ``--bare-context``-token prompt,
  alternating, ``--rounds`` rounds;
* **min/100 p** — minutes of writing (outline and sections) per 100 pages.

With ``--excerpts DIR``, each guide is written to ``DIR/<document>.md`` and each section's last model text (kept or
rejected, with the checks it failed and its grounding share) to ``DIR/<document>.model.md``.

Each section is printed as it is written (position, title, pages, whether it is the model's text or quotes and
which checks the model's text failed), so a long run shows where it stands and why sections went to quotes.

``--summaries auto`` (the default) writes summaries as the worker does, by the model catalog's word: the bundled
SmolLM2 writes none (every section quotes its key passages; the model plans the sections of a document without
chapters, and nothing else), any other GGUF writes them. ``--summaries on`` makes the bundled model write them
too (what its decode path costs, and what its text is worth), ``off`` makes any model quote. Without summaries the
model's non-words are "—", and a document with chapters decodes nothing ("—" for decode ÷ bare).

Run: ``.venv/bin/python bench/guide_quality.py [--model PATH] [--threads N] [--pages N] [--docs pt-beamer,…]``;
a document in ``--docs`` may carry its own page limit, ``en-r-intro:all`` (the whole document) or
``pt-lshort:8``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import llama_cpp
from bench_support import bench_generator
from llama_cpp import Llama

from core.app.documents.structure import DocumentStructure, paragraphs
from daemon.guide_writer.checks import TextChecker, plain_text, word_tokens
from daemon.guide_writer.grounding import grounding
from daemon.guide_writer.guard import guide_sentence_keys
from daemon.guide_writer.matter import left_out_pages
from daemon.guide_writer.prompts import detect_language, supported_language
from daemon.guide_writer.writer import GuidePlan, GuideProgress, GuideWriter, StudyGuide
from daemon.llm.base import TokenProgress
from daemon.llm.llamacpp import LlamaCppGenerator, default_n_threads, shared_model
from daemon.readers import read_document
from tests.daemon.corpus import fetch_corpus

DOCUMENTS = {
    "pt-beamer": ("texlive-lang-portuguese", "beamer-tut-pt/tutorialbeamer.pdf"),
    "pt-lshort": ("texlive-lang-portuguese", "lshort-portuguese/pt-lshort.pdf"),
    "en-r-intro": ("r-doc-pdf", "R-intro.pdf"),
    "en-r-faq": ("r-doc-pdf", "R-FAQ.pdf"),
    "pt-latexsheet": ("texlive-lang-portuguese", "latexcheat-ptbr/latexsheet-ptbr.pdf"),
    "en-camlidl": ("camlidl-doc", "camlidl-1.04.doc.pdf"),
}
DEFAULT_DOCS = "pt-beamer,pt-lshort,en-r-intro"
_PROMPT_OVERHEAD = 160  # the section prompt's instructions and chat template (``daemon.guide_writer.writer``)
_PAGE_CITE = re.compile(r"^\*[^*:]+:\s*(?:p\.|pág\.|S\.)\s*([0-9–, -]+)\*\s*$", re.MULTILINE)


@dataclass
class Row:
    name: str
    pages: int
    pages_total: int
    language: str
    repeated: int = 0
    nonword_model: float = 0.0
    nonword_guide: float = 0.0
    valid_pages: float = 0.0
    pages_cited: float = 0.0
    quotes: float = 0.0
    sections: int = 0
    detected: str = "?"
    prompt_per_source: float = 0.0
    decode_ratio: float = 0.0
    minutes_per_100: float = 0.0
    decode_tps: float = 0.0
    bare_tps: float = 0.0
    cpu_ratio: float = 0.0
    extra_depth: int = 0
    summaries: bool = True
    extra: dict[str, float] = field(default_factory=dict)


def corpus_path(key: str) -> Path:
    package, name = DOCUMENTS[key]
    corpus = fetch_corpus()
    if package == "r-doc-pdf":
        return corpus.r_manual(name.removesuffix(".pdf"))
    if package == "camlidl-doc":
        return corpus.camlidl_pdf
    return corpus.portuguese_pdf(name)


def first_pages(text: str, structure: DocumentStructure, cap: int) -> tuple[str, DocumentStructure]:
    """The paragraphs of the first ``cap`` pages and their structure (all of it when the document is shorter)."""
    parts = paragraphs(text)
    if structure.page_count is None or structure.page_count <= cap or not structure.fits(len(parts)):
        return text, structure
    keep = sum(1 for first, _last in structure.paragraph_pages if first <= cap)
    pages = tuple((a, min(b, cap)) for a, b in structure.paragraph_pages[:keep])
    chapters = tuple(c for c in structure.chapters if c.paragraph < keep)
    return "\n\n".join(parts[:keep]), DocumentStructure(pages, cap, chapters)


def cited_pages(line: str) -> set[int]:
    found: set[int] = set()
    for piece in re.split(r",\s*", line):
        bounds = [int(n) for n in re.findall(r"\d+", piece)]
        if len(bounds) == 1:
            found.add(bounds[0])
        elif len(bounds) == 2:
            found.update(range(bounds[0], bounds[1] + 1))
    return found


def page_figures(plan: GuidePlan, guide: StudyGuide) -> tuple[float, float]:
    """(share of sections with valid page references, share of pages with text that are cited; the pages the
    coverage table leaves out as front or back matter, with their reason, are not counted)."""
    valid = 0
    cited_all: set[int] = set()
    for section in guide.sections:
        own = {p for n in section.passages if n - 1 < len(plan.pages) for p in plan.pages[n - 1]}
        match = _PAGE_CITE.search(section.body)
        cited = cited_pages(match.group(1)) if match else set()
        cited_all |= cited
        if cited and cited <= own and all(1 <= p <= (plan.page_count or 0) for p in cited):
            valid += 1
    held = {p for _t, numbers in plan.sections for n in numbers for p in plan.pages[n - 1]} if plan.pages else set()
    left_out = {p for _r, found in left_out_pages(plan.left_out, plan.pages, held) for p in found}
    with_text = {p for pages in plan.pages for p in pages} - left_out  # front/back matter, named in the guide
    share_sections = valid / len(guide.sections) if guide.sections else 0.0
    return share_sections, (len(cited_all & with_text) / len(with_text) if with_text else 0.0)


def nonword_rate(checker: TextChecker, texts: list[str], source: str) -> float:
    words = unknown = 0
    for text in texts:
        plain = plain_text(text)
        words += len(word_tokens(plain))
        unknown += len(checker.unknown_words(plain, [source]))
    return unknown / words if words else 0.0


class BareLoop:
    """A bare llama.cpp generation loop (``Llama.eval`` one token, ``Llama.sample`` greedily) on the same model file,
    context size, threads and batch as the writer's, after a prompt of about ``context`` tokens (each token attends
    to what is before it, so the depth counts). Kept loaded, so it can run right before and after each document:
    on shared cores the speed drifts by 2× within minutes, and a ratio is only meaningful between runs close in
    time."""

    def __init__(self, model: Path, threads: int, n_ctx: int, context: int, tokens: int = 160) -> None:
        self.tokens = tokens
        self.n_ctx = n_ctx
        self.llm = Llama(
            str(model), n_ctx=n_ctx, n_threads=threads, n_threads_batch=threads, n_batch=256, n_ubatch=256,
            verbose=False,
        )  # fmt: skip
        self._sentence = self.llm.tokenize(
            b" The cell membrane controls what enters and leaves the cell, and the nucleus."
        )
        self.prompt = self.prompt_of(context)

    def prompt_of(self, context: int) -> list[int]:
        """A prompt of ``context`` tokens (at most what leaves room for the decoded tokens)."""
        context = max(1, min(context, self.n_ctx - self.tokens - 8))
        return (self._sentence * (context // len(self._sentence) + 1))[:context]

    def speed(self, context: int | None = None) -> tuple[float, float]:
        """Decode tokens per second after a prompt of ``context`` tokens (default: the one given at creation),
        first token to last (the prompt is not timed): per second of wall time, and of the process's CPU time."""
        llm = self.llm
        llm.reset()
        llm.eval(self.prompt if context is None else self.prompt_of(context))
        token = llm.sample(temp=0.0)
        started, cpu = time.perf_counter(), time.process_time()
        for _ in range(self.tokens):
            llm.eval([token])
            token = llm.sample(temp=0.0, repeat_penalty=1.3)
        return self.tokens / (time.perf_counter() - started), self.tokens / (time.process_time() - cpu)

    def close(self) -> None:
        self.llm.close()


async def generator_speed(generator: LlamaCppGenerator, prompt: str, tokens: int) -> tuple[float, float]:
    """Decode tokens per second of one ``generator.chat`` call (the writer's path: chat template, streaming,
    stopping criterion, sampling chain, the hop to the event loop), first token to last, from a cold cache: per
    second of wall time and of the process's CPU time."""
    marks: list[tuple[float, float, int]] = []

    def on_token(progress: TokenProgress) -> None:
        if progress.completion_tokens:  # not a batch of the prompt read
            marks.append((time.perf_counter(), time.process_time(), progress.completion_tokens))

    model = await generator.load()
    model.llama.reset()
    model.llama._ctx.kv_cache_clear()
    await generator.chat(
        [{"role": "user", "content": prompt}], max_tokens=tokens, temperature=generator.sampling.temperature,
        on_token=on_token,
    )  # fmt: skip
    (w0, c0, n0), (w1, c1, n1) = marks[0], marks[-1]
    return ((n1 - n0) / (w1 - w0) if w1 > w0 else 0.0), ((n1 - n0) / (c1 - c0) if c1 > c0 else 0.0)


async def path_ratio(generator: LlamaCppGenerator, bare: BareLoop, rounds: int = 3) -> tuple[list[float], list[float]]:
    """The writer's decode path against the bare loop on the same prompt, alternating (bare, writer, bare …):
    each writer run ÷ the mean of the bare runs either side of it, by wall time and by CPU time."""
    prompt = bare.llm.detokenize(bare.prompt).decode("utf-8", errors="ignore")
    speeds = [bare.speed()]
    wall, cpu = [], []
    for _ in range(rounds):
        ours = await generator_speed(generator, prompt, bare.tokens)
        speeds.append(bare.speed())
        wall.append(ours[0] / ((speeds[-1][0] + speeds[-2][0]) / 2))
        cpu.append(ours[1] / ((speeds[-1][1] + speeds[-2][1]) / 2))
    return wall, cpu


class Timing:
    """Collects, from the writer's progress, each generation's first-to-last token count, wall time and the
    process's CPU time (all its threads: the generation thread and the event loop's)."""

    def __init__(self) -> None:
        self.key: tuple[str, int] | None = None
        self.first = self.last = (0.0, 0.0)
        self.count = 0
        self.tokens = 0
        self.seconds = 0.0
        self.cpu_seconds = 0.0

    def __call__(self, progress: GuideProgress) -> None:
        now = (time.perf_counter(), time.process_time())
        key = (progress.phase, progress.step)
        if progress.tokens == 0 or key != self.key or progress.tokens < self.count:
            self.close()
            self.key = key
            self.count = 0
            if progress.tokens == 0:
                return
        if self.count == 0:
            self.first = now
        self.count = progress.tokens
        self.last = now

    def close(self) -> None:
        if self.count > 1:
            self.tokens += self.count - 1
            self.seconds += self.last[0] - self.first[0]
            self.cpu_seconds += self.last[1] - self.first[1]
        self.count = 0


def parse_docs(spec: str, pages: int) -> list[tuple[str, int]]:
    """``"pt-beamer,en-r-intro:all,pt-lshort:20"`` → ``[(key, page limit)]``; no limit given is ``pages``, ``all``
    is the whole document."""
    found = []
    for item in spec.split(","):
        key, _sep, limit = item.strip().partition(":")
        if key not in DOCUMENTS:
            raise SystemExit(f"unknown document {key!r}: one of {', '.join(DOCUMENTS)}")
        found.append((key, 10**9 if limit == "all" else int(limit) if limit else pages))
    return found


def model_texts(plan: GuidePlan, guide: StudyGuide) -> str:
    """Each section's last model text (rejected ones too), with its origin, the checks it failed and the share of
    its content words its passages hold (:func:`daemon.guide_writer.grounding.grounding`): the material to tune the
    checks on."""
    parts = []
    for number, section in enumerate(guide.sections, start=1):
        sources = [plan.passages[n - 1] for n in section.passages]
        support = grounding(section.model_text, sources, plan.language)
        parts.append(
            f"## {number}. {section.title}\n\n_{section.origin}; failed: {', '.join(section.problems) or 'nothing'}; "
            f"grounding {support.share:.0%} of {support.content_words} content words, new numbers "
            f"{', '.join(support.new_numbers) or 'none'}_\n\n{section.model_text}"
        )
    return "\n\n".join(parts) + "\n"


def section_line(plan: GuidePlan, started: float) -> Callable[[int, str, str, str], Awaitable[None]]:
    """An ``on_part`` callback that prints each section as it is written: position, pages, origin, title."""

    async def on_part(position: int, title: str, markdown: str, origin: str) -> None:
        if 1 <= position <= len(plan.sections):
            numbers = plan.sections[position - 1][1]
            pages = sorted({p for n in numbers if n - 1 < len(plan.pages) for p in plan.pages[n - 1]})
            span = f"p. {pages[0]}–{pages[-1]}" if pages else "no pages"
            print(
                f"  [{time.perf_counter() - started:6.0f} s] section {position}/{len(plan.sections)} {span} "
                f"{origin}: {title[:60]}",
                flush=True,
            )

    return on_part


async def run_document(
    key: str, generator: LlamaCppGenerator, cap: int, bare: BareLoop, summaries: bool
) -> tuple[Row, str, str]:
    document = read_document(corpus_path(key))
    structure = DocumentStructure.from_json(document.structure)
    text, structure = first_pages(document.text, structure, cap)
    language = supported_language(document.language) or detect_language(text)
    pages = structure.page_count or document.page_count or 0
    row = Row(key, pages, document.page_count or 0, language, summaries=summaries)
    model = shared_model(generator.model_path, n_ctx=generator.n_ctx, n_threads=generator.n_threads, n_batch=256)
    ctx = model.llama._ctx.ctx
    llama_cpp.llama_perf_context_reset(ctx)
    timing = Timing()
    writer = GuideWriter(generator, summaries=summaries)
    started = time.perf_counter()
    plan = await writer.outline(text, language=language, structure=structure, on_progress=timing)
    paused = time.perf_counter()
    # Decode slows as the context deepens (each token attends to the whole prompt: for a 135M model at 3,000
    # tokens that is as much work as the weights), so the bare loop runs after a prompt as deep as the mean
    # section's, right before and right after the sections.
    depth = plan.tokens // max(len(plan.sections), 1) + _PROMPT_OVERHEAD
    bare_before = bare.speed(depth)
    print(
        f"{key}: {len(plan.passages)} passages, {plan.tokens} passage tokens, {len(plan.sections)} sections "
        f"({'bookmarks' if plan.from_chapters else 'model outline'}), outline {paused - started:.0f} s",
        flush=True,
    )
    resumed = time.perf_counter()
    on_part = section_line(plan, resumed)
    guide = await writer.write_sections(plan, title=key, on_progress=timing, on_part=on_part)
    elapsed = time.perf_counter() - started - (resumed - paused)
    timing.close()
    perf = llama_cpp.llama_perf_context(ctx)
    source_tokens = await generator.count_tokens(text)
    counts = Counter(guide_sentence_keys(guide.markdown))
    checker = TextChecker(language)
    row.sections = len(guide.sections)
    row.repeated = sum(n - 1 for n in counts.values() if n > 1)
    row.nonword_model = nonword_rate(checker, [s.model_text for s in guide.sections], text)
    row.nonword_guide = nonword_rate(checker, [s.body for s in guide.sections], text)
    row.valid_pages, row.pages_cited = page_figures(plan, guide)
    row.quotes = sum(s.origin == "quotes" for s in guide.sections) / max(len(guide.sections), 1)
    row.detected = detect_language(" ".join(plain_text(s.body) for s in guide.sections), default="en")
    row.prompt_per_source = perf.n_p_eval / max(source_tokens, 1)
    row.decode_tps = timing.tokens / timing.seconds if timing.seconds else 0.0
    bare_after = bare.speed(depth)
    row.extra_depth = depth
    row.bare_tps = (bare_before[0] + bare_after[0]) / 2
    row.decode_ratio = row.decode_tps / row.bare_tps if row.bare_tps else 0.0
    cpu_tps = timing.tokens / timing.cpu_seconds if timing.cpu_seconds else 0.0
    row.cpu_ratio = cpu_tps / ((bare_before[1] + bare_after[1]) / 2)
    row.minutes_per_100 = elapsed / 60 / max(pages, 1) * 100
    row.extra = {"seconds": elapsed, "source_tokens": source_tokens, "prompt_tokens": perf.n_p_eval}
    reasons = Counter(p for s in guide.sections if s.origin == "quotes" for p in s.problems)
    print(f"{key}: failed checks of the sections made of quotes: {dict(reasons.most_common()) or 'none'}", flush=True)
    for sentence, n in counts.most_common():
        if n > 1:
            print(f"{key}: repeated {n}×: {sentence[:100]}", flush=True)
    return row, guide.markdown, model_texts(plan, guide)


def table(rows: list[Row]) -> str:
    head = (
        "| document | pages | sections | repeated | non-words model | non-words guide | valid pages | pages cited "
        "| quotes | language | prompt/source | decode ÷ bare (wall) | decode ÷ bare (CPU) | min/100 p |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|"
    )
    lines = [head]
    for r in rows:
        pages = f"{r.pages} of {r.pages_total}" if r.pages < r.pages_total else str(r.pages)
        model = f"{r.nonword_model:.1%}" if r.summaries else "— (no summaries)"
        decode = (f"{r.decode_ratio:.2f}", f"{r.cpu_ratio:.2f}") if r.decode_tps else ("— (nothing decoded)", "—")
        lines.append(
            f"| {r.name} | {pages} | {r.sections} | {r.repeated} | {model} | {r.nonword_guide:.1%} "
            f"| {r.valid_pages:.0%} | {r.pages_cited:.0%} | {r.quotes:.0%} | {r.detected} (doc {r.language}) "
            f"| {r.prompt_per_source:.2f} | {decode[0]} | {decode[1]} | {r.minutes_per_100:.1f} |"
        )
    if len(rows) > 1:
        sections = sum(r.sections for r in rows) or 1
        pages = sum(r.pages for r in rows) or 1
        tokens = sum(r.extra["source_tokens"] for r in rows) or 1

        def weighted(attr: str) -> float:
            return sum(getattr(r, attr) * r.sections for r in rows) / sections

        decoded = [r for r in rows if r.decode_tps] or rows  # the documents the model wrote anything for
        model = f"{weighted('nonword_model'):.1%}" if all(r.summaries for r in rows) else "—"
        lines.append(
            f"| **overall** | {pages} | {sections} | {sum(r.repeated for r in rows)} "
            f"| {model} | {weighted('nonword_guide'):.1%} | {weighted('valid_pages'):.0%} "
            f"| {sum(r.pages_cited * r.pages for r in rows) / pages:.0%} | {weighted('quotes'):.0%} "
            f"| {sum(r.detected == r.language for r in rows)}/{len(rows)} match "
            f"| {sum(r.extra['prompt_tokens'] for r in rows) / tokens:.2f} "
            f"| {sum(r.decode_ratio for r in decoded) / len(decoded):.2f} "
            f"| {sum(r.cpu_ratio for r in decoded) / len(decoded):.2f} "
            f"| {sum(r.extra['seconds'] for r in rows) / 60 / pages * 100:.1f} |"
        )
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, default=None, help="a GGUF file (default: the bundled SmolLM2)")
    parser.add_argument("--threads", type=int, default=default_n_threads())
    parser.add_argument("--pages", type=int, default=8, help="write from the first N pages of each document")
    parser.add_argument(
        "--docs", default=DEFAULT_DOCS,
        help=f"comma-separated, of {', '.join(DOCUMENTS)}; name:N or name:all sets that document's page limit",
    )  # fmt: skip
    parser.add_argument("--bare-context", type=int, default=1500, help="prompt tokens before the bare loop")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the decode-path comparison (0: none)")
    parser.add_argument("--excerpts", type=Path, default=None, help="write each guide's Markdown into this folder")
    parser.add_argument(
        "--summaries", choices=("auto", "on", "off"), default="auto",
        help="whether the model writes each section's summary (auto: the model catalog's word, as the worker)",
    )  # fmt: skip
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="  %(name)s: %(message)s", stream=sys.stdout)
    logging.getLogger("daemon.guide_writer.guard").setLevel(logging.INFO)  # each rejected text and the checks it failed
    generator, catalog = bench_generator(args.model, args.threads)
    summaries = {"on": True, "off": False}.get(args.summaries, catalog)
    path = generator.model_path
    bare = BareLoop(path, args.threads, generator.n_ctx, args.bare_context)
    wall, cpu = await path_ratio(generator, bare, args.rounds) if args.rounds else ([0.0], [0.0])
    print(
        f"model {path.name}, {args.threads} thread(s); the writer's decode path ÷ the bare loop on the same "
        f"{args.bare_context}-token prompt, alternating, {args.rounds} rounds: wall time {statistics.median(wall):.2f} "
        f"({', '.join(f'{r:.2f}' for r in wall)}), CPU time {statistics.median(cpu):.2f} "
        f"({', '.join(f'{r:.2f}' for r in cpu)}); summaries {'on' if summaries else 'off'} ({args.summaries})",
        flush=True,
    )
    rows = []
    for key, cap in parse_docs(args.docs, args.pages):
        row, markdown, texts = await run_document(key, generator, cap, bare, summaries)
        rows.append(row)
        print(
            f"{key}: {row.extra['seconds']:.0f} s, {row.sections} sections, decode {row.decode_tps:.1f} tokens/s, "
            f"bare loop around the sections {row.bare_tps:.1f} tokens/s after {row.extra_depth} prompt tokens",
            flush=True,
        )
        print(table([row]), flush=True)  # each document's row as soon as it is known
        if args.excerpts is not None:
            args.excerpts.mkdir(parents=True, exist_ok=True)
            (args.excerpts / f"{key}.md").write_text(markdown, encoding="utf-8")
            (args.excerpts / f"{key}.model.md").write_text(texts, encoding="utf-8")
    bare.close()
    print(table(rows))


if __name__ == "__main__":
    asyncio.run(main())

"""The time left and the bars a real daemon writes for a guide of a model that writes no summaries (the bundled
demo's way, ``[model] summaries = false``): its sections quote their passages and its plan is the document's own
chapters, so the model is asked nothing; the figures must say so, and the sections' own bar must move."""

from __future__ import annotations

import itertools
import random
import time
from dataclasses import dataclass
from pathlib import Path

from core.stored_messages import decode
from tests.daemon.worker.faults import add
from tests.daemon.worker.test_eta import JobRow, follow_document, off_the_truth
from tests.daemon.worker.workerhome import DaemonHome, run

_WORDS = str.split(
    "planta luz energia folha raiz água carbono oxigênio célula clorofila glicose semente flor fruto solo ar "
    "calor cor verde processo fase reação cadeia camada tecido caule ramo broto vento chuva rio mar terra "
    "animal inseto abelha pólen néctar forma tamanho peso massa força tempo ciclo estação verão inverno"
)


def _book(chapters: int, paragraphs: int, seed: int = 7) -> str:
    """A Markdown book of ``chapters`` chapters (``#`` headings) of ``paragraphs`` paragraphs of varied
    Portuguese-looking sentences: no two passages alike, as in a real book."""
    rng = random.Random(seed)
    syllables = ["ba", "ce", "di", "fo", "gu", "la", "me", "ni", "po", "ra", "se", "ti", "vo", "xu", "za", "ção"]
    vocabulary = _WORDS + ["".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))) for _ in range(3000)]
    weights = list(itertools.accumulate(1.0 / rank for rank in range(1, len(vocabulary) + 1)))

    def sentence() -> str:  # a real book's vocabulary: thousands of words, the n-th commonest 1/n as often as the first
        words = rng.choices(vocabulary, cum_weights=weights, k=rng.randint(8, 18))
        return " ".join(words).capitalize() + "."

    parts = []
    for number in range(1, chapters + 1):
        parts.append(f"# Capítulo {number}: {rng.choice(_WORDS)} e {rng.choice(_WORDS)}")
        parts.extend(" ".join(sentence() for _ in range(rng.randint(4, 7))) for _ in range(paragraphs))
    return "\n\n".join(parts)


@dataclass(frozen=True)
class Sample:
    """What a screen would have shown at one moment (seconds since the document was added)."""

    at: float
    shown: float | None
    stage: str
    progress: float  # the guide row's bar
    sections: float | None  # the share of the sections phase's own bar (None before the guide runs)
    quoting: bool  # the guide row says it writes a section (its key terms are found: the job has its own pace)


def _phase_fraction(progress: float, phases: list[dict] | None, name: str) -> float | None:
    """The running phase's own bar, as the details panel draws it: the row's bar within the phase's span."""
    for entry in phases or []:
        if entry.get("name") == name:
            start, end = float(entry["start"]), float(entry["end"])
            return min(max((progress - start) / (end - start), 0.0), 1.0) if end > start else 0.0
    return None


def _bars_sample(at: float, shown: float | None, ingest: JobRow, generate: JobRow | None) -> Sample:
    """The screen's figure, the stage, the guide row's bar and the sections phase's own bar."""
    stage = generate.stage if generate is not None else f"ingest {ingest.stage}"
    progress = generate.progress if generate is not None else 0.0
    sections = _phase_fraction(progress, generate.phases, "sections") if generate is not None else None
    message = decode(generate.message) if generate is not None else None
    quoting = message is not None and message.code == "writing_section"
    return Sample(at, shown, stage or "", progress, sections, quoting)


def test_a_guide_of_quotes_from_a_book_with_chapters_gets_a_time_left_near_the_truth_and_a_sections_bar_that_moves(
    home: DaemonHome, tmp_path: Path
):
    book = tmp_path / "livro.md"
    book.write_text(_book(chapters=80, paragraphs=30), encoding="utf-8")
    home.settings["model"]["summaries"] = False
    home.write_settings()
    home.start()
    began = time.monotonic()
    (ingest_id,) = add(home, book)
    samples, length = run(follow_document(home, ingest_id, began, 240, _bars_sample))

    writing = [s for s in samples if s.stage == "sections"]
    assert len(writing) >= 5, (length, [(s.at, s.stage) for s in samples])
    # The sections phase has its room on the bar, and its own bar rises while the sections are quoted.
    own = [s.sections for s in writing if s.sections is not None]
    assert len(set(own)) >= 3 and own[-1] > own[0] + 0.3, own
    assert all(b >= a for a, b in itertools.pairwise(own)), own
    # The row's bar is not full while sections are still being written.
    assert writing[0].progress < 0.9, [(s.at, s.stage, s.progress) for s in samples]
    # The screen never says more than "less than a minute" for these seconds of work, once it has a figure.
    assert all(s.shown < 60 for s in samples if s.shown is not None), [(s.at, s.stage, s.shown) for s in samples]
    # From the first quoted section on (the job's own pace measured), the time left stays near the truth; before,
    # it is the calibration's, which leans slow (docs/design/timing.md). No zero with more than two seconds left.
    quoted = next(s.at for s in writing if s.quoting)
    off = [(round(s.at, 2), s.stage, s.shown, round(r, 2)) for s, r in off_the_truth(samples, length, since=quoted)]
    assert not off, (length, off)
    assert all(s.shown for s in writing if s.shown is not None and s.at < length - 2), writing  # never 0 too soon

"""Measure the phases of real jobs and write the phase plans the progress bars use (``resources/plans/*.json``).

    .venv/bin/python bench/calibrate.py            # the full run (about 6 minutes on 2 cores), writes the plans
    .venv/bin/python bench/calibrate.py --quick    # 2 small documents, writes to a temporary folder, prints

What runs: one real daemon subprocess in embedded mode (SQLite store and queue in a temporary data folder), the
real readers and the real default model (``[model] kind = "bundled"``: SmolLM2-135M-Instruct). The calibration
corpus is the *calibration* half of a fixed split by name hash (``bench_support.held_out``; the held-out half is
what ``bench/daemon_bench.py`` measures progress honesty on):

* ``ingest`` only (``only_extract``): the test corpus's PDFs (``tests/daemon/corpus.py``, up to 700 pages) and
  real-prose text/Markdown documents of 30–320 kB (license and copyright texts of this machine);
* ``ingest`` then ``generate``: real-prose documents of 2–10 kB.

Each finished job's phase timings are read from its row (``phases[*].started_at/finished_at``) and its input size
from its document (``char_count``). Per phase: the median seconds (the phase's share of the bar) and a Theil–Sen
slope of seconds against kilochars, clamped at ≥ 0 (the phase's ``per_kilochar``), anchored at the corpus's median
size (``reference_kilochars``). Written with
``PhasePlan.dump(path, measured_on=..., documents=..., date=...)``; the fit's details are kept alongside.
``ingest`` is fitted over every document (``ingest.json``, for formats without a family plan) and again per reader
family (``ingest-pdf.json``, ``ingest-text.json``; ``core.app.timing.document_time.READER_FAMILIES``): their reading
speeds differ tenfold per character.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import platform
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_support import (
    GENERATE_SIZES,
    INGEST_SIZES,
    ROOT,
    BenchHome,
    held_out,
    open_store,
    pdf_corpus,
    text_corpus,
)

from core.app.documents.formats import document_format
from core.app.timing.document_time import reader_family
from core.progress import Phase, PhasePlan

PHASES = {"ingest": ("read", "clean", "save"), "generate": ("load_model", "outline", "sections", "export")}
PLANS_DIR = ROOT / "resources" / "plans"


def theil_sen(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """``(slope, intercept)``: the median of pairwise slopes (≥ 0) and the median of ``y − slope·x``."""
    slopes = [
        (ys[j] - ys[i]) / (xs[j] - xs[i]) for i in range(len(xs)) for j in range(i + 1, len(xs)) if xs[j] != xs[i]
    ]
    slope = max(statistics.median(slopes), 0.0) if slopes else 0.0
    intercept = statistics.median(y - slope * x for x, y in zip(xs, ys, strict=True)) if ys else 0.0
    return slope, intercept


def seconds_of(phase: dict[str, Any]) -> float | None:
    """How long a phase of a row's ``phases`` list took; ``None`` when it did not finish."""
    if not (phase.get("started_at") and phase.get("finished_at")):
        return None
    started = dt.datetime.fromisoformat(phase["started_at"])
    return (dt.datetime.fromisoformat(phase["finished_at"]) - started).total_seconds()


def fit(samples: list[tuple[float, dict[str, float]]], names: tuple[str, ...]) -> tuple[PhasePlan, dict[str, Any]]:
    """The plan from ``(kilochars, {phase: seconds})`` samples, and the fit's details per phase.

    A size-bound phase (slope > 0) gets the Theil–Sen line's value at the corpus's median size as its seconds, and
    that size as its ``reference_kilochars``; any other phase gets its median.
    """
    phases: list[Phase] = []
    details: dict[str, Any] = {}
    reference = round(statistics.median(k for k, _ in samples), 3) if samples else 0.0
    for name in names:
        pairs = [(k, phases_[name]) for k, phases_ in samples if name in phases_]
        xs, ys = [k for k, _ in pairs], [s for _, s in pairs]
        median = statistics.median(ys) if ys else 0.0
        slope, intercept = theil_sen(xs, ys)
        if slope > 0:
            phase = Phase(name, round(max(intercept + slope * reference, 0.001), 4), round(slope, 5), reference)
        else:
            phase = Phase(name, round(max(median, 0.001), 4))
        phases.append(phase)
        details[name] = {
            "n": len(ys),
            "median_seconds": round(median, 4),
            "per_kilochar": round(slope, 5),
            "theil_sen_intercept": round(intercept, 4),
            "kilochars_range": [round(min(xs), 1), round(max(xs), 1)] if xs else [],
        }
    return PhasePlan(phases), details


async def run_jobs(home: BenchHome, ingest_only: list[Path], pipeline: list[Path], timeout: float) -> list[Any]:
    """Enqueue the documents, wait for every job (the follow-up ``generate`` too), return the finished rows."""
    from core.app.documents.job_ids import generate_job_id_for

    async with open_store(home.database_url) as store:
        ids: list[uuid.UUID] = []
        for path in ingest_only:
            job = await store.enqueue("ingest", title=path.name, params={"path": str(path), "only_extract": True})
            ids.append(job.id)
        for path in pipeline:
            job = await store.enqueue("ingest", title=path.name, params={"path": str(path), "only_extract": False})
            ids += [job.id, generate_job_id_for(job.id)]
        deadline = time.monotonic() + timeout
        shown = -1
        while True:
            rows = {job.id: job for job in await store.list_recent(limit=1000)}
            ended = [rows[i] for i in ids if i in rows and rows[i].status in ("done", "failed", "cancelled")]
            if len(ended) != shown:
                shown = len(ended)
                print(f"  {shown}/{len(ids)} jobs ended", flush=True)
            if len(ended) == len(ids):
                return ended
            if time.monotonic() > deadline:
                raise TimeoutError(f"only {len(ended)} of {len(ids)} jobs ended in {timeout:.0f} s")
            await asyncio.sleep(1.0)


async def sizes_of(home: BenchHome) -> dict[uuid.UUID, tuple[str, int, int | None]]:
    """``{document id: (source name, char_count, page_count)}``."""
    from sqlalchemy import select

    from core.app.storage.schema import Document

    async with open_store(home.database_url) as store, store.db.get_session_context() as session:
        rows = (
            await session.execute(select(Document.id, Document.source_name, Document.char_count, Document.page_count))
        ).all()
    return {row[0]: (row[1], int(row[2] or 0), row[3]) for row in rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="two small documents; write to a temporary folder")
    parser.add_argument("--out", type=Path, default=None, help=f"where to write the plans (default {PLANS_DIR})")
    args = parser.parse_args()
    out: Path = args.out or (Path(tempfile.mkdtemp(prefix="studyjobs-plans-")) if args.quick else PLANS_DIR)
    out.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="studyjobs-calibrate-"))
    started = time.monotonic()
    try:
        gen_docs = [p for p in text_corpus(root / "docs", GENERATE_SIZES, prefix="gen") if not held_out(p.name)]
        big_docs = [p for p in text_corpus(root / "docs", INGEST_SIZES, prefix="big") if not held_out(p.name)]
        pdfs = [p for p in pdf_corpus() if not held_out(p.name)]
        if args.quick:
            gen_docs, big_docs, pdfs = gen_docs[:1], big_docs[:1], pdfs[:1]
        print(f"calibration corpus: {len(gen_docs)} documents for the whole pipeline (2–10 kB of real prose),")
        print(f"  {len(big_docs)} larger text documents and {len(pdfs)} PDFs extracted only")
        home = BenchHome(root / "home", {"model": {"kind": "bundled"}})
        try:
            home.start()
            rows = asyncio.run(run_jobs(home, [*pdfs, *big_docs], gen_docs, timeout=1800))
            documents = asyncio.run(sizes_of(home))
        finally:
            home.close()
        failed = [(r.title, r.kind, r.error) for r in rows if r.status != "done"]
        if failed:
            print(f"jobs that did not finish well: {failed}")
        # plan file stem ("ingest", "ingest-pdf", "generate" …; its job kind before the dash) → samples, documents
        samples: dict[str, list[tuple[float, dict[str, float]]]] = {}
        names: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            if row.status != "done":
                continue
            document_id = row.result_id if row.kind == "ingest" else uuid.UUID(str(row.params["document_id"]))
            source, chars, pages = documents[document_id]
            timings = {p["name"]: s for p in row.phases if (s := seconds_of(p)) is not None}
            total = (row.finished_at - row.started_at).total_seconds()
            stems = [row.kind]
            family = reader_family(document_format(source)) if row.kind == "ingest" else None
            if family is not None:
                stems.append(f"{row.kind}-{family}")
            for stem in stems:
                samples.setdefault(stem, []).append((chars / 1000.0, timings))
                names.setdefault(stem, []).append(
                    {"name": source, "chars": chars, "pages": pages, "job_seconds": round(total, 3)}
                )
        measured_on = (
            f"{platform.system()} {platform.machine()}, {len(__import__('os').sched_getaffinity(0))} shared cores, "
            f"Python {platform.python_version()}; embedded mode (SQLite); model SmolLM2-135M-Instruct Q4_1 (bundled)"
        )
        today = dt.date.today().isoformat()
        for stem in sorted(samples):
            kind = stem.split("-")[0]
            plan, details = fit(samples[stem], PHASES[kind])
            path = out / f"{stem}.json"
            plan.dump(
                path,
                measured_on=measured_on,
                documents=sorted(names[stem], key=lambda d: d["chars"]),
                date=today,
                command="bench/calibrate.py",
                split="calibration half: bench_support.held_out(name) is False (sha256(name)[0] >= 77)",
                fit=details,
            )
            PhasePlan.load(path)  # what the daemon will read
            print(f"\n{stem}: {len(samples[stem])} jobs → {path}")
            print(f"  {'phase':<11} {'n':>3} {'median s':>9} {'s/kilochar':>11} {'intercept s':>12} {'kilochars':>14}")
            for name, d in details.items():
                span = "–".join(f"{x:g}" for x in d["kilochars_range"])
                print(
                    f"  {name:<11} {d['n']:>3} {d['median_seconds']:>9.3f} {d['per_kilochar']:>11.4f} "
                    f"{d['theil_sen_intercept']:>12.3f} {span:>14}"
                )
        print(f"\ncalibration took {time.monotonic() - started:.0f} s")
        return 0 if not failed else 1
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())

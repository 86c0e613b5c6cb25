"""How honest is the time left? Held-out documents through a real daemon, shown ÷ actual time left.

    .venv/bin/python bench/eta_bench.py                  # about 5 minutes on 2 idle cores
    .venv/bin/python bench/eta_bench.py --write-speeds   # first measure the bundled model's speeds on documents
                                                         # of the calibration half and store them as the
                                                         # calibrated ones (resources/plans/generate-speeds.json)

What runs: for each model, a fresh data folder (nothing remembered: a new user's first jobs) and one real daemon
in embedded mode. Two held-out documents (``bench_support.held_out``; the calibration never saw them) go through
the whole pipeline one after the other: the first on a *cold* worker (its first job since it started: the model
is not loaded, no speeds are remembered), the second on the same, now *warm* worker. Models:

* the bundled SmolLM2-135M-Instruct (Q4_1) at the default thread count, as a new user runs it: it plans the
  sections of a document without chapters and writes no summaries (its sections quote key passages);
* the same network re-quantized to Q8_0 by llama.cpp's own quantizer (``llama_model_quantize``, cached under
  ``~/.cache/studyjobs/models``): a bigger file, run with a different thread count; a file outside the catalog, it
  writes every section's summary (a second try when its text fails the check).

While a document runs, its two job rows are read every 0.1 s and the time left a screen shows for the whole
document is what the window shows (``core.app.documents.pipelines.Pipelines.get``, whose ``eta`` is
``core.app.timing.document_time.document_time_left``: the same query and function as the screen). Afterwards each
sample's actual time left is known (the generate job's ``finished_at``). Printed per run: the ratio shown ÷ actual at 10
%, 25 % and 50 % of the document's duration, the worst ratio after the first 5 s, how many samples after the first 5 s
(and before the last 0.5 s) are outside 0.33–3, and the samples that said "estimating…"; then each run's worst
samples with the job, phase, counters and tokens active at each. Summary: the median ratio at 25 % (goal
0.75–1.33) and the samples outside 0.33–3 (goal: none). Every sample (time, shown, actual left, ratio, active job
and phase, tokens) is saved as JSON with each daemon's log (``--traces``, default a new folder under the temporary
folder; the path is printed), so that an outlier can be explained. ``--models bundled`` or ``--models q8_0`` runs
one model only. ``--write-speeds`` first runs the bundled model on a fresh daemon over the calibration-half
documents nearest in size to the held-out ones (cold, then warm), with summaries (``[model] summaries = true``:
the sections' speeds are what the estimate scales to every model that writes them), and writes what it measured as
the calibrated speeds; the evaluation that follows starts from those, on the held-out documents. A document not done in
``--timeout`` seconds (300) is left out, and said so: on two cores shared with other work, llama.cpp's two threads
of the second model wait for each other and a document can take ten times longer.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import datetime as dt
import json
import math
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_support import GENERATE_SIZES, ROOT, BenchHome, held_out, open_store, text_corpus

from core.app.documents.job_ids import generate_job_id_for
from core.app.documents.pipelines import Pipelines
from core.app.timing.speeds import CALIBRATED_SPEEDS_PATH, ModelKey
from core.errors import JobNotFoundError
from daemon.llm.models import bundled_model_path

CACHE = Path.home() / ".cache" / "studyjobs" / "models"
POINTS = (0.10, 0.25, 0.50)
BAND = (0.33, 3.0)
SETTLE_SECONDS = 5.0
SAMPLE_EVERY = 0.1


@dataclass
class Sample:
    """One reading of the document's rows: when (seconds since it was added), the time left shown, and what ran."""

    at: float
    shown: float | None
    job: str  # the active part's kind (``ingest`` or ``generate``)
    phase: str  # its stage (``read``, ``load_model``, ``sections``, …)
    status: str  # the document's status
    message: str  # the active part's message (its counters: "section 2 of 5")
    tokens: int | None  # the running step's tokens written (of its running try), when the model writes


@dataclass
class Run:
    """One document on one worker: what the screen would have shown, and when it really ended."""

    label: str
    samples: list[Sample] = field(default_factory=list)
    duration: float = 0.0

    def ratio_at(self, fraction: float) -> float | None:
        """Shown ÷ actual time left at ``fraction`` of the duration (the first sample at or after it)."""
        moment = fraction * self.duration
        for sample in self.samples:
            if sample.at >= moment and sample.shown is not None and self.duration - sample.at > 0:
                return sample.shown / (self.duration - sample.at)
        return None

    def settled(self) -> list[tuple[Sample, float]]:
        """``(sample, shown ÷ actual)`` for every sample with a figure after the first 5 s (and before the last
        0.5 s: nothing is left to compare with)."""
        return [
            (sample, sample.shown / (self.duration - sample.at))
            for sample in self.samples
            if sample.shown is not None and sample.at >= SETTLE_SECONDS and self.duration - sample.at >= 0.5
        ]

    def outside(self) -> list[tuple[Sample, float]]:
        """The settled samples outside 0.33–3, worst first."""
        found = [(sample, r) for sample, r in self.settled() if not BAND[0] <= r <= BAND[1]]
        return sorted(found, key=lambda item: -abs(math.log(max(item[1], 1e-6))))

    def estimating(self, after: float = 0.0) -> int:
        """The samples that said "estimating…" (from ``after`` seconds on)."""
        return sum(1 for sample in self.samples if sample.shown is None and sample.at >= after)

    def trace(self) -> dict[str, Any]:
        """Every sample with its actual time left and ratio (JSON-ready)."""
        rows = []
        for sample in self.samples:
            left = self.duration - sample.at
            ratio = sample.shown / left if sample.shown is not None and left > 0 else None
            rows.append({**asdict(sample), "actual_left": round(left, 2), "ratio": ratio})
        return {"label": self.label, "duration": self.duration, "samples": rows}


def second_model() -> Path:
    """The bundled model re-quantized to Q8_0 (made once, cached)."""
    target = CACHE / "SmolLM2-135M-Instruct.Q8_0.gguf"
    if target.is_file():
        return target
    import llama_cpp

    CACHE.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".part")
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = llama_cpp.LLAMA_FTYPE_MOSTLY_Q8_0
    params.allow_requantize = True
    params.nthread = 1
    saved = os.dup(2)  # llama.cpp lists every tensor on stderr
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
            code = llama_cpp.llama_model_quantize(
                str(bundled_model_path()).encode(), str(partial).encode(), ctypes.byref(params)
            )
    finally:
        os.dup2(saved, 2)
        os.close(saved)
    if code != 0:
        partial.unlink(missing_ok=True)
        raise RuntimeError(f"llama_model_quantize returned {code}")
    partial.replace(target)
    return target


async def follow(home: BenchHome, path: Path, label: str, timeout: float) -> Run:
    """Add ``path`` (ingest, then generate), sample its time left until the guide is written."""
    run = Run(label)
    async with open_store(home.database_url) as store:
        began = time.monotonic()
        documents = Pipelines(store)
        ingest = await store.enqueue("ingest", title=path.name, params={"path": str(path), "only_extract": False})
        generate_id = generate_job_id_for(ingest.id)
        while True:
            first = await store.get(ingest.id)
            second = await _row(store, generate_id)
            now = dt.datetime.now(dt.UTC)
            at = time.monotonic() - began
            if second is not None and second.status == "done":
                break
            for job in (first, second):
                if job is not None and job.status in ("failed", "cancelled"):
                    raise RuntimeError(f"{label}: {job.kind} job {job.status}: {job.error}")
            if first is not None and (first.status == "running" or second is not None):
                view = await documents.get(ingest.id)
                if view is not None:
                    run.samples.append(_sample(at, view))
            if at > timeout:
                raise TimeoutError(f"{label}: not done after {timeout:.0f} s")
            await asyncio.sleep(SAMPLE_EVERY)
        assert second is not None and second.finished_at is not None
        # the document's end, on the monotonic clock of the samples
        run.duration = at - (now - second.finished_at).total_seconds()
    return run


def _sample(at: float, view: Any) -> Sample:
    active = view.guide if view.guide is not None and view.root.status == "done" else view.root
    tokens = active.detail.get("tokens")
    return Sample(
        round(at, 2), view.eta, active.kind, active.stage, view.status, active.message, tokens if tokens else None
    )


async def _row(store: Any, job_id: uuid.UUID) -> Any:
    try:
        return await store.get(job_id)
    except JobNotFoundError:
        return None


def run_model(
    root: Path, name: str, model: dict[str, Any], documents: list[Path], timeout: float, traces: Path
) -> tuple[list[Run], Path]:
    """A fresh data folder and daemon for ``model``; the documents one after the other (cold, then warm).

    A document not done within ``timeout`` seconds is left out (said so); the next ones are not run. The daemon's
    log is kept as ``traces/<name>-daemon.log``.
    """
    home = BenchHome(root / name, {"model": model})
    runs: list[Run] = []
    try:
        home.start()
        for i, path in enumerate(documents):
            label = f"{name} {'cold' if i == 0 else 'warm'} {path.name}"
            try:
                runs.append(asyncio.run(follow(home, path, label, timeout=timeout)))
            except TimeoutError:
                print(f"  {label}: not done after {timeout:.0f} s; left out", flush=True)
                break
            print("  " + line(runs[-1]), flush=True)
    finally:
        home.close()
        if home.log_file.is_file():
            traces.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(home.log_file, traces / f"{name}-daemon.log")
    return runs, home.data_dir / "speeds.json"


HEADER = (
    f"{'run':<34} {'length s':>8} "
    + " ".join(f"{f'{p:.0%}':>6}" for p in POINTS)
    + f"  {'worst':>6}  {'outside':>11}  estimating"
)


def line(run: Run) -> str:
    """One run's row: its length, shown ÷ actual at each point, the worst ratio after the first 5 s, the samples
    outside 0.33–3 of those after 5 s, and the samples that said "estimating…" (after 5 s / in all)."""
    ratios = [run.ratio_at(p) for p in POINTS]
    outside = run.outside()
    settled = run.settled()
    worst = outside[0][1] if outside else max((r for _s, r in settled), key=_distance, default=None)
    counted = f"{len(outside)}/{len(settled)}"
    return (
        f"{run.label:<34} {run.duration:8.1f} "
        + " ".join(fmt(r) for r in ratios)
        + f"  {fmt(worst)}  {counted:>11}  {run.estimating(SETTLE_SECONDS)}/{run.estimating()}"
    )


def _distance(ratio: float) -> float:
    return abs(math.log(max(ratio, 1e-6)))


def worst_lines(run: Run, count: int = 5) -> list[str]:
    """The ``count`` worst samples outside the band: when, shown, actual, and what was running."""
    lines = []
    for sample, ratio in run.outside()[:count]:
        left = run.duration - sample.at
        shown = fmt(sample.shown).strip()
        lines.append(
            f"    {ratio:7.2f} at {sample.at:6.1f} s: shown {shown} s, actual {left:.1f} s left; "
            f"{sample.job}/{sample.phase} ({sample.message}, tokens {sample.tokens})"
        )
    return lines


def fmt(value: float | None) -> str:
    return "   —  " if value is None else f"{value:6.2f}"


def report(runs: list[Run]) -> bool:
    """Print the table, each run's worst samples and the summary; ``True`` when both goals are met."""
    print(f"\n{HEADER}")
    for run in runs:
        print(line(run))
    at_25 = [r for r in (run.ratio_at(0.25) for run in runs) if r is not None]
    outside = sum(len(run.outside()) for run in runs)
    checked = sum(len(run.settled()) for run in runs)
    for run in runs:
        if run.outside():
            print(f"\n{run.label}: the worst samples outside {BAND[0]}–{BAND[1]:g}")
            print("\n".join(worst_lines(run)))
    median = statistics.median(at_25) if at_25 else float("nan")
    print(f"\nmedian shown ÷ actual at 25 %: {median:.2f} (goal 0.75–1.33)")
    print(f"samples after the first {SETTLE_SECONDS:g} s outside {BAND[0]}–{BAND[1]:g}: {outside} of {checked}")
    return 0.75 <= median <= 1.33 and not outside


def save_traces(runs: list[Run], folder: Path) -> Path:
    """Write every run's samples (time, shown, actual left, ratio, active job and phase) to ``folder/traces.json``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "traces.json"
    path.write_text(json.dumps([run.trace() for run in runs], indent=1) + "\n", encoding="utf-8")
    return path


def calibration_documents(corpus: list[Path], held: list[Path]) -> list[Path]:
    """For each held-out document, the calibration-half document nearest to it in size (the larger on a tie):
    speeds measured on text like the evaluated documents, never on them."""
    pool = [p for p in corpus if not held_out(p.name)]
    chosen: list[Path] = []
    for document in held:
        size = document.stat().st_size
        nearest = min(pool, key=lambda p: (abs(p.stat().st_size - size), -p.stat().st_size))
        pool.remove(nearest)
        chosen.append(nearest)
    return chosen


def write_speeds(speeds_file: Path, threads: int, documents: list[Path]) -> None:
    """Store the bundled model's speeds measured on ``documents`` (cold, then warm) as the calibrated ones."""
    key = str(ModelKey.of(bundled_model_path(), threads))
    entry = json.loads(speeds_file.read_text(encoding="utf-8"))["models"][key]
    cores = len(os.sched_getaffinity(0))
    data = {
        "measured_on": f"{platform.system()} {platform.machine()}, {cores} shared cores, Python "
        f"{platform.python_version()}; model SmolLM2-135M-Instruct Q4_1 (bundled), {threads} thread(s)",
        "command": "bench/eta_bench.py --write-speeds",
        "documents": [p.name for p in documents],
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%MZ"),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "model_bytes": bundled_model_path().stat().st_size,
        "n_threads": threads,
        "speeds": {k: v for k, v in entry.items() if k != "jobs"},
    }
    CALIBRATED_SPEEDS_PATH.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {CALIBRATED_SPEEDS_PATH.relative_to(ROOT)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--write-speeds",
        action="store_true",
        help="first measure the bundled model's speeds on calibration-half documents and store them",
    )
    parser.add_argument("--threads", type=int, default=2, help="threads for the second model (default 2)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds a document may take (default 300)")
    parser.add_argument(
        "--models", default="bundled,q8_0", help="which models to run, comma-separated (default bundled,q8_0)"
    )
    parser.add_argument("--traces", type=Path, help="folder for the traces (default: a new one under the temp folder)")
    args = parser.parse_args()
    models = set(args.models.split(","))
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    traces = args.traces or Path(tempfile.gettempdir()) / f"studyjobs-eta-traces-{stamp}"
    from daemon.llm.local_model import default_n_threads

    root = Path(tempfile.mkdtemp(prefix="studyjobs-eta-"))
    started = time.monotonic()
    try:
        corpus = text_corpus(root / "docs", GENERATE_SIZES, prefix="gen")
        documents = sorted((p for p in corpus if held_out(p.name)), key=lambda p: p.stat().st_size)[:2]
        q8 = second_model()
        bundled_threads = default_n_threads()
        print(f"documents (held out): {', '.join(p.name for p in documents)}")
        size = bundled_model_path().stat().st_size / 1e6
        print(f"models: bundled Q4_1 ({size:.0f} MB, {bundled_threads} thread(s));")
        print(f"        Q8_0 re-quantized ({q8.stat().st_size / 1e6:.0f} MB, {args.threads} thread(s))")
        runs: list[Run] = []
        if args.write_speeds:
            measured = calibration_documents(corpus, documents)
            print(f"speeds measured on (calibration half): {', '.join(p.name for p in measured)}")
            writing = {"kind": "bundled", "summaries": True}  # the sections' speeds scale to models that write them
            _runs, speeds_file = run_model(root, "speeds", writing, measured, args.timeout, traces)
            write_speeds(speeds_file, bundled_threads, measured)
        if "bundled" in models:
            runs, _ = run_model(root, "bundled", {"kind": "bundled"}, documents, args.timeout, traces)
        if "q8_0" in models:
            second = {"kind": "gguf", "gguf_path": str(q8), "n_threads": args.threads}
            more, _ = run_model(root, "q8_0", second, documents, args.timeout, traces)
            runs += more
        ok = report(runs)
        print(f"\ntraces (every sample, and each daemon's log): {save_traces(runs, traces)}")
        cores = len(os.sched_getaffinity(0))
        print(f"\n{platform.system()} {platform.machine()}, {cores} cores, Python {platform.python_version()}")
        print(f"bench took {time.monotonic() - started:.0f} s")
        return 0 if ok else 1
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())

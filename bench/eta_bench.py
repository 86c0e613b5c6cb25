"""How honest is the time left? Held-out documents through a real daemon, shown ÷ actual time left.

    .venv/bin/python bench/eta_bench.py                  # about 5 minutes on 2 idle cores
    .venv/bin/python bench/eta_bench.py --write-speeds   # also store the bundled model's measured speeds as the
                                                         # calibrated ones (resources/plans/generate-speeds.json)

What runs: for each model, a fresh data folder (nothing remembered: a new user's first jobs) and one real daemon
in embedded mode. Two held-out documents (``bench_support.held_out``; the calibration never saw them) go through
the whole pipeline one after the other: the first on a *cold* worker (its first job since it started: the model
is not loaded, no speeds are remembered), the second on the same, now *warm* worker. Models:

* the bundled SmolLM2-135M-Instruct (Q4_1) at the default thread count;
* the same network re-quantized to Q8_0 by llama.cpp's own quantizer (``llama_model_quantize``, cached under
  ``~/.cache/studyjobs/models``): a bigger file, run with a different thread count.

While a document runs, its two job rows are read every 0.1 s and the time left a screen shows for the whole
document is what the window shows (``core.pipelines.Pipelines.get``, whose ``eta`` is
``core.pipeline_view.document_time_left``: the same query and function as the screen). Afterwards each sample's actual
time left is known (the generate job's ``finished_at``). Printed per run: the ratio shown ÷ actual at 10 %, 25 %
and 50 % of the document's duration, the samples that said "estimating…", and the worst ratio after the first
5 s. Summary: the median ratio at 25 % (goal 0.75–1.33) and whether any sample after the first 5 s is outside
0.33–3. A document not done in ``--timeout`` seconds (300) is left out, and said so: on two cores shared with
other work, llama.cpp's two threads of the second model wait for each other and a document can take ten times
longer.
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_support import GENERATE_SIZES, ROOT, BenchHome, held_out, open_store, text_corpus

from core.errors import JobNotFoundError
from core.job_ids import generate_job_id_for
from core.pipelines import Pipelines
from daemon.llm.models import bundled_model_path
from daemon.speeds import CALIBRATED_SPEEDS_PATH, ModelKey

CACHE = Path.home() / ".cache" / "studyjobs" / "models"
POINTS = (0.10, 0.25, 0.50)
SETTLE_SECONDS = 5.0
SAMPLE_EVERY = 0.1


@dataclass
class Run:
    """One document on one worker: what the screen would have shown, and when it really ended."""

    label: str
    samples: list[tuple[float, float | None]] = field(default_factory=list)  # (seconds since added, shown)
    duration: float = 0.0

    def ratio_at(self, fraction: float) -> float | None:
        """Shown ÷ actual time left at ``fraction`` of the duration (the first sample at or after it)."""
        moment = fraction * self.duration
        for at, shown in self.samples:
            if at >= moment and shown is not None and self.duration - at > 0:
                return shown / (self.duration - at)
        return None

    def settled(self) -> list[tuple[float, float]]:
        """``(actual seconds left, shown ÷ actual)`` for every sample after the first 5 s (and before the last
        0.5 s: nothing is left to compare with)."""
        return [
            (self.duration - at, shown / (self.duration - at))
            for at, shown in self.samples
            if shown is not None and at >= SETTLE_SECONDS and self.duration - at >= 0.5
        ]

    def estimating(self) -> int:
        return sum(1 for _, shown in self.samples if shown is None)


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
                run.samples.append((at, view.eta if view is not None else None))
            if at > timeout:
                raise TimeoutError(f"{label}: not done after {timeout:.0f} s")
            await asyncio.sleep(SAMPLE_EVERY)
        assert second is not None and second.finished_at is not None
        # the document's end, on the monotonic clock of the samples
        run.duration = at - (now - second.finished_at).total_seconds()
    return run


async def _row(store: Any, job_id: uuid.UUID) -> Any:
    try:
        return await store.get(job_id)
    except JobNotFoundError:
        return None


def run_model(
    root: Path, name: str, model: dict[str, Any], documents: list[Path], timeout: float
) -> tuple[list[Run], Path]:
    """A fresh data folder and daemon for ``model``; the documents one after the other (cold, then warm).

    A document not done within ``timeout`` seconds is left out (said so); the next ones are not run.
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
    return runs, home.data_dir / "speeds.json"


HEADER = f"{'run':<48} {'length s':>8} " + " ".join(f"{f'{p:.0%}':>6}" for p in POINTS) + "  estimating  worst"


def line(run: Run) -> str:
    """One run's row: its length, shown ÷ actual at each point, the "estimating…" samples, the worst ratio."""
    ratios = [run.ratio_at(p) for p in POINTS]
    worst = max((r for _left, r in run.settled()), key=lambda r: abs(math.log(max(r, 1e-6))), default=None)
    return (
        f"{run.label:<48} {run.duration:8.1f} "
        + " ".join(fmt(r) for r in ratios)
        + f"  {run.estimating():>5}/{len(run.samples):<5} {fmt(worst)}"
    )


def fmt(value: float | None) -> str:
    return "   —  " if value is None else f"{value:6.2f}"


def report(runs: list[Run]) -> bool:
    """Print the table and the summary; ``True`` when both goals are met."""
    print(f"\n{HEADER}")
    at_25: list[float] = []
    outside: list[tuple[str, float, float]] = []
    checked = 0
    for run in runs:
        print(line(run))
        checked += len(run.settled())
        quarter = run.ratio_at(0.25)
        if quarter is not None:
            at_25.append(quarter)
        outside += [(run.label, left, r) for left, r in run.settled() if not 0.33 <= r <= 3.0]
    median = statistics.median(at_25) if at_25 else float("nan")
    print(f"\nmedian shown ÷ actual at 25 %: {median:.2f} (goal 0.75–1.33)")
    print(f"samples after the first {SETTLE_SECONDS:g} s outside 0.33–3: {len(outside)} of {checked}")
    tail = [o for o in outside if o[1] < SETTLE_SECONDS]
    print(f"  of which with less than {SETTLE_SECONDS:g} s really left (the last section ended early): {len(tail)}")
    if outside:
        label, left, ratio = max(outside, key=lambda o: abs(math.log(max(o[2], 1e-6))))
        print(f"  worst: {ratio:.2f} in {label}, {left:.1f} s before the end")
    return 0.75 <= median <= 1.33 and not outside


def write_speeds(speeds_file: Path, threads: int) -> None:
    """Store the bundled model's speeds measured by this run as the calibrated ones."""
    key = str(ModelKey.of(bundled_model_path(), threads))
    entry = json.loads(speeds_file.read_text(encoding="utf-8"))["models"][key]
    cores = len(os.sched_getaffinity(0))
    data = {
        "measured_on": f"{platform.system()} {platform.machine()}, {cores} shared cores, Python "
        f"{platform.python_version()}; model SmolLM2-135M-Instruct Q4_1 (bundled), {threads} thread(s)",
        "command": "bench/eta_bench.py --write-speeds",
        "date": dt.date.today().isoformat(),
        "model_bytes": bundled_model_path().stat().st_size,
        "n_threads": threads,
        "speeds": {k: v for k, v in entry.items() if k != "jobs"},
    }
    CALIBRATED_SPEEDS_PATH.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {CALIBRATED_SPEEDS_PATH.relative_to(ROOT)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write-speeds", action="store_true", help="store the bundled model's measured speeds")
    parser.add_argument("--threads", type=int, default=2, help="threads for the second model (default 2)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds a document may take (default 300)")
    args = parser.parse_args()
    from daemon.llm.local_model import default_n_threads

    root = Path(tempfile.mkdtemp(prefix="studyjobs-eta-"))
    started = time.monotonic()
    try:
        held = [p for p in text_corpus(root / "docs", GENERATE_SIZES, prefix="gen") if held_out(p.name)]
        documents = sorted(held, key=lambda p: p.stat().st_size)[:2]
        q8 = second_model()
        bundled_threads = default_n_threads()
        print(f"documents (held out): {', '.join(p.name for p in documents)}")
        size = bundled_model_path().stat().st_size / 1e6
        print(f"models: bundled Q4_1 ({size:.0f} MB, {bundled_threads} thread(s));")
        print(f"        Q8_0 re-quantized ({q8.stat().st_size / 1e6:.0f} MB, {args.threads} thread(s))")
        runs, speeds_file = run_model(root, "bundled", {"kind": "bundled"}, documents, args.timeout)
        if args.write_speeds:
            write_speeds(speeds_file, bundled_threads)
        second = {"kind": "gguf", "gguf_path": str(q8), "n_threads": args.threads}
        more, _ = run_model(root, "q8_0", second, documents, args.timeout)
        runs += more
        ok = report(runs)
        cores = len(os.sched_getaffinity(0))
        print(f"\n{platform.system()} {platform.machine()}, {cores} cores, Python {platform.python_version()}")
        print(f"bench took {time.monotonic() - started:.0f} s")
        return 0 if ok else 1
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())

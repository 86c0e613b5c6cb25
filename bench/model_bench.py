"""Model downloads and the RAM estimate: our downloader vs ``curl`` from the same loopback hub, the bytes fetched
again after an interruption, and :func:`core.app.models.catalog.ram_needed` vs the RSS llama.cpp really takes.

    .venv/bin/python bench/model_bench.py            # about 10 minutes on 2 quiet cores (filling 8,192 tokens)
    .venv/bin/python bench/model_bench.py --mb 200 --rounds 5 --contexts 2048 8192

What runs: a :class:`devkit.loopback_hub.FakeHub` serves a file of ``--mb`` MiB (the suite's tiny GGUF padded
with random bytes) as the hub does (a ``HEAD`` with the LFS headers, a redirect, ``Range``/``ETag``), from a process
of its own (``python -m devkit.loopback_hub``): the real hub is another machine, and a server sharing the
measured downloader's interpreter would take its CPU time and its GIL. Per round, alternately: ``curl -sSL -o
<file>`` of the same address, and :func:`daemon.downloads.engine.fetch_file` (the download phase, no checksum) into
a fresh models folder; the median of each gives the throughput ratio (goal ≥ 0.9), and the client CPU time per byte
of each (``curl``'s from ``RUSAGE_CHILDREN``, ours from the thread's clock). Then one full download (fetch + sha256 +
rename) whose connection an in-process hub drops halfway: the bytes fetched again are the bytes received beyond the
file's size (goal ≤ 1 MiB). Last, for every model that loads here (the bundled SmolLM2, its Q8_0 re-quantization,
the suite's tiny GGUF) at each ``--contexts`` size: the RAM estimate against the RSS growth of a fresh process right
after loading and after filling its context (:func:`devkit.memory_probe.measure_rss`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.app.models.catalog import ram_needed  # noqa: E402
from core.app.models.fit import DAEMON_N_BATCH, read_gguf_shape  # noqa: E402
from daemon.downloads.engine import download_file, fetch_file  # noqa: E402
from daemon.downloads.hub import HubFile, file_url  # noqa: E402
from daemon.llm.models import bundled_model_path  # noqa: E402
from devkit.loopback_hub import FakeHub  # noqa: E402
from devkit.memory_probe import measure_rss  # noqa: E402
from devkit.tiny_gguf import requantize, write_tiny_model  # noqa: E402

REPO, NAME = "bench/padded-GGUF", "padded.gguf"
MIB = 1 << 20


def _padded_file(folder: Path, mib: int) -> Path:
    path = folder / NAME
    write_tiny_model(path)
    with path.open("ab") as out:
        while path.stat().st_size < mib * MIB:
            out.write(os.urandom(4 * MIB))
            out.flush()
    return path


def _curl(url: str, target: Path) -> float:
    started = time.perf_counter()
    subprocess.run(["curl", "-sSL", "-o", str(target), url], check=True)
    return time.perf_counter() - started


def _ours(hub_url: str, folder: Path) -> tuple[float, float]:
    started, cpu = time.perf_counter(), time.thread_time()
    fetched = fetch_file(HubFile(REPO, "main", NAME), hub_url=hub_url, models_dir=folder, stop_event=threading.Event())
    seconds, cpu = time.perf_counter() - started, time.thread_time() - cpu
    fetched.part.unlink()
    return seconds, cpu


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@contextlib.contextmanager
def _hub_process(source: Path) -> Iterator[str]:
    """The hub in a process of its own, as the real hub is: the downloader measured shares no interpreter with it."""
    command = [sys.executable, "-m", "devkit.loopback_hub", f"{REPO}/{NAME}={source}"]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert process.stdout is not None
        yield process.stdout.readline().strip()
    finally:
        process.kill()
        process.wait(10)


def throughput(source: Path, size: int, rounds: int, work: Path) -> None:
    with _hub_process(source) as hub_url:
        url = file_url(hub_url, REPO, "main", NAME)
        curl_runs, our_runs = [], []
        for index in range(rounds):
            cpu = _children_cpu()
            seconds = _curl(url, work / "curl.out")
            curl_runs.append((seconds, _children_cpu() - cpu))
            (work / "curl.out").unlink()
            our_runs.append(_ours(hub_url, work / f"models-{index}"))
    curl_rate = size / statistics.median(run[0] for run in curl_runs) / 1e6
    our_rate = size / statistics.median(run[0] for run in our_runs) / 1e6
    curl_cpu = statistics.median(run[1] for run in curl_runs) / size * 1e9
    our_cpu = statistics.median(run[1] for run in our_runs) / size * 1e9
    print(f"download of {size / MIB:.0f} MiB, median of {rounds}: curl {curl_rate:.0f} MB/s, ours {our_rate:.0f} MB/s")
    print(f"  ratio ours / curl = {our_rate / curl_rate:.2f} (goal >= 0.9)")
    print(f"  client CPU per byte: curl {curl_cpu:.2f} ns, ours {our_cpu:.2f} ns")
    print(f"  seconds: curl {[round(r[0], 2) for r in curl_runs]}, ours {[round(r[0], 2) for r in our_runs]}")


def interruption(hub: FakeHub, size: int, work: Path) -> None:
    hub.faults.drop_after = size // 2
    started = time.perf_counter()
    result = download_file(
        HubFile(REPO, "main", NAME), hub_url=hub.url, models_dir=work / "resume", stop_event=threading.Event()
    )
    seconds = time.perf_counter() - started
    again = result.fetched - size
    print(
        f"dropped halfway: fetched again {again} bytes ({again / MIB:.3f} MiB, goal <= 1 MiB); whole download "
        f"with sha256 and rename {seconds:.1f} s"
    )


def ram(work: Path, contexts: tuple[int, ...]) -> None:
    """The estimate against the RSS a fresh process grows by, for every model that loads here."""
    bundled = bundled_model_path()
    models = [
        ("SmolLM2-135M Q4_1 (bundled)", bundled),
        ("SmolLM2-135M Q8_0 (re-quantized)", requantize(bundled, work / "smollm2-q8_0.gguf")),
        ("tiny GGUF (the suite's)", write_tiny_model(work / "tiny.gguf")),
    ]
    print(f"RAM estimate vs RSS growth of a fresh process (micro-batch {DAEMON_N_BATCH}, as the daemon loads):")
    print("  model | n_ctx | estimate | RSS after load | RSS after filling the context | estimate / filled")
    for name, path in models:
        shape = read_gguf_shape(path)
        for n_ctx in contexts:
            estimate = ram_needed(shape.weights_bytes, shape.architecture, n_ctx, DAEMON_N_BATCH)
            measured = measure_rss(path, n_ctx, n_batch=DAEMON_N_BATCH, n_threads=os.cpu_count() or 1)
            print(
                f"  {name} | {n_ctx} | {estimate / 1e6:.0f} MB | {measured.loaded / 1e6:.0f} MB | "
                f"{measured.full / 1e6:.0f} MB | {estimate / measured.full:.2f}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--contexts", type=int, nargs="+", default=[2048, 8192])
    args = parser.parse_args()
    print(f"machine: {platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    with tempfile.TemporaryDirectory(prefix="model-bench-") as temp:
        work = Path(temp)
        source = _padded_file(work, args.mb)
        size = source.stat().st_size
        throughput(source, size, args.rounds, work)
        with FakeHub({f"{REPO}/{NAME}": source}) as hub:
            hub.sha256(f"{REPO}/{NAME}")
            interruption(hub, size, work)
        shutil.rmtree(work / "resume", ignore_errors=True)
        ram(work, tuple(args.contexts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Benchmarks of the message broker: Dramatiq's Redis broker as the daemon configures it. Prints its figures.

The embedded queue is the job table itself (``daemon/brokers/jobs.py``): it carries no free messages, so its figures
are the daemon's, measured end to end by ``bench/daemon_bench.py``.

    .venv/bin/python bench/broker_bench.py            # the full run
    .venv/bin/python bench/broker_bench.py --quick    # small sizes, to check that it still runs

Measures (Redis on 127.0.0.1:6379 in a namespace of its own, deleted afterwards; ``STUDYJOBS_BENCH_REDIS_URL`` points
elsewhere):
1. Raw throughput: one thread enqueues N messages while a consumer (prefetch 8) consumes and acks them: msgs/s from
   the first enqueue to the last ack.
2. Worker throughput: N messages through a real ``dramatiq.Worker`` (4 threads) running a no-op actor: msgs/s.
3. Pick-up latency, enqueue → the consumer holds the message, one message every 30 ms to a waiting consumer:
   p50/p95 when the sender is in the same process, and when it is another process.
4. The same from another process with one message every 500 ms (the daemon's real life: jobs arrive rarely).
   The consumer waits with Dramatiq's default worker timeout (1,000 ms); Dramatiq's Redis consumer polls with a
   backoff that grows up to that timeout while the queue stays empty, so its sparse latency is much higher.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import dramatiq
import redis
from dramatiq.broker import Broker
from dramatiq.message import Message

from daemon.brokers import create_broker

REDIS_URL = os.environ.get("STUDYJOBS_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
WORKER_TIMEOUT_MS = 1000
SPACING = 0.03
SPARSE_SPACING = 0.5


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def message(queue: str, *args: Any) -> Message[Any]:
    return Message(queue_name=queue, actor_name="noop", args=args, kwargs={}, options={})


@contextmanager
def opened(kind: str, folder: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """The URL and options of a fresh Redis namespace (``kind``), deleted afterwards."""
    namespace = f"sjbench-{uuid.uuid4().hex[:8]}"
    try:
        yield REDIS_URL, {"namespace": namespace}
    finally:
        client = redis.Redis.from_url(REDIS_URL)
        keys = list(client.scan_iter(match=f"{namespace}:*", count=1000))
        if keys:
            client.delete(*keys)
        client.close()


def close(broker: Broker) -> None:
    broker.close()
    client = getattr(broker, "client", None)
    if client is not None:
        client.close()


def raw_throughput(url: str, options: dict[str, Any], count: int) -> float:
    broker = create_broker(url, middleware=[], **options)
    queue = f"raw{uuid.uuid4().hex[:6]}"
    broker.declare_queue(queue)
    done = threading.Event()

    def consume() -> None:
        consumer = broker.consume(queue, prefetch=8, timeout=100)
        received = 0
        while received < count:
            item = next(consumer)
            if item is not None:
                consumer.ack(item)
                received += 1
        consumer.close()
        done.set()

    thread = threading.Thread(target=consume)
    thread.start()
    started = time.perf_counter()
    for number in range(count):
        broker.enqueue(message(queue, number))
    done.wait()
    elapsed = time.perf_counter() - started
    thread.join()
    close(broker)
    return count / elapsed


def worker_throughput(url: str, options: dict[str, Any], count: int) -> float:
    broker = create_broker(url, **options)
    queue = f"work{uuid.uuid4().hex[:6]}"
    ran = [0]
    lock = threading.Lock()

    @dramatiq.actor(broker=broker, queue_name=queue, actor_name=f"{queue}_noop")
    def noop(number: int) -> None:
        with lock:
            ran[0] += 1

    worker = dramatiq.Worker(broker, worker_threads=4, worker_timeout=100)
    worker.start()
    try:
        started = time.perf_counter()
        for number in range(count):
            noop.send(number)
        while ran[0] < count:
            time.sleep(0.001)
        elapsed = time.perf_counter() - started
    finally:
        worker.stop()
        close(broker)
    return count / elapsed


def latency(url: str, options: dict[str, Any], count: int, *, cross_process: bool, spacing: float) -> list[float]:
    """Seconds from enqueue to delivery, one message every ``spacing`` s to a consumer that waits in ``next()``."""
    broker = create_broker(url, middleware=[], **options)
    queue = f"lat{uuid.uuid4().hex[:6]}"
    broker.declare_queue(queue)
    samples: list[float] = []
    ready = threading.Event()

    def consume() -> None:
        consumer = broker.consume(queue, prefetch=1, timeout=WORKER_TIMEOUT_MS)
        ready.set()
        while len(samples) < count:
            item = next(consumer)
            if item is not None:
                samples.append(time.time() - item.args[0])
                consumer.ack(item)
        consumer.close()

    thread = threading.Thread(target=consume)
    thread.start()
    ready.wait()
    time.sleep(0.2)  # let the consumer settle into its idle wait
    if cross_process:
        send_from_child(url, options, queue, count, spacing)
    else:
        for _ in range(count):
            broker.enqueue(message(queue, time.time()))
            time.sleep(spacing)
    thread.join()
    close(broker)
    return samples


def send_from_child(url: str, options: dict[str, Any], queue: str, count: int, spacing: float) -> None:
    namespace = str(options.get("namespace", ""))
    command = [sys.executable, __file__, "--send", url, queue, str(count), namespace, str(spacing)]
    subprocess.run(command, check=True, timeout=600)


def child_send(url: str, queue: str, count: int, namespace: str, spacing: float) -> None:
    options = {"namespace": namespace} if namespace else {}
    broker = create_broker(url, middleware=[], **options)
    for _ in range(count):
        broker.enqueue(message(queue, time.time()))
        time.sleep(spacing)
    close(broker)


def measure(kind: str, folder: Path, sizes: dict[str, int]) -> dict[str, float]:
    figures: dict[str, float] = {}
    runs: list[tuple[str, Callable[[str, dict[str, Any]], Any]]] = [
        ("raw", lambda url, options: raw_throughput(url, options, sizes["throughput"])),
        ("worker", lambda url, options: worker_throughput(url, options, sizes["throughput"])),
        ("local", lambda url, o: latency(url, o, sizes["latency"], cross_process=False, spacing=SPACING)),
        ("remote", lambda url, o: latency(url, o, sizes["latency"], cross_process=True, spacing=SPACING)),
        ("sparse", lambda url, o: latency(url, o, sizes["sparse"], cross_process=True, spacing=SPARSE_SPACING)),
    ]
    for name, run in runs:
        with opened(kind, folder) as (url, options):
            result = run(url, options)
        if isinstance(result, list):
            figures[f"{name}_p50"] = percentile(result, 0.5) * 1000
            figures[f"{name}_p95"] = percentile(result, 0.95) * 1000
        else:
            figures[name] = result
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, to check that it still runs")
    hidden = {"nargs": 5, "metavar": ("URL", "QUEUE", "N", "NAMESPACE", "SPACING"), "help": argparse.SUPPRESS}
    parser.add_argument("--send", **hidden)
    arguments = parser.parse_args()
    if arguments.send:
        url, queue, count, namespace, spacing = arguments.send
        child_send(url, queue, int(count), namespace, float(spacing))
        return
    sizes = (
        {"throughput": 300, "latency": 30, "sparse": 4}
        if arguments.quick
        else {"throughput": 3000, "latency": 200, "sparse": 20}
    )
    print(f"broker benchmark: {sizes['throughput']} messages for throughput, {sizes['latency']} for latency")
    print(f"python {sys.version.split()[0]}, dramatiq {dramatiq.__version__}, {os.cpu_count()} cores\n")
    with tempfile.TemporaryDirectory() as folder:
        results = {kind: measure(kind, Path(folder), sizes) for kind in ("redis",)}
    header = (
        f"{'broker':<8}{'raw msgs/s':>11}{'worker msgs/s':>14}"
        f"{'same-process ms':>17}{'cross-process ms':>18}{'sparse cross ms':>17}"
    )
    print(header)
    print(f"{'':<8}{'':>11}{'':>14}{'p50 / p95':>17}{'p50 / p95':>18}{'p50 / p95':>17}")
    print("-" * len(header))
    for kind, f in results.items():
        cells = [f"{f[f'{name}_p50']:.1f} / {f[f'{name}_p95']:.1f}" for name in ("local", "remote", "sparse")]
        print(f"{kind:<8}{f['raw']:>11.0f}{f['worker']:>14.0f}{cells[0]:>17}{cells[1]:>18}{cells[2]:>17}")
    print(
        f"\nlatency: a message every {SPACING * 1000:.0f} ms (sparse: every {SPARSE_SPACING * 1000:.0f} ms)"
        f" to a waiting consumer (timeout {WORKER_TIMEOUT_MS} ms, Dramatiq's worker default)"
    )


if __name__ == "__main__":
    main()

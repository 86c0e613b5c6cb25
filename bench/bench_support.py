"""Shared helpers of ``bench/calibrate.py`` and ``bench/daemon_bench.py``: data folders, real daemons, corpora.

A :class:`BenchHome` is a temporary data folder with a ``settings.toml``; :meth:`BenchHome.start` runs a real
daemon subprocess on it. The daemon is started through this file (``python bench/bench_support.py worker``),
which calls the real :func:`daemon.process.run_daemon` after declaring one benchmark-only actor, ``noop``: a job
that goes through the same claim → :func:`daemon.jobs.context.run_job` → ``succeed`` path as ``ingest`` and
``generate``, with a handler that returns ``None``. Nothing in ``daemon/`` is changed: the actor is added to the
broker and to :data:`daemon.actors.ACTORS` of that one process, so the supervisor dispatches ``noop`` rows too.

Also here: the real-text corpus (license and copyright texts on this machine, PDFs of the test corpus), the fixed
calibration / held-out split, the temporary PostgreSQL database and the Redis namespace, and the peers' workers
(Procrastinate, Huey), each runnable as ``python bench/bench_support.py <role>``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PYTHON = sys.executable
PG_ADMIN_DSN = os.environ.get("STUDYJOBS_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("STUDYJOBS_BENCH_REDIS", "redis://127.0.0.1:6379/0")
NOOP_KIND = "noop"


# -- data folders and daemons --------------------------------------------------------------------------------


class BenchHome:
    """A data folder with its ``settings.toml``, and the daemon processes started on it (stopped by ``close``).

    Args:
        root: An empty folder (the data folder, the guides and the logs go below it).
        settings: Top-level settings merged over the benchmark's defaults (``output_dir``, ``language``).
    """

    def __init__(self, root: Path, settings: dict[str, Any]) -> None:
        import tomli_w

        self.root = root
        self.data_dir = root / "data"
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.settings: dict[str, Any] = {"output_dir": str(root / "guides"), "language": "en", **settings}
        (self.data_dir / "settings.toml").write_text(tomli_w.dumps(self.settings), encoding="utf-8")
        self.processes: list[subprocess.Popen[bytes]] = []

    @property
    def database_url(self) -> str:
        """The job store's URL (the embedded SQLite file unless the settings name one)."""
        return str(self.settings.get("database_url") or f"sqlite+aiosqlite:///{self.data_dir / 'studyjobs.db'}")

    @property
    def broker_url(self) -> str:
        """The broker's URL (the embedded queue in the store's file unless the settings name one)."""
        return str(self.settings.get("broker_url") or f"sqlite:///{self.data_dir / 'studyjobs.db'}")

    @property
    def log_file(self) -> Path:
        """The daemon's log (``<data folder>/logs/daemon.log`` when ``STUDYJOBS_DATA_DIR`` is set)."""
        return self.data_dir / "logs" / "daemon.log"

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("STUDYJOBS_")}
        env.update({"STUDYJOBS_DATA_DIR": str(self.data_dir), "PYTHONPATH": str(ROOT), **extra})
        return env

    def start(self, *, namespace: str | None = None, timeout: float = 60.0) -> subprocess.Popen[bytes]:
        """Start a daemon (with the ``noop`` actor) and wait until its worker row exists."""
        return asyncio.run(self.start_async(namespace=namespace, timeout=timeout))

    async def start_async(
        self, *, namespace: str | None = None, worker_timeout_ms: int | None = None, timeout: float = 60.0
    ) -> subprocess.Popen[bytes]:
        """:meth:`start` from a coroutine. ``worker_timeout_ms``: an experiment, not the shipped daemon (Dramatiq's
        ``worker_timeout``, which caps the Redis consumer's polling back-off; the daemon uses 20 ms with Redis and
        100 ms with the embedded queue, whose consumer is woken instead)."""
        extra = {"BENCH_REDIS_NAMESPACE": namespace} if namespace else {}
        if worker_timeout_ms is not None:
            extra["BENCH_WORKER_TIMEOUT_MS"] = str(worker_timeout_ms)
        process = spawn("worker", env=self.env(**extra))
        self.processes.append(process)
        await _wait_worker(self.database_url, process, timeout)
        return process

    def close(self) -> None:
        """SIGTERM every daemon started here, and wait for each (kill after 15 s)."""
        stop_processes(self.processes)
        self.processes.clear()


def run_section(title: str, section: Callable[[Path], Awaitable[None]]) -> int:
    """Run one section of ``bench/daemon_bench.py`` alone: print ``title`` with the time and the load average, await
    ``section(root)`` with a fresh temporary folder (removed afterwards), print how long it took; exit code 0."""
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"{title}, {datetime.now(UTC).isoformat(timespec='seconds')}, load average {load}")
    root = Path(tempfile.mkdtemp(prefix="studyjobs-section-"))
    started = time.monotonic()
    try:
        asyncio.run(section(root))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"({time.monotonic() - started:.0f} s)")
    return 0


def stop_processes(processes: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM each process, wait up to 15 s each, kill the stubborn ones."""
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


async def _wait_worker(url: str, process: subprocess.Popen[bytes], timeout: float) -> None:
    from core.app.storage.database import open_app_database
    from core.app.workers.registry import alive_workers

    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"the daemon exited with code {process.returncode}")
        with contextlib.suppress(Exception):
            db = await open_app_database(url)
            try:
                if [w for w in await alive_workers(db) if w.pid == process.pid]:
                    return
            finally:
                await db.dispose()
        if time.monotonic() > deadline:
            raise TimeoutError("the daemon did not register its worker row")
        await asyncio.sleep(0.2)


@contextlib.asynccontextmanager
async def open_store(url: str) -> AsyncIterator[Any]:
    """The application's job store on ``url`` (engine disposed on exit)."""
    from core.app.storage.database import make_app_store, open_app_database

    db = await open_app_database(url)
    try:
        yield make_app_store(db)
    finally:
        await db.dispose()


def declare_noop(broker: Any) -> None:
    """Declare the benchmark's ``noop`` actor on ``broker`` and add it to :data:`daemon.actors.ACTORS`."""
    import dramatiq

    dramatiq.set_broker(broker)
    from daemon import actors
    from daemon.jobs.context import JobContext, run_job
    from daemon.runtime import current

    if NOOP_KIND in actors.ACTORS:
        return

    async def nothing(_ctx: JobContext) -> uuid.UUID | None:
        return None

    @dramatiq.actor(actor_name=NOOP_KIND, queue_name=actors.QUEUE, broker=broker)
    async def noop(job_id: str) -> None:
        await run_job(current(), NOOP_KIND, uuid.UUID(job_id), nothing)

    actors.ACTORS[NOOP_KIND] = noop


QUEUE = "studyjobs"
"""``daemon.actors.QUEUE`` (not imported here: importing the actors needs a broker set first)."""


class Sender:
    """Sends the daemon's broker messages from the benchmark process, as the daemon does for follow-up jobs.

    Uses the broker directly (``broker.enqueue``), so several brokers may live in one process.
    """

    def __init__(self, broker_url: str, namespace: str | None) -> None:
        from daemon.brokers import create_broker

        options: dict[str, Any] = {"namespace": namespace} if namespace and broker_url.startswith("redis") else {}
        self.broker = create_broker(broker_url, **options)
        self.broker.declare_queue(QUEUE)

    def send(self, kind: str, job_id: uuid.UUID) -> None:
        import dramatiq

        message = dramatiq.Message(queue_name=QUEUE, actor_name=kind, args=(str(job_id),), kwargs={}, options={})
        self.broker.enqueue(message)

    def close(self) -> None:
        close = getattr(self.broker, "close", None)
        if close is not None:
            close()


def _worker_main() -> int:
    """``python bench/bench_support.py worker``: the real daemon, plus the ``noop`` actor."""
    import daemon.process as process
    from core.app.settings.config import load_settings
    from daemon.brokers import create_broker

    namespace = os.environ.get("BENCH_REDIS_NAMESPACE")

    def create_with_noop(url: str, **options: Any) -> Any:
        if namespace and url.startswith("redis"):
            options.setdefault("namespace", namespace)
        broker = create_broker(url, **options)
        declare_noop(broker)
        return broker

    process.create_broker = create_with_noop  # type: ignore[assignment]
    timeout_ms = os.environ.get("BENCH_WORKER_TIMEOUT_MS")
    if timeout_ms:  # the experiment of BenchHome.start_async(worker_timeout_ms=...)
        import dramatiq

        class TunedWorker(dramatiq.Worker):
            def __init__(self, broker: Any, **options: Any) -> None:
                super().__init__(broker, **{**options, "worker_timeout": int(timeout_ms)})

        dramatiq.Worker = TunedWorker  # type: ignore[misc]
    return process.run_daemon(load_settings())


# -- logs ------------------------------------------------------------------------------------------------------

_LOG_LINE = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) ")


def log_events(path: Path, pattern: str) -> list[tuple[float, str]]:
    """``(epoch seconds, line)`` of every line of the daemon's log that contains ``pattern``."""
    found: list[tuple[float, str]] = []
    if not path.is_file():
        return found
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        match = _LOG_LINE.match(line)
        if match and pattern in line:
            found.append((datetime.strptime(match.group(1), "%Y-%m-%d %H:%M:%S.%f").timestamp(), line))
    return found


# -- corpus ------------------------------------------------------------------------------------------------------


GENERATE_SIZES = [2000, 2600, 3300, 4000, 5000, 6000, 7200, 8500, 10000, 12000, 14000]
"""Sizes (characters) of the real-prose documents that go through the whole pipeline (ingest, then generate)."""
INGEST_SIZES = [20000, 40000, 80000, 160000, 320000, 60000, 120000, 240000, 30000, 100000, 200000]
"""Sizes of the larger real-prose documents that are only extracted (ingest with ``only_extract``)."""


def held_out(name: str) -> bool:
    """The fixed split: a document is held out when the first byte of its name's SHA-256 is below 77 (~30 %)."""
    return hashlib.sha256(name.encode("utf-8")).digest()[0] < 77


def _prose_sources() -> list[Path]:
    """Real prose on this machine: the common licenses, Python's license and the packages' copyright files."""
    sources = sorted(Path("/usr/share/common-licenses").glob("*"))
    sources += sorted(Path(sys.base_prefix).glob("lib/python3*/LICENSE.txt"))
    sources += sorted(Path("/usr/share/doc").glob("*/copyright"))
    return [p for p in sources if p.is_file() and not p.is_symlink()]


def _readable(text: str) -> str:
    """Keep the prose paragraphs: drop lines that are mostly punctuation (rulers, boxes)."""
    lines = [line for line in text.splitlines() if sum(ch.isalpha() for ch in line) >= len(line.strip()) * 0.5]
    return "\n".join(lines)


def _prose_paragraphs() -> list[str]:
    """The distinct paragraphs (over 80 characters) of the real prose on this machine, in a fixed order."""
    paragraphs: list[str] = []
    for source in _prose_sources():
        with contextlib.suppress(OSError, UnicodeDecodeError):
            text = _readable(source.read_text(encoding="utf-8"))
            paragraphs += [p.strip() for p in re.split(r"\n\s*\n", text) if len(p.strip()) > 80]
    if not paragraphs:
        raise RuntimeError("no real prose found on this machine (/usr/share/common-licenses, /usr/share/doc)")
    return list(dict.fromkeys(paragraphs))


def text_corpus(folder: Path, sizes: list[int], *, prefix: str = "doc") -> list[Path]:
    """Write one Markdown/text document per size (bytes, approximately), each cut from different real texts.

    Document ``i`` starts at a different source file and takes whole paragraphs from consecutive files until it
    reaches its size, so no two documents are the same text. Deterministic for a given machine.
    """
    folder.mkdir(parents=True, exist_ok=True)
    unique = _prose_paragraphs()
    written: list[Path] = []
    step = max(len(unique) // max(len(sizes), 1), 1)
    for i, size in enumerate(sizes):
        parts: list[str] = []
        total = 0
        j = (i * step) % len(unique)
        while total < size:
            part = unique[j % len(unique)]
            parts.append(part)
            total += len(part) + 2
            j += 1
        suffix = ".md" if i % 2 else ".txt"
        path = folder / f"{prefix}-{size}{suffix}"
        body = "\n\n".join(parts)[:size]
        if suffix == ".md":
            body = f"# {path.stem}\n\n{body}"
        path.write_text(body + "\n", encoding="utf-8")
        written.append(path)
    return written


def text_without_chapters(folder: Path, size: int, *, prefix: str = "plain") -> Path:
    """A plain text of ``size`` characters of real prose in which the reader finds no chapters.

    Numbered paragraphs of the licenses ("8. You may distribute …") are headings to the plain-text reader
    (``daemon.readers.formats.text_headings``); a text with two of them has its own chapters, and a ``generate`` job
    then takes them as its sections without asking the model for an outline. This text leaves out every
    paragraph the reader takes as a heading, so its ``generate`` job plans it with the model.
    """
    from core.app.documents.structure import paragraphs as split
    from daemon.readers.formats.text_headings import numbered_headings

    folder.mkdir(parents=True, exist_ok=True)
    prose = _prose_paragraphs()
    left_out: set[int] = set()  # indices into prose
    while True:
        chosen: list[int] = []
        total = 0
        for index, part in enumerate(prose):
            if total >= size:
                break
            if index not in left_out:
                chosen.append(index)
                total += len(part) + 2
        body = "\n\n".join(prose[i] for i in chosen)[:size]
        found = numbered_headings(split(body))
        if not found:
            break
        left_out |= {chosen[chapter.paragraph] for chapter in found}
    path = folder / f"{prefix}-{size}.txt"
    path.write_text(body + "\n", encoding="utf-8")
    return path


def pdf_corpus(max_pages: int = 700) -> list[Path]:
    """The test corpus's PDFs (``tests/daemon/corpus.py``) up to ``max_pages`` pages; empty when unavailable."""
    try:
        import pypdfium2 as pdfium

        from tests.daemon.corpus import fetch_corpus

        pdfs = fetch_corpus().pdfs()
    except Exception as error:  # no network, no apt-get: the text corpus alone
        print(f"(no PDF corpus: {error})", file=sys.stderr)
        return []
    kept = []
    for path in pdfs:
        document = pdfium.PdfDocument(path)
        try:
            if len(document) <= max_pages:
                kept.append(path)
        finally:
            document.close()
    return kept


# -- models ------------------------------------------------------------------------------------------------------


def bench_generator(model: Path | None, threads: int) -> tuple[Any, bool]:
    """The generator the model benchmarks (``guide_quality.py``, ``structure_bench.py``) write with: ``model`` (a
    GGUF file; ``None``: the bundled SmolLM2 with its tuned sampling and 8,192 tokens of context) at 4,096 tokens
    of context, and whether it writes summaries by the model catalog's word (a file outside the catalog does)."""
    from core.app.models.catalog import load_catalog
    from daemon.llm.llamacpp import LlamaCppGenerator
    from daemon.llm.models import BUNDLED_CONTEXT, bundled_model_path
    from daemon.llm.sampling import BUNDLED_SAMPLING, DEFAULT_SAMPLING

    path = model or bundled_model_path()
    summaries = next((m.writes_summaries for m in load_catalog() if m.filename == path.name), True)
    sampling = DEFAULT_SAMPLING if model else BUNDLED_SAMPLING
    n_ctx = 4096 if model else BUNDLED_CONTEXT
    return LlamaCppGenerator(path, n_ctx=n_ctx, n_threads=threads, sampling=sampling), summaries


def model_settings(spec: str | None, *, server_model: str | None = None, threads: int | None = None) -> Any:
    """This computer's settings (:func:`core.app.settings.config.load_settings`) with the ``model`` setting naming
    ``spec``: a catalog id (its downloaded file, or the bundled demo), a GGUF file, a server's URL (``http://…``, with
    ``server_model`` as the model's name there), or ``None`` for the bundled model. The worker builds its model from
    such settings (:func:`daemon.runtime.model_choice`)."""
    import dataclasses

    from core.app.models.library import library_catalog, model_setting
    from core.app.settings.config import load_settings

    settings = load_settings()
    model = settings.model
    if spec is None:
        model = dataclasses.replace(model, kind="bundled")
    elif spec.startswith(("http://", "https://")):
        if not server_model:
            raise SystemExit("a server URL needs --server-model NAME (the model's name on the server)")
        model = dataclasses.replace(model, kind="http", endpoint=spec, model_name=server_model)
    elif Path(spec).expanduser().is_file():
        model = dataclasses.replace(model, kind="gguf", gguf_path=Path(spec).expanduser().resolve())
    else:
        entry = next((m for m in library_catalog() if m.id == spec), None)
        if entry is None:
            known = ", ".join(m.id for m in library_catalog())
            raise SystemExit(f"{spec!r} is neither a file, a URL nor a catalog id ({known})")
        model = model_setting(settings, entry)
        if model.kind == "gguf" and not (model.gguf_path and model.gguf_path.is_file()):
            raise SystemExit(f"{spec} is not downloaded: studyjobs models download {spec}")
    if threads:
        model = dataclasses.replace(model, n_threads=threads)
    return dataclasses.replace(settings, model=model)


# -- PostgreSQL and Redis ----------------------------------------------------------------------------------------


@contextlib.contextmanager
def temp_pg_database(tag: str) -> Iterator[str]:
    """A fresh PostgreSQL database (``TEMPLATE template0``) for the block; dropped afterwards. Yields its DSN."""
    import psycopg

    name = f"studyjobs_bench_{tag}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    base, _, _ = PG_ADMIN_DSN.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def vacuum_analyze(*dsns: str) -> None:
    """``VACUUM ANALYZE`` each database: what PostgreSQL's autovacuum does in the background on a default server.

    This machine's server runs with ``autovacuum = off``: without it every round's updated rows stay behind as dead
    tuples, and a no-op round got slower with each one (315 → 211 jobs/s over eight rounds of 1,000; back to ~300
    after one ``VACUUM``). The benchmark runs it on both sides between rounds, outside the timings.
    """
    import psycopg

    for dsn in dsns:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")


def redis_cleanup(namespace: str) -> int:
    """Delete every Redis key of ``namespace``; how many."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    try:
        keys = list(client.scan_iter(match=f"{namespace}:*", count=1000))
        if keys:
            client.delete(*keys)
        return len(keys)
    finally:
        client.close()


# -- peers ---------------------------------------------------------------------------------------------------------


def procrastinate_app(conninfo: str) -> Any:
    """A Procrastinate app on ``conninfo`` with one task, ``noop``."""
    import procrastinate

    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=conninfo))

    @app.task(name="noop", queue="bench")
    async def noop() -> None:
        return None

    return app


def huey_app(path: Path) -> tuple[Any, Callable[[], Any]]:
    """A ``SqliteHuey`` on ``path`` and its one task, ``noop`` (calling it enqueues; its result is stored, so
    completion is countable in the ``kv`` table)."""
    from huey import SqliteHuey

    huey = SqliteHuey("bench", filename=str(path))

    @huey.task(name="noop")
    def noop() -> bool:
        return True

    return huey, noop


def _procrastinate_worker(conninfo: str) -> int:
    app = procrastinate_app(conninfo)

    async def run() -> None:
        async with app.open_async():
            await app.run_worker_async(queues=["bench"], concurrency=1, install_signal_handlers=True)

    asyncio.run(run())
    return 0


def _huey_worker(path: str) -> int:
    from huey.consumer import Consumer

    huey, _noop = huey_app(Path(path))
    # One worker thread, like our daemon's default; polling at most every 0.1 s (Huey backs off to 10 s when idle).
    Consumer(huey, workers=1, worker_type="thread", initial_delay=0.02, backoff=1.15, max_delay=0.1).run()
    return 0


def spawn(role: str, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """Run ``python bench/bench_support.py <role> <args>`` (a daemon, or a peer's worker); output discarded."""
    return subprocess.Popen(
        [PYTHON, __file__, role, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
        env=env or {**os.environ, "PYTHONPATH": str(ROOT)},
    )


def cpu_times() -> list[int] | None:
    """The machine's CPU time counters (``/proc/stat``'s ``cpu`` line, in ticks); ``None`` off Linux."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            return [int(field) for field in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None


def steal_share(before: list[int] | None, after: list[int] | None) -> float | None:
    """The share of CPU time between two :func:`cpu_times` readings that the host gave to other virtual machines
    (``steal``, the eighth counter): when it is high, every figure of that span is slower and noisier."""
    if before is None or after is None or len(before) < 8 or len(after) < 8:
        return None
    spent = [b - a for a, b in zip(before, after, strict=False)]
    total = sum(spent[:8])
    return spent[7] / total if total > 0 else None


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def wait_for(condition: Callable[[], Any], *, timeout: float, interval: float = 0.05, what: str = "it") -> Any:
    """Call ``condition`` until it returns something truthy; ``TimeoutError`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


ROLES: dict[str, Callable[..., int]] = {
    "worker": _worker_main,
    "procrastinate-worker": _procrastinate_worker,
    "huey-worker": _huey_worker,
}

if __name__ == "__main__":
    # Through the module's own name, so that Huey's task names (``bench_support.noop``) match the enqueuer's.
    import bench_support

    raise SystemExit(bench_support.ROLES[sys.argv[1]](*sys.argv[2:]))

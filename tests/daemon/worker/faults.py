"""Fault injection for the daemon's reliability tests: the job database seen from outside, Redis restarts, temporary
PostgreSQL databases, and a model server that refuses to work.

Everything here drives real things (processes, sockets, servers); nothing replaces our own code.
"""

from __future__ import annotations

import contextlib
import json
import socket
import sqlite3
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from sqlalchemy import select

from core.app.storage.database import make_app_store, open_app_database
from core.app.storage.schema import Document, Job, StudyGuide
from tests.daemon.worker.workerhome import DaemonHome, run
from tests.jobtesting import pg_admin, pg_url
from tests.waiting import async_wait_until, wait_until

REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379
REDIS_TEST_DB = 11
"""The Redis database the reliability tests use (flushed before and after each test), apart from anyone's db 0."""
REDIS_URL = f"redis://{REDIS_HOST}:{REDIS_PORT}/{REDIS_TEST_DB}"
TERMINAL = ("done", "failed", "cancelled")

PORTUGUESE = (
    "A fotossíntese é o processo pelo qual as plantas transformam a luz do sol em energia química. "
    "Ela acontece nos cloroplastos, que contêm clorofila, o pigmento verde que absorve a luz.\n\n"
    "Na fase clara, a água é quebrada e o oxigênio é liberado para a atmosfera. Na fase escura, o gás "
    "carbônico é fixado e transformado em glicose, que a planta usa para crescer e se manter viva.\n\n"
    "Sem a fotossíntese não haveria oxigênio suficiente no ar nem alimento para os outros seres vivos."
)


# -- the job database, read from the test process ---------------------------------------------------------------


@dataclass
class State:
    """What the database holds at one moment."""

    jobs: dict[uuid.UUID, Job]
    guides: list[StudyGuide]
    documents: list[Document]

    def guides_of(self, job_id: uuid.UUID) -> list[StudyGuide]:
        return [g for g in self.guides if g.job_id == job_id]


def database_url_of(home: DaemonHome) -> str:
    """The job database a home's daemons use (its settings' ``database_url``, else the embedded file)."""
    return str(home.settings.get("database_url") or f"sqlite+aiosqlite:///{home.data_dir / 'studyjobs.db'}")


async def _state(url: str) -> State:
    db = await open_app_database(url)
    try:
        jobs = await make_app_store(db).list_recent(limit=1000)
        async with db.get_session_context() as session:
            guides = list((await session.scalars(select(StudyGuide))).all())
            documents = list((await session.scalars(select(Document))).all())
        return State({j.id: j for j in jobs}, guides, documents)
    finally:
        await db.dispose()


def state(home: DaemonHome) -> State:
    """A snapshot of the home's job database."""
    return run(_state(database_url_of(home)))


def job(home: DaemonHome, job_id: uuid.UUID) -> Job | None:
    return state(home).jobs.get(job_id)


def add(home: DaemonHome, *paths: Path, only_extract: bool = False) -> list[uuid.UUID]:
    """``studyjobs add --no-start`` (the daemon's sweep dispatches the new rows)."""
    args = ["add", "--no-start", "--json", *map(str, paths)]
    if only_extract:
        args.append("--only-extract")
    done = home.cli(*args)
    assert done.returncode == 0, done.stderr
    return [uuid.UUID(x) for x in json.loads(done.stdout)]


def cancel(home: DaemonHome, job_id: uuid.UUID) -> None:
    done = home.cli("cancel", str(job_id))
    assert done.returncode == 0, done.stderr


def wait_ended(home: DaemonHome, job_ids: list[uuid.UUID], timeout: float = 120) -> State:
    """Wait until every one of ``job_ids`` exists and is terminal."""

    def ended() -> State | None:
        now = state(home)
        if all(j in now.jobs and now.jobs[j].status in TERMINAL for j in job_ids):
            return now
        return None

    return wait_until(ended, timeout=timeout, interval=0.2, what=f"{len(job_ids)} job(s) to end")  # type: ignore[return-value]


def wait_job(home: DaemonHome, job_id: uuid.UUID, condition, *, timeout: float = 60, what: str = "the job"):
    """Wait until ``condition(row)`` holds for the row of ``job_id``; returns the row."""

    def check() -> Job | None:
        row = job(home, job_id)
        return row if row is not None and condition(row) else None

    return wait_until(check, timeout=timeout, interval=0.05, what=what)


def write_documents(folder: Path, count: int, *, prefix: str = "doc", repeat: int = 1) -> list[Path]:
    """``count`` small distinct Portuguese text documents."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(count):
        path = folder / f"{prefix}-{index:02d}.txt"
        path.write_text(f"Documento {index}.\n\n" + "\n\n".join([PORTUGUESE] * repeat), encoding="utf-8")
        paths.append(path)
    return paths


def guide_files(home: DaemonHome) -> list[Path]:
    """The study guides written in the output folder (not temporary ``.part`` files)."""
    return sorted(home.output_dir.glob("*.md")) if home.output_dir.exists() else []


def daemon_log(home: DaemonHome) -> str:
    """Everything the daemons of ``home`` logged (for failure messages)."""
    folder = home.data_dir / "logs"
    return "\n".join(p.read_text(errors="replace") for p in sorted(folder.glob("*.log*"))) if folder.exists() else ""


# -- the embedded queue ------------------------------------------------------------------------------------------


def embedded_queue_leftovers(home: DaemonHome) -> list[str]:
    """The Dramatiq tables and the triggers of the job store's file, sorted (an embedded database should have none)."""
    with contextlib.closing(sqlite3.connect(home.data_dir / "studyjobs.db", timeout=30)) as conn:
        rows = conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' OR (type = 'table' AND name LIKE 'dramatiq%')"
        ).fetchall()
    return sorted(str(row[0]) for row in rows)


# -- Redis --------------------------------------------------------------------------------------------------------


def redis_cli(*args: str, db: int | None = REDIS_TEST_DB) -> subprocess.CompletedProcess[str]:
    command = ["redis-cli", "-h", REDIS_HOST, "-p", str(REDIS_PORT)]
    if db is not None:
        command += ["-n", str(db)]
    return subprocess.run([*command, *args], capture_output=True, text=True, timeout=30)


def redis_up() -> bool:
    try:
        return redis_cli("ping", db=None).stdout.strip() == "PONG"
    except (OSError, subprocess.TimeoutExpired):
        return False


def start_redis() -> None:
    """Start the machine's Redis as ``scripts/test`` expects it (no persistence) and wait until it answers."""
    if redis_up():
        return
    command = ["redis-server", "--daemonize", "yes", "--bind", REDIS_HOST, "--port", str(REDIS_PORT)]
    subprocess.run(
        [*command, "--save", "", "--appendonly", "no"],
        check=True,
        capture_output=True,
        timeout=30,
    )
    wait_until(redis_up, timeout=30, interval=0.05, what="redis-server to answer")


def stop_redis() -> None:
    """``SHUTDOWN NOSAVE``: every queue and every unacked message is gone."""
    redis_cli("shutdown", "nosave", db=None)
    wait_until(lambda: not redis_up(), timeout=30, interval=0.05, what="redis-server to stop")


def flush_redis() -> None:
    """Empty the tests' Redis database (every queue and message)."""
    assert redis_cli("flushdb").returncode == 0


@contextlib.contextmanager
def redis_for_test() -> Iterator[str]:
    """The tests' Redis URL; the database is flushed before and after, and Redis runs again at the end."""
    start_redis()
    flush_redis()
    try:
        yield REDIS_URL
    finally:
        start_redis()
        flush_redis()


# -- PostgreSQL ---------------------------------------------------------------------------------------------------


@contextlib.contextmanager
def temporary_pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database (``postgresql+asyncpg://…``), dropped afterwards whatever happened."""
    name = f"sj_rel_{uuid.uuid4().hex[:12]}"
    run(pg_admin(f'CREATE DATABASE "{name}" TEMPLATE template0'))
    try:
        yield pg_url(name)
    finally:
        run(pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


# -- a model server that refuses ----------------------------------------------------------------------------------


def free_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RateLimitingServer:
    """An OpenAI-compatible server on loopback that lists ``model`` and answers 429 to every chat completion.

    ``chat_requests`` counts the completions it refused. Use as a context manager; the server thread is stopped.
    """

    def __init__(self, model: str = "test-model") -> None:
        self.model = model
        self.chat_requests = 0
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _send(self, status: int, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                if status == 429:
                    self.send_header("Retry-After", "1")
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, {"object": "list", "data": [{"id": outer.model, "object": "model"}]})
                else:
                    self._send(404, {"error": {"message": "not found"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                with outer._lock:
                    outer.chat_requests += 1
                self._send(429, {"error": {"message": "Too many requests", "type": "rate_limit"}})

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.port = int(self._server.server_address[1])
        self.endpoint = f"http://127.0.0.1:{self.port}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, name="rate-limiting-server", daemon=True)

    def __enter__(self) -> RateLimitingServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(10)


def elapsed(since: float) -> float:
    return time.monotonic() - since


async def _cancel_when(url: str, job_id: uuid.UUID, condition, timeout: float) -> Job:
    db = await open_app_database(url)
    try:
        store = make_app_store(db)

        async def moment() -> Job | None:
            try:
                row = await store.get(job_id)
            except LookupError:
                return None
            return row if condition(row) else None

        row = await async_wait_until(moment, timeout=timeout, what=f"the moment to cancel {job_id}", interval=0.02)
        await store.cancel(job_id)
        return row
    finally:
        await db.dispose()


def cancel_when(home: DaemonHome, job_id: uuid.UUID, condition, *, timeout: float = 60) -> Job:
    """Cancel ``job_id`` the moment ``condition(row)`` holds (polled every 20 ms on one connection); returns the
    row that met the condition."""
    return run(_cancel_when(database_url_of(home), job_id, condition, timeout))

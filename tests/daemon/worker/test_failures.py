"""Which errors are not bugs: real ones, made for real — a SQLite file locked by another writer, a PostgreSQL
session ended by the server, a disk with no space left — and an ordinary bug, which stays unexpected."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hashlib
import os
import sqlite3
import threading
import time
import uuid
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.ext.asyncio import create_async_engine

from core.app.documents.job_ids import document_id_for, generate_job_id_for
from core.stored_messages import encode
from daemon.jobs.failures import KnownFailure, is_disk_full, known_failure
from tests.daemon.worker.faults import (
    PORTUGUESE,
    add,
    daemon_log,
    temporary_pg_database,
    wait_ended,
    wait_job,
    write_documents,
)
from tests.daemon.worker.smalldisk import fill, small_disk
from tests.daemon.worker.workerhome import DaemonHome, run
from tests.jobtesting import PG_ADMIN_DSN, pg_admin, pg_url


def _locked_error(path: Path) -> BaseException:
    """The error SQLAlchemy raises for a write while another connection holds the file's write lock."""
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as holder:
        holder.execute("PRAGMA journal_mode=WAL")
        holder.execute("CREATE TABLE t (x)")
        holder.execute("BEGIN IMMEDIATE")
        engine = create_engine(f"sqlite:///{path}", connect_args={"timeout": 0})
        try:
            with engine.begin() as conn:
                conn.execute(text("INSERT INTO t VALUES (1)"))
        except Exception as error:
            return error
        finally:
            engine.dispose()
    raise AssertionError("the write did not wait for the lock")


def test_a_sqlite_file_locked_beyond_its_busy_timeout_is_a_busy_database_tried_again_later(tmp_path: Path) -> None:
    assert known_failure(_locked_error(tmp_path / "jobs.db")) == KnownFailure("database_busy", {}, True)


@pytest.mark.postgres
async def test_a_postgresql_session_the_server_ended_is_a_lost_connection_tried_again_later() -> None:
    name = f"sj_fail_{uuid.uuid4().hex[:10]}"
    await pg_admin(f'CREATE DATABASE "{name}" TEMPLATE template0')
    engine = create_async_engine(pg_url(name))
    try:
        async with engine.connect() as conn:
            pid = await conn.scalar(text("SELECT pg_backend_pid()"))
            admin = await asyncpg.connect(PG_ADMIN_DSN)
            try:
                assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
            finally:
                await admin.close()
            with pytest.raises(Exception) as caught:
                await conn.execute(text("SELECT 1"))
        assert known_failure(caught.value) == KnownFailure("database_unreachable", {}, True)
    finally:
        await engine.dispose()
        await pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_no_space_left_is_a_full_disk_named_after_the_output_folder_when_it_is_there(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk", 1) as disk:
        fill(disk)
        with pytest.raises(OSError) as caught, (disk / "guia.md").open("wb", buffering=0) as handle:
            handle.write(b"x" * 8192)
    assert caught.value.errno == errno.ENOSPC and is_disk_full(caught.value)
    wrapped = RuntimeError("while saving")
    wrapped.__cause__ = OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "disk" / "guia.md"))
    assert known_failure(wrapped, output_dir=tmp_path / "disk") == KnownFailure(
        "disk_full_output", {"folder": str(tmp_path / "disk")}, False
    )
    assert known_failure(caught.value, output_dir=tmp_path / "elsewhere") == KnownFailure("disk_full", {}, False)


def test_a_full_sqlite_database_is_a_full_disk_of_the_database(tmp_path: Path) -> None:
    with contextlib.closing(sqlite3.connect(tmp_path / "jobs.db")) as conn:
        conn.execute("CREATE TABLE t (x)")
        conn.execute("PRAGMA max_page_count = 3")  # as if the disk had room for three pages
        with pytest.raises(sqlite3.OperationalError) as caught:
            conn.execute("INSERT INTO t VALUES (?)", (b"x" * 100_000,))
    assert known_failure(caught.value) == KnownFailure("disk_full_database", {}, False)


def test_an_ordinary_bug_is_not_a_known_failure() -> None:
    try:
        {}["missing"]
    except KeyError as error:
        assert known_failure(error) is None


def test_a_file_changed_between_add_and_read_is_read_anew_with_its_hash_recorded_and_a_note(
    home: DaemonHome, tmp_path: Path
):
    (document,) = write_documents(tmp_path / "docs", 1)
    (ingest,) = add(home, document, only_extract=True)  # no worker yet: the file changes while the job waits
    changed = document.read_text(encoding="utf-8") + "\n\nUm parágrafo escrito depois."
    document.write_text(changed, encoding="utf-8")
    info = document.stat()
    os.utime(document, ns=(info.st_atime_ns, info.st_mtime_ns + 2_000_000_000))
    home.start()
    final = wait_ended(home, [ingest], timeout=120)
    row = final.jobs[ingest]
    assert row.status == "done", row.error
    assert row.message == encode("file_changed") and row.detail.get("file_changed") is True
    (saved,) = [d for d in final.documents if d.id == document_id_for(ingest)]
    assert saved.content_hash == hashlib.sha256(document.read_bytes()).hexdigest()
    assert saved.char_count >= len("Um parágrafo escrito depois.")


def test_a_file_added_and_read_unchanged_has_no_note(home: DaemonHome, tmp_path: Path):
    (document,) = write_documents(tmp_path / "docs", 1)
    (ingest,) = add(home, document, only_extract=True)
    home.start()
    row = wait_ended(home, [ingest], timeout=120).jobs[ingest]
    assert (row.status, row.message) == ("done", "")
    assert "file_changed" not in row.detail


async def _keep_terminating(database: str, *, seconds: float) -> int:
    """For ``seconds``, end every session on ``database`` as soon as it exists, as ``pg_terminate_backend`` (a DBA,
    a failover) does; returns how many were ended."""
    admin = await asyncpg.connect(PG_ADMIN_DSN)
    sql = "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = $1"
    killed, until = 0, time.monotonic() + seconds
    try:
        while time.monotonic() < until:
            killed += int(await admin.fetchval(sql, database))
            await asyncio.sleep(0.005)
    finally:
        await admin.close()
    return killed


@pytest.mark.postgres
def test_postgresql_sessions_killed_again_and_again_during_a_job_get_it_retried_never_failed(
    home: DaemonHome, tmp_path: Path
):
    with temporary_pg_database() as url:
        home.settings["database_url"] = url
        home.write_settings()
        # The retry waits longer than the sessions are killed for: however slow the machine, the outage spends one
        # attempt of the job's three, as a production backoff (a minute and more) would.
        daemon = home.start(STUDYJOBS_BACKOFF="5,5", STUDYJOBS_REDISPATCH_AFTER="2")
        # Every failed statement logs a traceback to stdout too: read it, or the pipe fills and the worker blocks.
        drain = threading.Thread(target=daemon.stdout.read, name="drain-worker-output", daemon=True)  # type: ignore[union-attr]
        drain.start()
        source = tmp_path / "longo.txt"
        source.write_text("\n\n".join([PORTUGUESE] * 40), encoding="utf-8")
        (ingest,) = add(home, source)
        generate = generate_job_id_for(ingest)
        wait_job(home, generate, lambda r: r.status == "running", timeout=120, what="the generate job to run")
        killed = run(_keep_terminating(url.rsplit("/", 1)[1], seconds=4.0))
        assert killed > 0
        row = wait_ended(home, [generate], timeout=180).jobs[generate]
        assert row.status == "done", row.error
        log = daemon_log(home)
        assert "failed unexpectedly" not in log
        assert daemon.poll() is None, "the daemon died"
        home.stop_all()  # before its database is dropped

"""Which errors are not bugs: real ones, made for real — a SQLite file locked by another writer, a PostgreSQL
session ended by the server, a disk with no space left — and an ordinary bug, which stays unexpected."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import sqlite3
import uuid
from pathlib import Path

import asyncpg
import pytest
from faults import add, wait_ended, write_documents
from jobtesting import PG_ADMIN_DSN, pg_admin, pg_url
from smalldisk import fill, small_disk
from sqlalchemy import create_engine, text
from sqlalchemy.ext.asyncio import create_async_engine
from workerhome import DaemonHome

from core.messages import encode
from daemon.jobs.failures import KnownFailure, is_disk_full, known_failure
from daemon.jobs.ingest import document_id_for


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

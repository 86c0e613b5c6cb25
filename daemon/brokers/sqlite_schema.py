"""The SQLite queue file: its tables and how a connection to it is opened.

The broker's tables are its own (``dramatiq_messages``, ``dramatiq_consumers``, ``dramatiq_dead_messages``) and are
created with ``CREATE TABLE IF NOT EXISTS``, so they can live in the same file as the job store's tables. The file is
put in WAL mode once, when it is not already (WAL is a property of the file); every connection gets a busy timeout
and ``synchronous=NORMAL``. Connections are in autocommit mode: a single statement is its own transaction, and
several statements that must go together run inside :func:`write_transaction` (``BEGIN IMMEDIATE``). Every write
of the broker is made under the file's gate (:mod:`core.sqlite_gate`), which the job store's inline statements
share.

Times are integers: milliseconds since the Unix epoch (wall clock, because several processes share the file).
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from dramatiq.errors import ConnectionClosed

from core.sqlite_gate import gated, write_gate

__all__ = [
    "DEFAULT_BUSY_TIMEOUT_MS",
    "QueueFileUnavailable",
    "connect",
    "now_ms",
    "prepare_file",
    "write_transaction",
]

DEFAULT_BUSY_TIMEOUT_MS = 30_000

_SCHEMA = (
    """
    CREATE TABLE IF NOT EXISTS dramatiq_messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        queue_name TEXT NOT NULL,
        message_id TEXT NOT NULL,
        data BLOB NOT NULL,
        state TEXT NOT NULL DEFAULT 'ready' CHECK (state IN ('ready', 'claimed')),
        available_at INTEGER NOT NULL,
        enqueued_at INTEGER NOT NULL,
        consumer_id TEXT,
        claimed_at INTEGER,
        deliveries INTEGER NOT NULL DEFAULT 0
    )
    """,
    """
    CREATE INDEX IF NOT EXISTS dramatiq_messages_ready
        ON dramatiq_messages (queue_name, available_at, id) WHERE state = 'ready'
    """,
    """
    CREATE INDEX IF NOT EXISTS dramatiq_messages_claimed
        ON dramatiq_messages (consumer_id) WHERE state = 'claimed'
    """,
    """
    CREATE TABLE IF NOT EXISTS dramatiq_consumers (
        consumer_id TEXT PRIMARY KEY,
        hostname TEXT NOT NULL,
        pid INTEGER NOT NULL,
        started_at INTEGER NOT NULL,
        heartbeat_at INTEGER NOT NULL,
        lease_ms INTEGER NOT NULL
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS dramatiq_dead_messages (
        id INTEGER PRIMARY KEY,
        queue_name TEXT NOT NULL,
        message_id TEXT NOT NULL,
        data BLOB NOT NULL,
        error TEXT,
        enqueued_at INTEGER NOT NULL,
        dead_at INTEGER NOT NULL
    )
    """,
    """
    CREATE INDEX IF NOT EXISTS dramatiq_dead_messages_queue
        ON dramatiq_dead_messages (queue_name, dead_at)
    """,
    """
    CREATE INDEX IF NOT EXISTS dramatiq_dead_messages_dead_at
        ON dramatiq_dead_messages (dead_at)
    """,
)


class QueueFileUnavailable(ConnectionClosed):
    """The queue file cannot be used right now (closed broker, locked or unreadable file).

    A :class:`dramatiq.errors.ConnectionClosed`, so Dramatiq's worker treats it as a lost connection: it retries
    acks and restarts the consumer instead of giving up.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)  # type: ignore[no-untyped-call]


def now_ms() -> int:
    """The wall clock in milliseconds since the Unix epoch (shared by every process on the machine)."""
    return time.time_ns() // 1_000_000


def connect(path: Path, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> sqlite3.Connection:
    """Open an autocommit connection to the queue file.

    The connection may be handed from one thread to another (``check_same_thread=False``), but it must never be
    used by two threads at once: its owner serialises the calls.

    Args:
        path: The SQLite file.
        busy_timeout_ms: How long a writer waits for another writer before giving up.

    Returns:
        The open connection.
    """
    conn = sqlite3.connect(
        path,
        timeout=busy_timeout_ms / 1000,
        isolation_level=None,
        check_same_thread=False,
    )
    conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


@contextlib.contextmanager
def write_transaction(conn: sqlite3.Connection, gate: threading.Lock) -> Iterator[sqlite3.Connection]:
    """Run the enclosed statements as one write transaction (``BEGIN IMMEDIATE`` … ``COMMIT``) under ``gate``, the
    file's :func:`core.sqlite_gate.write_gate`.

    ``BEGIN IMMEDIATE`` takes the write lock first, so the busy timeout applies and a read is never promoted to a
    write under a concurrent writer. Any error rolls the transaction back and is raised again.
    """
    with gated(gate):
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")


def prepare_file(path: Path, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> None:
    """Create the file's folder, put the file in WAL mode once, and create the broker's tables if missing.

    Safe to call from several processes at once: the tables are created inside one write transaction.

    Raises:
        sqlite3.Error: The file cannot be opened or written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = connect(path, busy_timeout_ms)
    try:
        if str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
            conn.execute("PRAGMA journal_mode=WAL")
        with write_transaction(conn, write_gate(path)):
            _drop_outdated_indexes(conn)
            for statement in _SCHEMA:
                conn.execute(statement)
    finally:
        conn.close()


def _drop_outdated_indexes(conn: sqlite3.Connection) -> None:
    """Drop an index of an older version of the schema, so that :data:`_SCHEMA` creates it anew.

    ``dramatiq_messages_ready`` used to hold every message, claimed ones too (``queue_name, state, available_at,
    id``): each claim and each ack rewrote it. It now holds the ready messages only.
    """
    row = conn.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'dramatiq_messages_ready'"
    ).fetchone()
    if row is not None and "WHERE" not in str(row[0]).upper():
        conn.execute("DROP INDEX dramatiq_messages_ready")

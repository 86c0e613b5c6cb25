"""``QueueFile``: the statements, wake-ups and leases that an :class:`~daemon.brokers.sqlite.SQLiteBroker` shares
with its consumers.

A message row is ``ready`` (visible once ``available_at`` has passed) or ``claimed`` by one consumer id (one id per
broker instance, so per process in practice). A claim is one ``UPDATE … RETURNING`` that takes the write lock before
it reads, so two consumers — threads or processes — never win the same row. Each delivery bumps ``deliveries``,
which fences acks: an ack or nack names the row *and* the delivery it answers, so a consumer whose lease was lost
cannot delete the message that another consumer now holds.

Leases: a broker that consumes registers a row in ``dramatiq_consumers`` and renews its ``heartbeat_at`` from a
daemon thread (:class:`_LeaseKeeper`) every ``heartbeat_seconds``, whatever its worker threads are doing. The same
thread reaps: a consumer whose heartbeat is older than its lease, or whose process on this machine is gone, is
deleted and its claimed messages become ready again (redelivery after a crash: at the next daemon's start when the
crashed one ran here, else once its lease expires). Dead letters older than ``dead_message_ttl_ms`` are purged
there too.
"""

from __future__ import annotations

import logging
import os
import socket
import sqlite3
import threading
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from core.processes import process_gone
from core.sqlite_gate import gated, write_gate
from daemon.brokers.sqlite_schema import connect, now_ms, prepare_file, write_transaction

__all__ = ["ClaimedRow", "DeadLetterRow", "QueueFile"]

logger = logging.getLogger(__name__)

_RELEASE = (
    "UPDATE dramatiq_messages SET state = 'ready', consumer_id = NULL, claimed_at = NULL "
    "WHERE id = ? AND consumer_id = ? AND deliveries = ? AND state = 'claimed'"
)


_ACK = "DELETE FROM dramatiq_messages WHERE id = ? AND consumer_id = ? AND deliveries = ? AND state = 'claimed'"
_CLAIM = (
    "UPDATE dramatiq_messages "
    "SET state = 'claimed', consumer_id = ?, claimed_at = ?, deliveries = deliveries + 1 "
    "WHERE state = 'ready' AND id IN ("
    "  SELECT id FROM dramatiq_messages WHERE queue_name = ? AND state = 'ready' AND available_at <= ? "
    "  ORDER BY available_at, id LIMIT ?) "
    "RETURNING id, deliveries, available_at, data"
)


@dataclass(frozen=True, slots=True)
class ClaimedRow:
    """One message row that a consumer has just claimed.

    Attributes:
        row_id: The row's id (never reused: the table is ``AUTOINCREMENT``).
        delivery: The row's ``deliveries`` count after this claim: the fencing token of acks and nacks.
        available_at: When the message became visible (ms since the epoch); claims are delivered in this order.
        data: The encoded Dramatiq message.
    """

    row_id: int
    delivery: int
    available_at: int
    data: bytes


@dataclass(frozen=True, slots=True)
class DeadLetterRow:
    """One dead-lettered message: its encoded data, the error it died of (if known) and when (ms)."""

    queue_name: str
    data: bytes
    error: str | None
    dead_at: int


class QueueFile:
    """The queue tables of one SQLite file, as seen by one broker instance.

    Thread-safety: every public method may be called from any thread. Writes that are not a consumer's own
    (enqueue, ack, nack, requeue, counting, purging) go through one shared connection guarded by a lock; each
    consumer claims through its own connection (:meth:`connect`), passed to :meth:`claim` and :meth:`earliest`.

    Args:
        path: The SQLite file (created with its tables when missing).
        busy_timeout_ms: How long a writer waits for another writer.
        lease_ms: How long this instance's claims survive without a heartbeat (its crash-redelivery delay).
        heartbeat_seconds: How often the lease is renewed and dead consumers are reaped.
        dead_message_ttl_ms: How long dead letters are kept.
    """

    def __init__(
        self,
        path: Path,
        *,
        busy_timeout_ms: int,
        lease_ms: int,
        heartbeat_seconds: float,
        dead_message_ttl_ms: int,
    ) -> None:
        self.path = path
        self.busy_timeout_ms = busy_timeout_ms
        self.lease_ms = lease_ms
        self.heartbeat_seconds = heartbeat_seconds
        self.dead_message_ttl_ms = dead_message_ttl_ms
        self.consumer_id = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex}"
        prepare_file(path, busy_timeout_ms)
        self._gate = write_gate(path)  # shared with the process's other writers of the file (the job store)
        self._writer = connect(path, busy_timeout_ms)
        self._writer_lock = threading.Lock()
        self._changed = threading.Condition()
        self._generation = 0
        self._state_lock = threading.Lock()
        self._keeper: _LeaseKeeper | None = None
        self._registered = False
        self._closed = False

    # -- connections and wake-ups -------------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    def connect(self) -> sqlite3.Connection:
        """A new connection for one consumer (its owner closes it)."""
        return connect(self.path, self.busy_timeout_ms)

    @property
    def generation(self) -> int:
        """A counter bumped by every in-process change that may let a consumer proceed (enqueue, ack, release)."""
        with self._changed:
            return self._generation

    def notify(self) -> None:
        """Bump :attr:`generation` and wake every waiting consumer of this instance."""
        with self._changed:
            self._generation += 1
            self._changed.notify_all()

    def wait(self, generation: int, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for :attr:`generation` to move past ``generation``; tell whether it did."""
        with self._changed:
            if self._generation == generation and timeout > 0:
                self._changed.wait(timeout)
            return self._generation != generation

    # -- messages ----------------------------------------------------------------------------------------------

    def insert(self, queue_name: str, message_id: str, data: bytes, available_at: int) -> int:
        """Store one ready message (visible from ``available_at``, ms) and wake local consumers; return its row id."""
        with self._writer_lock, gated(self._gate):
            cursor = self._writer.execute(
                "INSERT INTO dramatiq_messages (queue_name, message_id, data, available_at, enqueued_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (queue_name, message_id, data, available_at, now_ms()),
            )
            row_id = int(cursor.lastrowid or 0)
        self.notify()
        return row_id

    @staticmethod
    def earliest(conn: sqlite3.Connection, queue_name: str) -> int | None:
        """When the first ready message of ``queue_name`` is (or was) due, in ms; ``None`` when there is none.

        A read on the consumer's own connection: one index lookup, no write lock.
        """
        row = conn.execute(
            "SELECT MIN(available_at) FROM dramatiq_messages WHERE queue_name = ? AND state = 'ready'",
            (queue_name,),
        ).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def claim(
        self,
        conn: sqlite3.Connection,
        queue_name: str,
        limit: int,
        acks: list[tuple[int, int]] | None = None,
    ) -> tuple[list[ClaimedRow], list[tuple[int, int]]]:
        """Claim up to ``limit`` due messages of ``queue_name`` for this instance, oldest first; with ``acks``,
        delete those delivered messages (``(row_id, delivery)``) in the same transaction.

        One ``UPDATE … RETURNING`` statement on the consumer's own connection: the write lock is taken before
        the rows are chosen, so no other consumer can claim them too. With acks, one ``BEGIN IMMEDIATE``
        transaction: a job's ack and the next job's claim cost one commit.

        Returns:
            The claimed rows, and the acks whose delivery no longer held its message (its lease was lost).
        """
        now = now_ms()
        params = (self.consumer_id, now, queue_name, now, limit)
        lost: list[tuple[int, int]] = []
        if acks:
            with write_transaction(conn, self._gate):
                for row_id, delivery in acks:
                    if conn.execute(_ACK, (row_id, self.consumer_id, delivery)).rowcount != 1:
                        lost.append((row_id, delivery))
                rows = conn.execute(_CLAIM, params).fetchall()  # all rows: the statement ends before COMMIT
            self.notify()
        else:
            with gated(self._gate):
                rows = conn.execute(_CLAIM, params).fetchall()
        claimed = [ClaimedRow(int(r[0]), int(r[1]), int(r[2]), bytes(r[3])) for r in rows]
        claimed.sort(key=lambda row: (row.available_at, row.row_id))
        return claimed, lost

    def ack(self, row_id: int, delivery: int) -> bool:
        """Delete a delivered message; ``False`` when this delivery no longer holds it (its lease was lost)."""
        with self._writer_lock:
            if self._closed:
                return False
            with gated(self._gate):
                done = self._writer.execute(_ACK, (row_id, self.consumer_id, delivery)).rowcount == 1
        self.notify()
        return done

    def nack(self, row_id: int, delivery: int, error: str | None) -> bool:
        """Move a delivered message to the dead letters; ``False`` when this delivery no longer holds it."""
        with self._writer_lock:
            if self._closed:
                return False
            with write_transaction(self._writer, self._gate):
                deleted = self._writer.execute(
                    "DELETE FROM dramatiq_messages "
                    "WHERE id = ? AND consumer_id = ? AND deliveries = ? AND state = 'claimed' "
                    "RETURNING id, queue_name, message_id, data, enqueued_at",
                    (row_id, self.consumer_id, delivery),
                ).fetchall()  # all rows: the statement must be finished before COMMIT
                row = deleted[0] if deleted else None
                if row is not None:
                    self._writer.execute(
                        "INSERT OR REPLACE INTO dramatiq_dead_messages "
                        "(id, queue_name, message_id, data, error, enqueued_at, dead_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (row[0], row[1], row[2], row[3], error, row[4], now_ms()),
                    )
        self.notify()
        return row is not None

    def release(self, rows: Iterable[tuple[int, int]]) -> int:
        """Make claimed messages ready again at once (``(row_id, delivery)`` pairs); return how many were."""
        pairs = [(row_id, self.consumer_id, delivery) for row_id, delivery in rows]
        if not pairs:
            return 0
        with self._writer_lock:
            if self._closed:
                return 0
            with write_transaction(self._writer, self._gate):
                released = sum(self._writer.execute(_RELEASE, pair).rowcount for pair in pairs)
        self.notify()
        return released

    def pending(self, queue_name: str) -> int:
        """How many messages of ``queue_name`` are waiting or being processed (delayed ones included)."""
        with self._writer_lock:
            row = self._writer.execute(
                "SELECT COUNT(*) FROM dramatiq_messages WHERE queue_name = ?", (queue_name,)
            ).fetchone()
        return int(row[0])

    def dead_letters(self, queue_name: str) -> list[DeadLetterRow]:
        """The dead letters of ``queue_name``, oldest first."""
        with self._writer_lock:
            rows = self._writer.execute(
                "SELECT queue_name, data, error, dead_at FROM dramatiq_dead_messages "
                "WHERE queue_name = ? ORDER BY dead_at, id",
                (queue_name,),
            ).fetchall()
        return [DeadLetterRow(str(r[0]), bytes(r[1]), r[2], int(r[3])) for r in rows]

    def purge(self, queue_names: Iterable[str]) -> None:
        """Delete every message and dead letter of the given queues."""
        names = list(queue_names)
        with self._writer_lock, write_transaction(self._writer, self._gate):
            for name in names:
                self._writer.execute("DELETE FROM dramatiq_messages WHERE queue_name = ?", (name,))
                self._writer.execute("DELETE FROM dramatiq_dead_messages WHERE queue_name = ?", (name,))

    # -- leases ------------------------------------------------------------------------------------------------

    def ensure_registered(self) -> None:
        """Register this instance as a consumer and start renewing its lease (idempotent).

        Called before the first claim, so the reaper of another process never mistakes a fresh claim for an
        orphan.
        """
        with self._state_lock:
            if self._closed:
                raise RuntimeError("The SQLite broker is closed.")
            if self._registered:
                return
            with self._writer_lock:
                self._register(self._writer)
            self._registered = True
            self._keeper = _LeaseKeeper(self)
            self._keeper.start()

    def _register(self, conn: sqlite3.Connection) -> None:
        now = now_ms()
        with gated(self._gate):
            conn.execute(
                "INSERT OR REPLACE INTO dramatiq_consumers "
                "(consumer_id, hostname, pid, started_at, heartbeat_at, lease_ms) VALUES (?, ?, ?, ?, ?, ?)",
                (self.consumer_id, socket.gethostname(), os.getpid(), now, now, self.lease_ms),
            )

    def beat(self, conn: sqlite3.Connection) -> None:
        """Renew this instance's lease; re-register (with a warning) when it had already been presumed dead."""
        with gated(self._gate):
            updated = conn.execute(
                "UPDATE dramatiq_consumers SET heartbeat_at = ? WHERE consumer_id = ?", (now_ms(), self.consumer_id)
            ).rowcount
        if updated == 0:
            logger.warning("The SQLite broker's lease had expired; messages it held were redelivered to others.")
            self._register(conn)

    def reap(self, conn: sqlite3.Connection) -> int:
        """Forget consumers whose lease expired or whose process here is gone, make their messages ready again and
        purge old dead letters.

        Returns:
            How many messages became ready again.
        """
        now = now_ms()
        local = conn.execute(
            "SELECT consumer_id, pid FROM dramatiq_consumers WHERE hostname = ? AND pid != ?",
            (socket.gethostname(), os.getpid()),
        ).fetchall()
        with write_transaction(conn, self._gate):
            conn.execute("DELETE FROM dramatiq_consumers WHERE heartbeat_at + lease_ms < ?", (now,))
            gone = [(consumer_id,) for consumer_id, pid in local if process_gone(int(pid))]
            conn.executemany("DELETE FROM dramatiq_consumers WHERE consumer_id = ?", gone)
            requeued = conn.execute(
                "UPDATE dramatiq_messages SET state = 'ready', consumer_id = NULL, claimed_at = NULL "
                "WHERE state = 'claimed' AND NOT EXISTS ("
                "  SELECT 1 FROM dramatiq_consumers c WHERE c.consumer_id = dramatiq_messages.consumer_id)"
            ).rowcount
            conn.execute("DELETE FROM dramatiq_dead_messages WHERE dead_at < ?", (now - self.dead_message_ttl_ms,))
        if requeued:
            logger.warning("Redelivering %d message(s) whose consumer stopped renewing its lease.", requeued)
            self.notify()
        return requeued

    def close(self) -> None:
        """Stop renewing the lease, hand this instance's claimed messages back, and close the shared connection.

        Idempotent. Stop the Dramatiq worker first: a message still being processed is handed back too.
        """
        with self._state_lock:
            if self._closed:
                return
            self._closed = True
            keeper, self._keeper = self._keeper, None
        if keeper is not None:
            keeper.stop()
        with self._writer_lock:
            try:
                if self._registered:
                    with write_transaction(self._writer, self._gate):
                        self._writer.execute(
                            "UPDATE dramatiq_messages SET state = 'ready', consumer_id = NULL, claimed_at = NULL "
                            "WHERE state = 'claimed' AND consumer_id = ?",
                            (self.consumer_id,),
                        )
                        self._writer.execute(
                            "DELETE FROM dramatiq_consumers WHERE consumer_id = ?", (self.consumer_id,)
                        )
            except sqlite3.Error:
                logger.warning("Could not hand back the SQLite broker's messages; they return after the lease.")
            finally:
                self._writer.close()
        self.notify()


class _LeaseKeeper(threading.Thread):
    """Renews one :class:`QueueFile`'s lease and reaps dead consumers every ``heartbeat_seconds``.

    A daemon thread with its own connection; :meth:`stop` ends it and waits for it. Database errors are logged and
    retried on the next beat: a busy file must never kill the lease.
    """

    def __init__(self, queue_file: QueueFile) -> None:
        super().__init__(name="sqlite-broker-lease", daemon=True)
        self._queue_file = queue_file
        self._stopping = threading.Event()

    def run(self) -> None:
        conn = self._queue_file.connect()
        try:
            while True:
                try:
                    self._queue_file.beat(conn)
                    self._queue_file.reap(conn)
                except sqlite3.Error:
                    logger.warning("The SQLite broker could not renew its lease; retrying.", exc_info=True)
                if self._stopping.wait(self._queue_file.heartbeat_seconds):
                    return
        finally:
            conn.close()

    def stop(self) -> None:
        """Ask the thread to end and wait for it."""
        self._stopping.set()
        if self.is_alive() and threading.current_thread() is not self:
            self.join()

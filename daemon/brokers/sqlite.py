"""``SQLiteBroker``: a Dramatiq broker embedded in an SQLite file (by default the job store's own file).

Nothing to install or run beside the application: messages are rows of the broker's own tables
(``dramatiq_messages``, ``dramatiq_consumers``, ``dramatiq_dead_messages``), written with the standard ``sqlite3``
module in short transactions, so several threads and several processes may enqueue and consume on one file.

Semantics, in Dramatiq's terms:

- **Durable**: a message is a committed row; it survives the process and the broker being closed and reopened.
- **Visibility leases**: a consumed message is claimed by this broker instance, which renews its lease from a
  daemon thread while it lives. When a process dies, its messages become ready again once its lease expires
  (``lease_seconds``), and another consumer gets them. Closing the broker hands its claimed messages back at once.
- **ack** deletes the message; **nack** moves it to ``dramatiq_dead_messages`` (kept ``dead_message_ttl`` ms,
  seven days by default, like Dramatiq's Redis broker keeps its dead-letter queues).
- **Delays** are stored directly as the row's ``available_at``: no ``.DQ`` delay queue is declared and the worker
  runs no delay consumer. A message sent to a ``.DQ`` name with an ``eta`` option (Dramatiq's own delay protocol)
  is stored on its canonical queue with that eta, so both conventions work with :class:`dramatiq.Worker`.
- **Quick pick-up without spinning**: a waiting consumer is woken at once by an enqueue in the same process, and
  within ``poll_seconds`` by a commit from another process (``PRAGMA data_version``).
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from dramatiq.broker import Broker, Consumer, MessageProxy
from dramatiq.common import q_name
from dramatiq.errors import QueueJoinTimeout, QueueNotFound
from dramatiq.message import Message
from dramatiq.middleware import Middleware

from daemon.brokers.sqlite_consumer import SQLiteConsumer, SQLiteMessageProxy
from daemon.brokers.sqlite_queue import QueueFile
from daemon.brokers.sqlite_schema import DEFAULT_BUSY_TIMEOUT_MS, QueueFileUnavailable, now_ms

__all__ = [
    "DeadLetter",
    "QueueFileUnavailable",
    "SQLiteBroker",
    "SQLiteConsumer",
    "SQLiteMessageProxy",
    "sqlite_path_from_url",
]

DEFAULT_LEASE_SECONDS = 60.0
DEFAULT_POLL_SECONDS = 0.02
DEFAULT_DEAD_MESSAGE_TTL_MS = 7 * 86_400_000


@dataclass(frozen=True, slots=True)
class DeadLetter:
    """A message that was nacked (or could not be decoded), as kept in ``dramatiq_dead_messages``.

    Attributes:
        data: The encoded message.
        error: The error it failed with (``"ValueError: …"``), or ``None`` when unknown.
        dead_at: When it was dead-lettered, in ms since the epoch.
    """

    data: bytes
    error: str | None
    dead_at: int

    @property
    def message(self) -> Message[Any]:
        """The decoded message (raises :class:`dramatiq.errors.DecodeError` for an undecodable one)."""
        return Message.decode(self.data)


def sqlite_path_from_url(url: str) -> Path:
    """The file of an ``sqlite:///path`` URL (SQLAlchemy's form: ``sqlite:////abs/file.db`` is absolute).

    ``sqlite+<driver>:///…`` is accepted too, so the job store's own URL names the same file. A query string
    is ignored.

    Raises:
        ValueError: The URL is not an SQLite URL or names no file (in-memory databases cannot be shared).
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme != "sqlite" and not scheme.startswith("sqlite+"):
        raise ValueError(f"The URL {url!r} is not an SQLite URL.")
    path = unquote(parts.path[1:] if parts.path.startswith("/") else parts.path)
    if parts.netloc or not path or path == ":memory:" or path.startswith("file:"):
        raise ValueError(f"The SQLite broker URL {url!r} must name a file, as in sqlite:////path/to/file.db.")
    return Path(path)


class SQLiteBroker(Broker):
    """A Dramatiq broker stored in an SQLite file.

    Threading: every method may be called from any thread; consumers follow :class:`SQLiteConsumer`'s rules.
    Any number of broker instances — in one process or several — may share one file. Call :meth:`close` after
    the worker has stopped.

    Args:
        path: The SQLite file (created, with its folder and tables, when missing).
        middleware: The broker's middleware; Dramatiq's defaults when ``None``.
        lease_seconds: How long a claimed message stays invisible after its consumer stops renewing the lease
            (a killed process's messages are redelivered after about this long).
        heartbeat_seconds: How often the lease is renewed and dead consumers are reaped (``lease_seconds / 4``
            by default).
        poll_seconds: How often a waiting consumer asks whether another process committed something.
        busy_timeout_ms: How long a writer waits for another writer of the file.
        dead_message_ttl: How long dead letters are kept, in milliseconds.
        claim_batch: How many prefetch slots a consumer that still holds messages waits to see free before it
            claims again (its acks are written with that claim). 1 claims as soon as a slot is free; more saves
            transactions under load but keeps up to ``prefetch - claim_batch`` messages from other consumers, so
            it suits a queue that this process alone consumes, with ``prefetch`` at least twice its threads.

    Raises:
        ValueError: A duration is not positive.
        sqlite3.Error: The file cannot be opened or its tables created.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        middleware: list[Middleware] | None = None,
        lease_seconds: float = DEFAULT_LEASE_SECONDS,
        heartbeat_seconds: float | None = None,
        poll_seconds: float = DEFAULT_POLL_SECONDS,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        dead_message_ttl: int = DEFAULT_DEAD_MESSAGE_TTL_MS,
        claim_batch: int = 1,
    ) -> None:
        heartbeat = lease_seconds / 4 if heartbeat_seconds is None else heartbeat_seconds
        if min(lease_seconds, heartbeat, poll_seconds) <= 0 or heartbeat >= lease_seconds:
            raise ValueError("The lease, heartbeat and poll durations must be positive, the heartbeat below the lease.")
        if claim_batch < 1:
            raise ValueError("The claim batch must be at least 1.")
        super().__init__(middleware=middleware)
        self.claim_batch = claim_batch
        self.path = Path(path)
        self.poll_seconds = poll_seconds
        self.queues: set[str] = set()
        self._file = QueueFile(
            self.path,
            busy_timeout_ms=busy_timeout_ms,
            lease_ms=int(lease_seconds * 1000),
            heartbeat_seconds=heartbeat,
            dead_message_ttl_ms=dead_message_ttl,
        )

    @property
    def consumer_id(self) -> str:
        """This instance's id in ``dramatiq_consumers`` (host, pid and a random part)."""
        return self._file.consumer_id

    def declare_queue(self, queue_name: str) -> None:
        """Declare a queue (idempotent). No ``.DQ`` delay queue is declared: delays live on the rows."""
        if queue_name in self.queues:
            return
        self.emit_before("declare_queue", queue_name)
        self.queues.add(queue_name)
        self.emit_after("declare_queue", queue_name)

    def get_declared_queues(self) -> set[str]:
        """The names of the queues declared on this instance."""
        return set(self.queues)

    def enqueue(self, message: Message[Any], *, delay: int | None = None) -> Message[Any]:
        """Store a message; it becomes visible after ``delay`` milliseconds (at once when ``None``).

        The queue need not be declared in this process (another process may consume it). A message for a ``.DQ``
        queue, or one carrying an ``eta`` option, is stored on its canonical queue, visible from that eta.

        Returns:
            The message as stored: canonical queue name, no ``eta`` option.

        Raises:
            QueueFileUnavailable: The broker is closed or the file cannot be written.
        """
        base: Message[Any] = message._message if isinstance(message, MessageProxy) else message
        options = dict(base.options)
        eta = options.pop("eta", None)
        if delay is not None:
            available_at = now_ms() + max(0, int(delay))
        elif isinstance(eta, int | float) and not isinstance(eta, bool):
            available_at = int(eta)
        else:
            available_at = now_ms()
        stored = base._replace(queue_name=q_name(base.queue_name), options=options)
        if self._file.closed:
            raise QueueFileUnavailable("The SQLite broker is closed.")
        self.emit_before("enqueue", stored, delay)
        try:
            self._file.insert(stored.queue_name, stored.message_id, stored.encode(), available_at)
        except sqlite3.Error as error:
            raise QueueFileUnavailable(f"The SQLite queue file could not be written ({error}).") from error
        self.emit_after("enqueue", stored, delay)
        return stored

    def consume(self, queue_name: str, prefetch: int = 1, timeout: int = 30000) -> Consumer:
        """A consumer of a declared queue.

        Args:
            queue_name: The queue.
            prefetch: How many messages may be delivered and not yet acked at once.
            timeout: How long, in milliseconds, one ``next()`` waits for a message before answering ``None``.

        Raises:
            QueueNotFound: The queue was not declared on this instance (``.DQ`` queues never are).
            QueueFileUnavailable: The broker is closed or the file cannot be opened.
        """
        if queue_name not in self.queues:
            raise QueueNotFound(queue_name)  # type: ignore[no-untyped-call]
        return SQLiteConsumer(
            self._file,
            queue_name,
            prefetch=prefetch,
            timeout_ms=timeout,
            poll_seconds=self.poll_seconds,
            batch=min(self.claim_batch, max(1, prefetch)),
        )

    def pending_count(self, queue_name: str) -> int:
        """How many messages of the queue are waiting, delayed or being processed."""
        return self._file.pending(q_name(queue_name))

    def dead_letters(self, queue_name: str) -> list[DeadLetter]:
        """The dead letters of a queue, oldest first."""
        return [DeadLetter(row.data, row.error, row.dead_at) for row in self._file.dead_letters(q_name(queue_name))]

    def flush(self, queue_name: str) -> None:
        """Delete every message and dead letter of a queue (its delayed messages included)."""
        self._file.purge([q_name(queue_name)])

    def flush_all(self) -> None:
        """Delete every message and dead letter of every declared queue."""
        self._file.purge(self.queues)

    def join(self, queue_name: str, *, interval: int = 100, timeout: int | None = None) -> None:
        """Wait until the queue has no message left (delayed and in-flight ones included). Meant for tests.

        Args:
            queue_name: The queue.
            interval: How often to look, in milliseconds.
            timeout: How long to wait at most, in milliseconds; forever when ``None``.

        Raises:
            QueueJoinTimeout: The queue was not empty in time.
        """
        deadline = None if timeout is None else time.monotonic() + timeout / 1000
        while self.pending_count(queue_name) > 0:
            if deadline is not None and time.monotonic() >= deadline:
                raise QueueJoinTimeout(queue_name)  # type: ignore[no-untyped-call]
            time.sleep(interval / 1000)

    def close(self) -> None:
        """Stop the lease, hand back this instance's claimed messages and close the file. Idempotent.

        Stop the :class:`dramatiq.Worker` first: messages still being processed are handed back too.
        """
        self._file.close()

    def __repr__(self) -> str:
        return f"SQLiteBroker({str(self.path)!r})"

"""The consumer of the SQLite broker: claims messages, hands them to Dramatiq, acks, nacks and requeues them.

Waiting is cheap and quick: after an empty look the consumer sleeps on the broker's in-process condition (an
enqueue or ack in the same process wakes it at once) and, every ``poll_seconds``, asks its own connection for
``PRAGMA data_version``, which changes only when another connection has committed; only then does it look at the
table again. A delayed message wakes it at its eta without any commit. While every prefetch slot is taken it
watches nothing but its own acks.

Acks: under a Dramatiq worker the consumer thread waits in ``next()`` while the worker thread acks; such an ack is
handed to the waiting consumer, which deletes the message in the same transaction as its next claim (one commit per
job instead of two). A crash between the ack and that commit delivers the message again after the lease.

Batches (``batch`` > 1, the embedded daemon's setting): a consumer that still holds messages claims again only once
``batch`` of its slots are free, and writes the acks gathered meanwhile with that claim: under a steady stream one
transaction claims and acks ``batch`` jobs, and the worker thread finds its next message waiting. A consumer that
holds nothing claims as soon as a message is there, so an idle daemon's dispatch latency is unchanged.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Iterable
from typing import Any

from dramatiq.broker import Consumer, MessageProxy
from dramatiq.errors import DecodeError
from dramatiq.message import Message

from daemon.brokers.sqlite_queue import ClaimedRow, QueueFile
from daemon.brokers.sqlite_schema import QueueFileUnavailable, now_ms

__all__ = ["SQLiteConsumer", "SQLiteMessageProxy"]

logger = logging.getLogger(__name__)


class SQLiteMessageProxy(MessageProxy):
    """A delivered message, with the row and delivery it came from (the ack's fencing token).

    Attributes:
        row_id: The message's row in ``dramatiq_messages``.
        delivery: Which delivery of that row this is.
    """

    def __init__(self, message: Message[Any], *, row_id: int, delivery: int) -> None:
        super().__init__(message)
        self.row_id = row_id
        self.delivery = delivery


class SQLiteConsumer(Consumer):
    """Iterates over the messages of one queue of an SQLite queue file.

    Threading: ``__next__`` and :meth:`close` belong to one thread at a time (Dramatiq's consumer thread);
    :meth:`ack`, :meth:`nack` and :meth:`requeue` may be called from any thread (Dramatiq's worker threads call
    them), also with messages delivered by another consumer of the same broker.

    Args:
        queue_file: The broker's shared queue file.
        queue_name: The queue to consume.
        prefetch: How many messages may be delivered and not yet acked at once.
        timeout_ms: How long ``__next__`` waits for a message before it returns ``None``.
        poll_seconds: How often ``PRAGMA data_version`` is asked while waiting.
        batch: How many free slots a consumer that still holds messages waits for before it claims (1 to
            ``prefetch``).
    """

    def __init__(
        self,
        queue_file: QueueFile,
        queue_name: str,
        *,
        prefetch: int,
        timeout_ms: int,
        poll_seconds: float,
        batch: int = 1,
    ) -> None:
        self.queue_name = queue_name
        self.prefetch = max(1, int(prefetch))
        self.batch = min(max(1, int(batch)), self.prefetch)
        self.timeout_ms = max(0, int(timeout_ms))
        self.poll_seconds = poll_seconds
        self._queue_file = queue_file
        try:
            queue_file.ensure_registered()
            self._conn: sqlite3.Connection = queue_file.connect()
        except (sqlite3.Error, RuntimeError) as error:
            raise QueueFileUnavailable(f"The SQLite queue file could not be opened ({error}).") from error
        self._cache: deque[ClaimedRow] = deque()
        self._outstanding: set[tuple[int, int]] = set()
        self._outstanding_lock = threading.Lock()
        self._acks: list[tuple[int, int, str]] = []  # handed to the next look: (row id, delivery, message id)
        self._acks_lock = threading.Lock()
        self._looking = False  # a thread is inside next(): acks are handed to it
        self._maybe_ready = True  # the last claim took all it asked for: claim again without looking first
        self._closed = False

    # -- iteration ---------------------------------------------------------------------------------------------

    def __next__(self) -> MessageProxy | None:
        """The next message of the queue, or ``None`` after ``timeout_ms`` without one.

        Acks that arrive while it looks are written by its next claim, in the same transaction.

        Raises:
            QueueFileUnavailable: The consumer is closed or the queue file cannot be read.
        """
        deadline = time.monotonic() + self.timeout_ms / 1000
        with self._acks_lock:
            self._looking = True
        try:
            return self._next(deadline)
        finally:
            with self._acks_lock:
                self._looking = False  # acks from now on are written at once (or by the next look, if queued)

    def _next(self, deadline: float) -> MessageProxy | None:
        while True:
            if self._closed or self._queue_file.closed:
                raise QueueFileUnavailable("The SQLite consumer is closed.")
            generation = self._queue_file.generation
            try:
                if self._cache:
                    proxy = self._deliver(self._cache.popleft())
                    if proxy is not None:
                        return proxy
                    continue
                acks = self._take_acks()
                free = self._free_slots()
                may_claim = free >= self._wanted_free()
                if may_claim and (acks or self._maybe_ready):
                    claimed = self._claim(free, acks)
                    self._maybe_ready = len(claimed) >= free  # all taken: more may be ready, look again at once
                    if claimed:
                        self._cache.extend(claimed)
                        continue
                elif acks:
                    self._keep_acks(acks)  # written by the claim that refills the batch
                # Slots still taken: only acks (the one that frees enough wakes us) let us claim; no commit is worth
                # watching.
                version = self._data_version() if may_claim else None
                due: int | None = None
                if may_claim:
                    due = QueueFile.earliest(self._conn, self.queue_name)
                    if due is not None and due <= now_ms():
                        self._maybe_ready = True
                        continue
            except sqlite3.Error as error:
                raise QueueFileUnavailable(f"The SQLite queue file could not be read ({error}).") from error
            if not self._wait(deadline, generation, version, due, waiting_for_slot=not may_claim):
                return None

    def _claim(self, free: int, acks: list[tuple[int, int, str]]) -> list[ClaimedRow]:
        claimed, lost = self._queue_file.claim(self._conn, self.queue_name, free, [(r, d) for r, d, _ in acks])
        self._warn_lost(acks, lost)
        return claimed

    def _keep_acks(self, acks: list[tuple[int, int, str]]) -> None:
        with self._acks_lock:
            self._acks[:0] = acks

    def _write_acks(self, acks: list[tuple[int, int, str]]) -> None:
        lost = [(row_id, delivery) for row_id, delivery, _ in acks if not self._queue_file.ack(row_id, delivery)]
        self._warn_lost(acks, lost)

    @staticmethod
    def _warn_lost(acks: list[tuple[int, int, str]], lost: list[tuple[int, int]]) -> None:
        for row_id, delivery, message_id in acks:
            if (row_id, delivery) in lost:
                logger.warning("Message %s was acked after its lease was lost; it may run twice.", message_id)

    def _take_acks(self) -> list[tuple[int, int, str]]:
        with self._acks_lock:
            acks, self._acks = self._acks, []
        return acks

    def _wait(
        self, deadline: float, generation: int, version: int | None, due: int | None, *, waiting_for_slot: bool
    ) -> bool:
        """Sleep until something may have changed (``True``) or the deadline passes (``False``)."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            # Waiting for a slot only: the ack, nack or hand-back that frees it wakes us, nothing to poll.
            step = remaining if version is None and due is None else min(self.poll_seconds, remaining)
            if due is not None:
                step = min(step, max(0.0, (due - now_ms()) / 1000))
            if self._queue_file.wait(generation, step):
                return True
            if waiting_for_slot and self._free_slots() >= self._wanted_free():
                return True
            if due is not None and now_ms() >= due:
                return True
            try:
                if version is not None and self._data_version() != version:
                    return True
            except sqlite3.Error as error:
                raise QueueFileUnavailable(f"The SQLite queue file could not be read ({error}).") from error

    def _data_version(self) -> int:
        return int(self._conn.execute("PRAGMA data_version").fetchone()[0])

    def _wanted_free(self) -> int:
        """How many free slots make a claim worth its transaction: one when nothing is held, else a batch."""
        with self._outstanding_lock:
            holding = bool(self._outstanding or self._cache)
        return self.batch if holding else 1

    def _free_slots(self) -> int:
        with self._outstanding_lock:
            return self.prefetch - len(self._outstanding) - len(self._cache)

    def _deliver(self, row: ClaimedRow) -> SQLiteMessageProxy | None:
        try:
            message = Message.decode(row.data)
        except DecodeError as error:
            logger.error("Moving an undecodable message (row %d) to the dead letters.", row.row_id, exc_info=True)
            self._queue_file.nack(row.row_id, row.delivery, f"The message could not be decoded: {error.error}.")
            return None
        with self._outstanding_lock:
            self._outstanding.add((row.row_id, row.delivery))
        return SQLiteMessageProxy(message, row_id=row.row_id, delivery=row.delivery)

    # -- acknowledgements --------------------------------------------------------------------------------------

    def ack(self, message: MessageProxy) -> None:
        """Remove a processed message for good.

        While this consumer's thread is waiting in ``next()`` (as under a Dramatiq worker), the ack is handed to
        it and written with its next claim, in one transaction (which waits for a batch of free slots while the
        consumer still holds messages); otherwise it is written at once. A crash before
        that write delivers the message again after the lease, which a job's conditional claim turns away.
        A message whose lease was lost meanwhile (it may already run elsewhere) is left alone, with a warning.

        Raises:
            QueueFileUnavailable: The queue file could not be written (Dramatiq retries the ack).
        """
        row_id, delivery = self._token(message)
        self._forget(row_id, delivery)  # first: the wake-up that follows finds the slot free
        with self._acks_lock:
            handed = self._looking and not self._closed
            if handed:
                self._acks.append((row_id, delivery, message.message_id))
        if handed:
            if self._free_slots() >= self._wanted_free():  # else it waits to be written with the batch's claim
                self._queue_file.notify()
            return
        try:
            self._write_acks([(row_id, delivery, message.message_id)])
        except sqlite3.Error as error:
            raise QueueFileUnavailable(f"The SQLite queue file could not be written ({error}).") from error

    def nack(self, message: MessageProxy) -> None:
        """Move a failed message to the dead letters (``dramatiq_dead_messages``), with its error when known.

        Raises:
            QueueFileUnavailable: The queue file could not be written (Dramatiq retries the nack).
        """
        row_id, delivery = self._token(message)
        exception = message._exception
        error = None if exception is None else f"{type(exception).__name__}: {exception}"
        try:
            done = self._queue_file.nack(row_id, delivery, error)
        except sqlite3.Error as error_:
            raise QueueFileUnavailable(f"The SQLite queue file could not be written ({error_}).") from error_
        finally:
            self._forget(row_id, delivery)
        if not done:
            logger.warning("Message %s was nacked after its lease was lost.", message.message_id)

    def requeue(self, messages: Iterable[MessageProxy]) -> None:
        """Hand delivered but unprocessed messages back to the queue at once (worker shutdown).

        Args:
            messages: An iterable of messages this broker delivered.

        Raises:
            QueueFileUnavailable: The queue file could not be written.
        """
        tokens = [self._token(message) for message in messages]
        try:
            self._queue_file.release(tokens)
        except sqlite3.Error as error:
            raise QueueFileUnavailable(f"The SQLite queue file could not be written ({error}).") from error
        finally:
            for row_id, delivery in tokens:
                self._forget(row_id, delivery)

    def close(self) -> None:
        """Hand back the messages claimed but never delivered, and close the consumer's connection. Idempotent."""
        with self._acks_lock:
            if self._closed:
                return
            self._closed = True
        cached = [(row.row_id, row.delivery) for row in self._cache]
        self._cache.clear()
        try:
            acks = self._take_acks()
            if acks and not self._queue_file.closed:
                self._write_acks(acks)
        except sqlite3.Error:
            logger.warning("Could not write %d ack(s); those messages run again after the lease.", len(acks))
        try:
            if cached and not self._queue_file.closed:
                self._queue_file.release(cached)
        except sqlite3.Error:
            logger.warning("Could not hand back %d prefetched message(s); they return after the lease.", len(cached))
        finally:
            self._conn.close()

    @staticmethod
    def _token(message: MessageProxy) -> tuple[int, int]:
        if not isinstance(message, SQLiteMessageProxy):
            raise TypeError("The SQLite broker can only acknowledge messages that it delivered itself.")
        return message.row_id, message.delivery

    def _forget(self, row_id: int, delivery: int) -> None:
        with self._outstanding_lock:
            self._outstanding.discard((row_id, delivery))

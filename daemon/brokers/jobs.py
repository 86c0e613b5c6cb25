"""``JobTableBroker``: the job store's own table is the queue (the embedded mode, ``sqlite:///…`` broker URLs).

A queued, due row is its message; the actor's conditional claim is what takes the job, so a row delivered twice
runs once. Until a :class:`~daemon.brokers.job_rows.JobRows` is attached, and while ``taking_jobs`` says no,
nothing is delivered. Consumers run on Dramatiq's threads; :meth:`JobTableBroker.wake` is safe from any thread.
Acks, leases, delays and waiting: docs/design/worker.md.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from dramatiq.broker import Broker, Consumer, MessageProxy
from dramatiq.common import q_name
from dramatiq.errors import QueueNotFound
from dramatiq.message import Message
from dramatiq.middleware import Middleware

from daemon.brokers.job_rows import DueRows, JobRows, row_message

__all__ = ["DueRows", "JobRows", "JobTableBroker"]

log = logging.getLogger(__name__)

DEFAULT_POLL_SECONDS = 0.02
DEFAULT_IDLE_POLL_SECONDS = 1.0


class JobTableBroker(Broker):
    """A Dramatiq broker whose messages are the due rows of the job table (see docs/design/worker.md).

    Threading: every method may be called from any thread; consumers follow :class:`JobTableConsumer`'s rules.

    Args:
        middleware: The broker's middleware; Dramatiq's defaults when ``None``.
        poll_seconds: How often a waiting consumer asks whether something was committed (or, without a change
            counter, reads the table while work keeps coming).
        idle_poll_seconds: The longest pause between two reads of a table without a change counter.
        claim_batch: How many prefetch slots a consumer that still holds messages waits to see free before it reads
            the table again (1 reads as soon as a slot is free).

    Raises:
        ValueError: A duration is not positive, or the batch is below 1.
    """

    def __init__(
        self,
        *,
        middleware: list[Middleware] | None = None,
        poll_seconds: float = DEFAULT_POLL_SECONDS,
        idle_poll_seconds: float = DEFAULT_IDLE_POLL_SECONDS,
        claim_batch: int = 1,
    ) -> None:
        if min(poll_seconds, idle_poll_seconds) <= 0:
            raise ValueError("The poll durations must be positive.")
        if claim_batch < 1:
            raise ValueError("The claim batch must be at least 1.")
        super().__init__(middleware=middleware)
        self.poll_seconds = poll_seconds
        self.idle_poll_seconds = max(idle_poll_seconds, poll_seconds)
        self.claim_batch = claim_batch
        self.queues: set[str] = set()
        self.taking_jobs: Callable[[], bool] = _always
        """Whether consumers may deliver now; the daemon installs its runtime's ``taking_jobs``."""
        self._rows: JobRows | None = None
        self._changed = threading.Condition()
        self._generation = 0

    def attach(self, rows: JobRows | None) -> None:
        """Read the table through ``rows`` from now on (``None``: deliver nothing)."""
        self._rows = rows
        self.wake()

    @property
    def rows(self) -> JobRows | None:
        """The attached table, if any."""
        return self._rows

    def wake(self) -> None:
        """Make every waiting consumer read the table now (a row was queued; a slot was freed). Thread-safe."""
        with self._changed:
            self._generation += 1
            self._changed.notify_all()

    def wait_change(self, generation: int, timeout: float) -> bool:
        """Block until :meth:`wake` moves past ``generation`` (``True``) or ``timeout`` seconds pass."""
        with self._changed:
            if self._generation != generation:
                return True
            self._changed.wait(max(0.0, timeout))
            return self._generation != generation

    @property
    def generation(self) -> int:
        """How many times :meth:`wake` was called."""
        with self._changed:
            return self._generation

    def kinds(self) -> list[str]:
        """The job kinds that have an actor on this broker (rows of other kinds are never delivered)."""
        return sorted(self.actors)

    def declare_queue(self, queue_name: str) -> None:
        """Declare a queue (idempotent). No ``.DQ`` delay queue: delays are the rows' ``run_after``."""
        if queue_name in self.queues:
            return
        self.emit_before("declare_queue", queue_name)
        self.queues.add(queue_name)
        self.emit_after("declare_queue", queue_name)

    def get_declared_queues(self) -> set[str]:
        """The names of the declared queues."""
        return set(self.queues)

    def get_declared_delay_queues(self) -> set[str]:
        """None: delays live on the rows."""
        return set()

    def enqueue(self, message: Message[Any], *, delay: int | None = None) -> Message[Any]:
        """Nothing to store: the job's queued row is its message (write the row first). Wakes the consumers.

        Returns:
            The message, on its canonical queue, without an ``eta``.
        """
        base: Message[Any] = message._message if isinstance(message, MessageProxy) else message
        options = {key: value for key, value in base.options.items() if key != "eta"}
        stored = base._replace(queue_name=q_name(base.queue_name), options=options)
        self.emit_before("enqueue", stored, delay)
        self.wake()
        self.emit_after("enqueue", stored, delay)
        return stored

    def consume(self, queue_name: str, prefetch: int = 1, timeout: int = 30000) -> Consumer:
        """A consumer of a declared queue (``timeout``: ms one ``next()`` waits before answering ``None``).

        Raises:
            QueueNotFound: The queue was not declared on this broker.
        """
        if queue_name not in self.queues:
            raise QueueNotFound(queue_name)  # type: ignore[no-untyped-call]
        batch = min(self.claim_batch, max(1, prefetch))
        return JobTableConsumer(self, queue_name, prefetch=prefetch, timeout_ms=timeout, batch=batch)


def _always() -> bool:
    return True


class JobTableConsumer(Consumer):
    """Delivers the due rows of the job table as messages of one queue.

    Threading: ``__next__`` and :meth:`close` belong to one thread (Dramatiq's consumer thread); :meth:`ack`,
    :meth:`nack` and :meth:`requeue` may be called from any thread.

    Args:
        broker: The broker (its attached table, its wake-ups and its ``taking_jobs``).
        queue_name: The queue of the messages built.
        prefetch: How many messages may be delivered and not yet acked at once.
        timeout_ms: How long ``__next__`` waits for a message before it returns ``None``.
        batch: How many free slots a consumer that still holds messages waits for before it reads the table.
    """

    def __init__(self, broker: JobTableBroker, queue_name: str, *, prefetch: int, timeout_ms: int, batch: int) -> None:
        self.broker = broker
        self.queue_name = queue_name
        self.prefetch = max(1, int(prefetch))
        self.batch = min(max(1, int(batch)), self.prefetch)
        self.timeout_ms = max(0, int(timeout_ms))
        self._ready: deque[MessageProxy] = deque()
        self._held: set[str] = set()  # job ids delivered and not yet acked
        self._settled: set[str] = set()  # job ids acked since the current read began
        self._lock = threading.Lock()
        self._stale = True  # read the table at the next chance
        self._version: int | None = None
        self._next_due: float | None = None
        self._idle_pause = broker.poll_seconds
        self._next_read = 0.0  # without a change counter: when to read again

    def __next__(self) -> MessageProxy | None:
        """The next due row's message, or ``None`` after ``timeout_ms`` without one."""
        deadline = time.monotonic() + self.timeout_ms / 1000
        while True:
            if self._ready:
                return self._ready.popleft()
            generation = self.broker.generation
            rows = self.broker.rows
            may_read = rows is not None and self.broker.taking_jobs() and self._free() >= self._wanted()
            if may_read and rows is not None and self._should_read(rows):
                self._read(rows)
                if self._ready:
                    continue
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            if may_read and rows is not None and self._version is not None:
                if not self._watch(rows, generation, deadline):
                    return None
            elif self.broker.wait_change(generation, min(remaining, self._pause())):
                self._stale = True

    def _watch(self, rows: JobRows, generation: int, deadline: float) -> bool:
        """Wait, asking only the change counter every ``poll_seconds``, until something may have changed (``True``:
        a commit, a wake-up, a retry's time) or ``deadline`` passes (``False``)."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            step = min(remaining, self.broker.poll_seconds)
            if self._next_due is not None:
                step = min(step, max(0.0, self._next_due - time.time()))
            if self.broker.wait_change(generation, step):
                self._stale = True
                return True
            if self._next_due is not None and time.time() >= self._next_due:
                return True
            try:
                if rows.version() != self._version:
                    return True
            except Exception:
                return True  # the next look logs it

    def _should_read(self, rows: JobRows) -> bool:
        if self._next_due is not None and time.time() >= self._next_due:
            self._stale = True
        try:
            version = rows.version()
        except Exception:
            log.warning("could not ask the job table for changes", exc_info=True)
            return False
        if version is None:  # no change counter: read on a schedule, sooner while work keeps coming
            if time.monotonic() >= self._next_read:
                self._stale = True
        elif version != self._version:
            self._version = version
            self._stale = True
        return self._stale

    def _read(self, rows: JobRows) -> None:
        free = self._free()
        with self._lock:
            self._settled.clear()
            skip = len(self._held)
        try:
            found = rows.due(self.broker.kinds(), free + skip)
        except Exception:
            log.warning("could not read the due jobs; looking again shortly", exc_info=True)
            self._next_read = time.monotonic() + self.broker.idle_poll_seconds
            return
        self._stale = len(found.jobs) >= free + skip  # the limit was reached: more may be due
        self._next_due = found.next_due
        with self._lock:
            fresh = [(k, j) for k, j in found.jobs if str(j) not in self._held and str(j) not in self._settled][:free]
            for kind, job_id in fresh:
                self._held.add(str(job_id))
                self._ready.append(MessageProxy(row_message(self.queue_name, kind, job_id)))
        self._idle_pause = (
            self.broker.poll_seconds if fresh else min(2 * self._idle_pause, self.broker.idle_poll_seconds)
        )
        self._next_read = time.monotonic() + self._idle_pause

    def _pause(self) -> float:
        """How long to wait before looking again (a wake-up ends the wait sooner)."""
        pause = self.broker.poll_seconds
        if self.broker.rows is not None and self._version is None and self._free() >= self._wanted():
            pause = max(0.0, self._next_read - time.monotonic()) or pause
        if self._next_due is not None:
            pause = min(pause, max(0.0, self._next_due - time.time()))
        return pause

    def _free(self) -> int:
        with self._lock:
            return self.prefetch - len(self._held)

    def _wanted(self) -> int:
        """How many free slots make a read worth it: one when nothing is held, else a batch."""
        with self._lock:
            return self.batch if self._held else 1

    def _settle(self, messages: Iterable[MessageProxy]) -> None:
        with self._lock:
            for message in messages:
                self._held.discard(message.message_id)
                self._settled.add(message.message_id)
            wake = self.prefetch - len(self._held) >= (self.batch if self._held else 1)
        if wake:
            self.broker.wake()

    def ack(self, message: MessageProxy) -> None:
        """Free the message's slot; the row already says how its job ended."""
        self._settle([message])

    def nack(self, message: MessageProxy) -> None:
        """Free the message's slot (a failure is on the row: the job's boundary writes it there)."""
        self._settle([message])

    def requeue(self, messages: Iterable[MessageProxy]) -> None:
        """Forget messages delivered but not processed (worker shutdown): their rows are still queued."""
        self._settle(list(messages))

    def close(self) -> None:
        """Drop the messages read but not delivered (their rows are still queued)."""
        with self._lock:
            for message in self._ready:
                self._held.discard(message.message_id)
            self._ready.clear()

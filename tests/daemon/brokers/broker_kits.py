"""Helpers of the broker tests: one ``BrokerKit`` per broker kind, message helpers, child processes.

A kit opens any number of brokers on the same storage (a Redis namespace), so a test can play a
second process, a restart, or a competing consumer; it closes them all at teardown.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dramatiq.broker import Broker, Consumer, MessageProxy
from dramatiq.message import Message

from daemon.brokers import create_broker
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[3]
CHILD = Path(__file__).with_name("broker_child.py")
REDIS_URL = os.environ.get("STUDYJOBS_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")

#: A short heartbeat timeout so that crash redelivery is observable in a test: 1 s.
REDIS_OPTIONS: dict[str, Any] = {"heartbeat_timeout": 1000, "maintenance_chance": 1_000_000}


@dataclass
class BrokerKit:
    """Opens brokers of one kind on one shared storage and closes them afterwards."""

    kind: str
    url: str
    options: dict[str, Any]
    opened: list[Broker] = field(default_factory=list)

    def open(self, **overrides: Any) -> Broker:
        """A new broker instance on the kit's storage (as another process would open it)."""
        broker = create_broker(self.url, **{**self.options, **overrides})
        self.opened.append(broker)
        return broker

    def dead_letter_count(self, broker: Broker, queue_name: str) -> int:
        """How many messages of ``queue_name`` are dead-lettered."""
        return int(broker.client.zcard(f"{self.options['namespace']}:{queue_name}.XQ"))  # type: ignore[attr-defined]

    def close(self, broker: Broker) -> None:
        """Close one broker and its connection pool."""
        broker.close()
        broker.client.close()  # type: ignore[attr-defined]

    def close_all(self) -> None:
        for broker in self.opened:
            self.close(broker)
        self.opened.clear()


def make_message(queue_name: str, *args: Any, actor_name: str = "noop") -> Message[Any]:
    """A plain Dramatiq message (no actor needed to enqueue or consume it)."""
    return Message(queue_name=queue_name, actor_name=actor_name, args=args, kwargs={}, options={})


def unique_queue() -> str:
    """A queue name no other test uses."""
    return f"q{uuid.uuid4().hex[:10]}"


def take(consumer: Consumer, timeout: float) -> MessageProxy | None:
    """The next message of ``consumer`` within ``timeout`` seconds, or ``None``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = next(consumer)
        if message is not None:
            return message
    return None


@dataclass
class HeldSlot:
    """A consumer whose one slot holds ``first`` while ``waiter`` waits in its ``next()``, into ``received``."""

    consumer: Consumer
    first: MessageProxy
    received: list[MessageProxy | None]
    waiter: threading.Thread


@contextlib.contextmanager
def consumer_waiting_for_a_slot(
    broker: Broker, queue: str, waiting: Callable[[Consumer], bool], what: str
) -> Iterator[HeldSlot]:
    """Enqueue "one" on ``queue``, take it with a prefetch-1 consumer, then call ``next()`` on a thread until
    ``waiting(consumer)`` says it waits for the slot; on exit, join the thread and close the consumer."""
    broker.enqueue(make_message(queue, "one"))
    consumer = broker.consume(queue, prefetch=1, timeout=10_000)
    first = take(consumer, timeout=10)
    assert first is not None
    received: list[MessageProxy | None] = []
    waiter = threading.Thread(target=lambda: received.append(next(consumer)))  # its one slot is taken: it waits
    waiter.start()
    try:
        wait_until(lambda: waiting(consumer), timeout=10, what=what, interval=0.01)
        yield HeldSlot(consumer, first, received, waiter)
    finally:
        waiter.join(10)
        consumer.close()


class Child:
    """A broker in another process (``broker_child.py``), talking one line at a time on stdout."""

    def __init__(self, mode: str, kit: BrokerKit, queue_name: str, *extra: str) -> None:
        command = [sys.executable, str(CHILD), mode, kit.url, json.dumps(kit.options), queue_name, *extra]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE)
        self._buffer = b""

    def read_line(self, timeout: float) -> str:
        """The child's next line; fails the test when none comes within ``timeout`` seconds."""
        assert self.process.stdout is not None
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"the child process said nothing for {timeout} s")
            ready, _, _ = select.select([self.process.stdout], [], [], remaining)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 65536)
                if not chunk:
                    raise AssertionError(f"the child process ended (code {self.process.wait()}) without a line")
                self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode()

    def kill(self) -> None:
        """SIGKILL the child (no cleanup of any kind runs in it) and reap it."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=30)
        if self.process.stdout is not None:
            self.process.stdout.close()

    def wait(self, timeout: float) -> int:
        """Wait for the child to end by itself; return its exit code."""
        code = self.process.wait(timeout=timeout)
        if self.process.stdout is not None:
            self.process.stdout.close()
        return code


def held_by_a_child(kit: BrokerKit, broker: Broker, children: list[Child]) -> tuple[str, Message[Any], Child]:
    """Enqueue "long job" on a new queue of ``broker`` and let a child process take it and hold it (never ack);
    returns the queue, the message sent and the child (added to ``children``)."""
    queue = unique_queue()
    broker.declare_queue(queue)
    sent = broker.enqueue(make_message(queue, "long job"))
    holder = Child("hold", kit, queue)
    children.append(holder)
    assert holder.read_line(timeout=30) == sent.message_id
    return queue, sent, holder

"""Redis through Dramatiq's own :class:`dramatiq.brokers.redis.RedisBroker`, for teams that run several machines.

Dramatiq's broker already has what we need: unacked messages of a worker whose heartbeat is older than
``heartbeat_timeout`` (ms) are requeued by the periodic maintenance of any other worker, nacked messages are kept in
the queue's ``.XQ`` for ``dead_message_ttl`` ms, and delays go through the ``.DQ`` delay queues.

One change: Dramatiq's consumer, once it holds ``prefetch`` messages, sleeps a growing back-off (up to the worker
timeout) before it looks again, so with one message per thread every job was followed by an idle gap of up to
20 ms. Ours waits on a condition that its ack and nack signal, and fetches the next message the moment a slot is
free.
"""

from __future__ import annotations

import threading
from typing import Any
from urllib.parse import urlsplit

from dramatiq.broker import MessageProxy
from dramatiq.brokers.redis import RedisBroker as DramatiqRedisBroker
from dramatiq.brokers.redis import _RedisConsumer

__all__ = ["REDIS_SCHEMES", "RedisBroker", "create_redis_broker"]

REDIS_SCHEMES = ("redis", "rediss")


class _SlotWaitingConsumer(_RedisConsumer):  # type: ignore[misc]
    """Dramatiq's Redis consumer, woken by its own acks when all its prefetch slots are taken."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[no-untyped-call]
        self._slot_freed = threading.Condition()

    def ack(self, message: MessageProxy) -> None:
        try:
            super().ack(message)  # type: ignore[no-untyped-call]
        finally:
            self._signal()

    def nack(self, message: MessageProxy) -> None:
        try:
            super().nack(message)  # type: ignore[no-untyped-call]
        finally:
            self._signal()

    def _signal(self) -> None:
        with self._slot_freed:
            self._slot_freed.notify_all()

    def _full(self) -> bool:
        return not self.message_cache and self.outstanding_message_count >= self.prefetch

    def __next__(self) -> MessageProxy | None:
        if self._full():
            with self._slot_freed:
                self._slot_freed.wait_for(lambda: not self._full(), timeout=self.timeout / 1000)
            if self._full():
                return None
            self.misses = 0
        message: MessageProxy | None = super().__next__()  # type: ignore[no-untyped-call]
        return message


class RedisBroker(DramatiqRedisBroker):  # type: ignore[misc]
    """Dramatiq's Redis broker with a consumer that fetches again as soon as a message is acked."""

    @property
    def consumer_class(self) -> type[_RedisConsumer]:
        return _SlotWaitingConsumer


def create_redis_broker(url: str, *, middleware: list[Any] | None = None, **options: Any) -> RedisBroker:
    """A Dramatiq Redis broker for a ``redis://`` or ``rediss://`` URL.

    Nothing is contacted here: the first command opens the connection.

    Args:
        url: ``redis://[:password@]host[:port][/db]`` or ``rediss://…`` (TLS).
        middleware: The broker's middleware; Dramatiq's defaults when ``None``.
        **options: Passed on to :class:`RedisBroker` (``namespace``, ``heartbeat_timeout``, ``dead_message_ttl``,
            ``maintenance_chance`` …).

    Raises:
        ValueError: The URL is not a Redis URL.
    """
    if urlsplit(url).scheme.lower() not in REDIS_SCHEMES:
        raise ValueError(f"The URL {url!r} is not a Redis URL.")
    return RedisBroker(url=url, middleware=middleware, **options)  # type: ignore[no-untyped-call]

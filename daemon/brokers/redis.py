"""Redis through Dramatiq's own :class:`dramatiq.brokers.redis.RedisBroker`, for teams that run several machines.

Dramatiq's broker already has what we need: unacked messages of a worker whose heartbeat is older than
``heartbeat_timeout`` (ms) are requeued by the periodic maintenance of any other worker, nacked messages are kept in
the queue's ``.XQ`` for ``dead_message_ttl`` ms, and delays go through the ``.DQ`` delay queues.

One change: Dramatiq's consumer, once it holds ``prefetch`` messages, sleeps a growing back-off (up to the worker
timeout) before it looks again, so with one message per thread every job was followed by an idle gap of up to
20 ms. Ours waits on a condition that its ack and nack signal, and fetches the next message the moment a slot is
free.

And one addition: :meth:`RedisBroker.enqueue_many` sends many messages in one round trip (a pipeline of Dramatiq's own
``enqueue`` script calls): the supervisor dispatches the rows it found queued together, instead of one network
round trip per row.
"""

from __future__ import annotations

import threading
from typing import Any
from urllib.parse import urlsplit

import redis
from dramatiq.broker import MessageProxy
from dramatiq.brokers.redis import RedisBroker as DramatiqRedisBroker
from dramatiq.brokers.redis import _RedisConsumer
from dramatiq.message import Message

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


class _PipelinedScripts(dict[str, Any]):
    """The broker's Lua scripts; on a thread inside :meth:`RedisBroker.enqueue_many`, ``dispatch`` collects calls.

    Dramatiq's ``enqueue`` looks its ``dispatch`` script up here each time it sends, so a thread that batches gets
    a collector while every other thread (consumers, acks) keeps talking to Redis directly.
    """

    def __init__(self, scripts: dict[str, Any]) -> None:
        super().__init__(scripts)
        self.local = threading.local()

    def __getitem__(self, name: str) -> Any:
        bound: dict[str, Any] | None = getattr(self.local, "bound", None)
        if bound is not None and name in bound:
            return bound[name]
        return super().__getitem__(name)


class RedisBroker(DramatiqRedisBroker):  # type: ignore[misc]
    """Dramatiq's Redis broker with a consumer that fetches again as soon as a message is acked, and
    :meth:`enqueue_many`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[no-untyped-call]
        self.scripts = _PipelinedScripts(self.scripts)

    @property
    def consumer_class(self) -> type[_RedisConsumer]:
        return _SlotWaitingConsumer

    def _run_script_calls(self, sha: str, calls: list[list[Any]]) -> None:
        """Run the calls of one Lua script in one pipeline, by hash (redis-py's ``Script`` in a pipeline would ask
        Redis first whether it knows the script: one more round trip per batch)."""
        if not calls:
            return
        pipeline = self.client.pipeline(transaction=False)
        for call in calls:
            pipeline.evalsha(sha, *call)
        pipeline.execute()

    def enqueue_many(self, messages: list[Message[Any]]) -> list[Message[Any]]:
        """Enqueue messages (without delay) through Dramatiq's own ``enqueue``, sent to Redis in one round trip.

        Each message gets its middleware hooks and its Lua ``enqueue`` call as with :meth:`enqueue`; the calls go
        out together in a pipeline (not a transaction: a message that landed stays, as when sent one by one).

        Raises:
            redis.ConnectionError: Redis cannot be reached (some of the messages may have landed).
        """
        scripts = self.scripts
        assert isinstance(scripts, _PipelinedScripts)
        script = scripts["dispatch"]
        calls: list[list[Any]] = []

        def queue_call(*, args: list[Any], keys: list[Any]) -> None:
            calls.append([len(keys), *keys, *args])

        scripts.local.bound = {"dispatch": queue_call}
        try:
            sent = [self.enqueue(message) for message in messages]
        finally:
            scripts.local.bound = None
        try:
            self._run_script_calls(script.sha, calls)
        except redis.exceptions.NoScriptError:  # Redis restarted and forgot the script: none of the calls ran
            self.client.script_load(script.script)
            self._run_script_calls(script.sha, calls)
        return sent


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

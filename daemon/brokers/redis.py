"""Redis through Dramatiq's own :class:`dramatiq.brokers.redis.RedisBroker`, for teams that run several machines.

Dramatiq's requeue, dead-letter and delay behaviour is kept; the consumer fetches the next message as soon as an
ack or nack frees a slot, and :meth:`RedisBroker.enqueue_many` sends many enqueues in one round trip. Why and how:
docs/design/worker.md.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import redis
from dramatiq.broker import MessageProxy
from dramatiq.brokers.redis import RedisBroker as DramatiqRedisBroker
from dramatiq.brokers.redis import _RedisConsumer
from dramatiq.common import dq_name
from dramatiq.errors import ConnectionClosed
from dramatiq.message import Message

__all__ = ["REDIS_SCHEMES", "RedisBroker", "create_redis_broker"]

REDIS_SCHEMES = ("redis", "rediss")
DELAY_QUEUE_POLL_MS = 1000
"""The longest an idle delay-queue consumer sleeps between two looks at Redis. Its messages are retries whose time
comes seconds to minutes later, so a look every worker timeout (20 ms, which the main queue needs for a quick
dispatch) cost as much CPU as the main queue's polling for nothing; a due retry now moves at most a second late."""


class _SlotWaitingConsumer(_RedisConsumer):  # type: ignore[misc]
    """Dramatiq's Redis consumer, woken by its own acks when all its prefetch slots are taken.

    An ack made while the consumer waits for a slot (as under a Dramatiq worker, whose worker thread acks while
    the consumer thread waits) is handed to it: the consumer sends it together with its next fetch, in one round
    trip. A crash before that sends nothing: the message comes back after the heartbeat timeout, and a job's
    conditional claim turns it away.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[no-untyped-call]
        self._slot_freed = threading.Condition()
        self._waiting = False  # the consumer thread waits for a slot: acks are handed to it
        self._acks: list[str] = []  # handed acks: Redis message ids

    def ack(self, message: MessageProxy) -> None:
        with self._slot_freed:
            if self._waiting:
                self._acks.append(message.options["redis_message_id"])
                self.queued_message_ids.discard(message.message_id)
                self._slot_freed.notify_all()
                return
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
                self._waiting = True
                try:
                    self._slot_freed.wait_for(lambda: not self._full(), timeout=self.timeout / 1000)
                finally:
                    self._waiting = False
                acks, self._acks = self._acks, []
            if acks:
                self._ack_and_fetch(acks)
            if self._full():
                return None
            self.misses = 0
        message: MessageProxy | None = super().__next__()  # type: ignore[no-untyped-call]
        return message

    def _ack_and_fetch(self, acks: list[str]) -> None:
        """Send the handed acks and, when a slot is free, the next fetch: one round trip."""
        wanted = 0 if self.message_cache else self.prefetch - self.outstanding_message_count
        broker: RedisBroker = self.broker

        def calls() -> None:
            for redis_message_id in acks:
                broker.do_ack(self.queue_name, redis_message_id)
            if wanted > 0:
                broker.do_fetch(self.queue_name, wanted)

        try:
            replies = broker.pipelined(calls)
        except redis.ConnectionError as error:
            raise ConnectionClosed(error) from None  # type: ignore[no-untyped-call]
        if wanted > 0:
            self.message_cache = list(replies[-1] or [])


class _PipelinedScripts(dict[str, Any]):
    """The broker's Lua scripts; on a thread inside :meth:`RedisBroker.pipelined`, ``dispatch`` holds calls back.

    Dramatiq's ``do_*`` commands look the ``dispatch`` script up here at each call, so a thread that batches gets
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

    def consume(self, queue_name: str, prefetch: int = 1, timeout: int = 5000) -> _RedisConsumer:
        """Dramatiq's consumer of ``queue_name``; a delay queue's polls at most every :data:`DELAY_QUEUE_POLL_MS`."""
        if dq_name(queue_name) == queue_name:
            timeout = max(timeout, DELAY_QUEUE_POLL_MS)
        return self.consumer_class(self, queue_name, prefetch, timeout)

    def pipelined(self, calls: Callable[[], object]) -> list[Any]:
        """Run ``calls`` with the Lua calls it makes through Dramatiq's ``do_*`` commands (enqueue, ack, fetch …)
        held back, then send them all in one pipeline (not a transaction); return their replies, in order.

        Inside ``calls`` those commands return ``None``: their replies come from here.

        Raises:
            redis.ConnectionError: Redis cannot be reached (some of the calls may have run).
        """
        scripts = self.scripts
        assert isinstance(scripts, _PipelinedScripts)
        script = scripts["dispatch"]
        collected: list[list[Any]] = []

        def hold(*, args: list[Any], keys: list[Any]) -> None:
            collected.append([len(keys), *keys, *args])

        scripts.local.bound = {"dispatch": hold}
        try:
            calls()
        finally:
            scripts.local.bound = None
        try:
            return self._run_script_calls(script.sha, collected)
        except redis.exceptions.NoScriptError:  # Redis restarted and forgot the script: none of the calls ran
            self.client.script_load(script.script)
            return self._run_script_calls(script.sha, collected)

    def _run_script_calls(self, sha: str, calls: list[list[Any]]) -> list[Any]:
        """Run the calls of one Lua script in one pipeline, by hash (redis-py's ``Script`` in a pipeline would ask
        Redis first whether it knows the script: one more round trip per batch)."""
        if not calls:
            return []
        pipeline = self.client.pipeline(transaction=False)
        for call in calls:
            pipeline.evalsha(sha, *call)
        return list(pipeline.execute())

    def enqueue_many(self, messages: list[Message[Any]]) -> list[Message[Any]]:
        """Enqueue messages (without delay) through Dramatiq's own ``enqueue``, sent to Redis in one round trip.

        Each message gets its middleware hooks and its Lua ``enqueue`` call as with :meth:`enqueue`; the calls go
        out together in a pipeline (not a transaction: a message that landed stays, as when sent one by one).

        Raises:
            redis.ConnectionError: Redis cannot be reached (some of the messages may have landed).
        """
        sent: list[Message[Any]] = []
        self.pipelined(lambda: sent.extend(self.enqueue(message) for message in messages))
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

"""Redis through Dramatiq's own :class:`dramatiq.brokers.redis.RedisBroker`, for teams that run several machines.

Dramatiq's broker already has what we need: unacked messages of a worker whose heartbeat is older than
``heartbeat_timeout`` (ms) are requeued by the periodic maintenance of any other worker, nacked messages are kept in
the queue's ``.XQ`` for ``dead_message_ttl`` ms, and delays go through the ``.DQ`` delay queues.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from dramatiq.brokers.redis import RedisBroker
from dramatiq.middleware import Middleware

__all__ = ["REDIS_SCHEMES", "RedisBroker", "create_redis_broker"]

REDIS_SCHEMES = ("redis", "rediss")


def create_redis_broker(url: str, *, middleware: list[Middleware] | None = None, **options: Any) -> RedisBroker:
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

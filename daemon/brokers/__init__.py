"""The daemon's Dramatiq brokers and the factory that chooses one from a URL (``sqlite:///…`` or ``redis://…``).

Set the broker before any actor module is imported (``dramatiq.set_broker(create_broker(url))``, then
``import daemon.actors``). The concrete brokers never import this factory. Design: docs/design/worker.md.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

from dramatiq.broker import Broker
from dramatiq.middleware import CurrentMessage, Middleware, ShutdownNotifications

from daemon.brokers.jobs import JobRows, JobTableBroker
from daemon.brokers.redis import REDIS_SCHEMES, create_redis_broker
from daemon.middleware import JobAsyncIO

__all__ = ["ALLOWED_SCHEMES", "JobRows", "JobTableBroker", "create_broker", "default_middleware"]

ALLOWED_SCHEMES = ("sqlite", *REDIS_SCHEMES)


def default_middleware() -> list[Middleware]:
    """Fresh instances of our middleware: ``ShutdownNotifications``, ``AsyncIO`` (``async def`` actors, through
    :class:`daemon.middleware.JobAsyncIO`) and ``CurrentMessage``.

    Left out of Dramatiq's defaults: ``Retries`` and ``TimeLimit`` (the job store owns retries, with its own
    backoff, and a study guide may take hours), and ``AgeLimit``, ``Callbacks`` and ``Pipelines``, which our
    actors do not use (no ``max_age``, no ``on_success``, no pipelines) and which every message would otherwise
    pass through. Without ``Retries``, nothing fails a message whose actor raised: it is acked; the actor wrapper
    records the error on the job.
    """
    return [ShutdownNotifications(), JobAsyncIO(), CurrentMessage()]


def create_broker(url: str, *, middleware: list[Middleware] | None = None, **options: Any) -> Broker:
    """The broker named by ``url``, with :func:`default_middleware` unless ``middleware`` is given.

    Nothing is registered globally: call :func:`dramatiq.set_broker` with the result before importing actors.

    Args:
        url: ``sqlite:///…`` (any SQLite URL: the job table of the store the daemon attaches, see
            :meth:`JobTableBroker.attach`), ``redis://…`` or ``rediss://…``.
        middleware: The whole middleware list to use instead of :func:`default_middleware`.
        **options: Passed on to the broker's class (:class:`JobTableBroker`: ``poll_seconds``, ``claim_batch`` …;
            Dramatiq's ``RedisBroker``: ``namespace``, ``heartbeat_timeout`` …).

    Raises:
        ValueError: The URL's scheme is none of ``sqlite``, ``redis``, ``rediss``.
    """
    chosen = default_middleware() if middleware is None else middleware
    scheme = urlsplit(url).scheme.lower() if "://" in url else ""
    if scheme == "sqlite" or scheme.startswith("sqlite+"):
        return JobTableBroker(middleware=chosen, **options)
    if scheme in REDIS_SCHEMES:
        return create_redis_broker(url, middleware=chosen, **options)
    raise ValueError(
        f"The broker URL {_redacted(url)!r} is not supported; use one of the schemes {', '.join(ALLOWED_SCHEMES)}."
    )


def _redacted(url: str) -> str:
    """``url`` with any password replaced by ``***`` (the URL ends up in logs)."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
        return urlunsplit(parts._replace(netloc=netloc))
    except ValueError:
        return url

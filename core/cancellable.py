"""``run_cancellable``: a checkpoint that runs *during* the work, not between steps."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Awaitable, Callable
from typing import TypeVar

from core.errors import StageInterruptedError

__all__ = ["run_cancellable"]

log = logging.getLogger(__name__)
T = TypeVar("T")


async def run_cancellable(
    work: Awaitable[T],
    *,
    interrupted: Callable[[], Awaitable[bool]],
    poll_seconds: float = 2.0,
    stop_event: threading.Event | None = None,
) -> T:
    """Run ``work`` while polling ``interrupted()`` every ``poll_seconds``; stop it for real when told to.

    When the predicate says stop, ``stop_event`` is set first (so a thread doing the work — local inference —
    stops too), then the coroutine is cancelled (an in-flight HTTP request is aborted) and
    :class:`StageInterruptedError` is raised. A predicate that raises is logged and ignored: a database hiccup is
    never a cancel. If the caller itself is cancelled, the work is cancelled with it.

    Work handed to a thread (``asyncio.to_thread``) is *not* stopped by cancelling its coroutine: the thread must
    watch ``stop_event``.

    Returns:
        What ``work`` returned.

    Raises:
        StageInterruptedError: the predicate asked to stop.
    """
    if poll_seconds <= 0:
        raise ValueError("poll_seconds must be positive")
    task: asyncio.Future[T] = asyncio.ensure_future(work)
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=poll_seconds)
            if done:
                return task.result()
            try:
                stop = await interrupted()
            except Exception:
                log.warning("cancellation check failed; carrying on", exc_info=True)
                continue
            if stop:
                if stop_event is not None:
                    stop_event.set()
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task  # whatever the stopped work raises on its way out is not the news
                raise StageInterruptedError("the job was cancelled")
    finally:
        if not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task

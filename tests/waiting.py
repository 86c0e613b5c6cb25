"""The one way a test waits: poll a condition until it holds, or fail naming what was awaited and for how long.

Tests never sleep a fixed time to let something happen. :func:`wait_until` blocks the calling thread;
:func:`async_wait_until` is its twin for coroutines, which must not block their event loop (in the GUI tests the
qasync loop: never ``qtbot.wait*`` there). Both return the condition's first truthy value, so a wait can hand over
what it waited for (``(row,) = wait_until(lambda: rows(), ...)``).
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

INTERVAL = 0.05
"""Seconds between two looks when the caller names none: short next to a process's start, cheap for a database."""


def timed_out(what: str, timeout: float) -> str:
    """The failure message of a wait: what was awaited and for how long."""
    return f"timed out after {timeout} s waiting for {what}"


def wait_until(condition: Callable[[], T], *, timeout: float, what: str, interval: float = INTERVAL) -> T:
    """Call ``condition`` every ``interval`` seconds until it returns something truthy, and return that; fail the
    test with :func:`timed_out` once ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(timed_out(what, timeout))
        time.sleep(interval)
    return value


async def async_wait_until(
    condition: Callable[[], T | Awaitable[T]], *, timeout: float, what: str, interval: float = INTERVAL
) -> T:
    """:func:`wait_until` for a coroutine: ``condition`` may be a plain function or return an awaitable, and the
    looks are ``asyncio.sleep`` apart, so the event loop runs meanwhile."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value  # type: ignore[return-value]
        if time.monotonic() > deadline:
            raise AssertionError(timed_out(what, timeout))
        await asyncio.sleep(interval)

"""The daemon's ``AsyncIO`` middleware: Dramatiq's, with a shorter hand-over between a worker thread and the loop.

:class:`JobLoopThread` runs every actor's coroutine on the one job event loop and wakes the Dramatiq worker thread
that submitted it; an interrupt cancels the task as Dramatiq's does. How it differs from Dramatiq's:
docs/design/worker.md.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Coroutine
from typing import Any, TypeVar

from dramatiq.asyncio import EventLoopThread, set_event_loop_thread
from dramatiq.broker import Broker
from dramatiq.middleware import AsyncIO
from dramatiq.threading import Interrupt
from dramatiq.worker import Worker

__all__ = ["JobAsyncIO", "JobLoopThread"]

R = TypeVar("R")

CLEANUP_WAIT = 1.0
"""How long a worker thread waits, after an interrupt, for the cancelled coroutine to finish (Dramatiq's value)."""


class _Outcome:
    """What the coroutine returned or raised, written on the loop thread before ``done`` is set, read after."""

    __slots__ = ("cancel_requested", "done", "error", "result", "started", "task")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None
        self.task: asyncio.Task[None] | None = None
        self.started = False  # the coroutine has begun (only then may its task be cancelled)
        self.cancel_requested = False


class JobLoopThread(EventLoopThread):
    """Dramatiq's event-loop thread with a cheaper :meth:`run_coroutine` (see docs/design/worker.md).

    Threading: :meth:`run_coroutine` is called from worker threads; everything it schedules runs on the loop.
    """

    def run_coroutine(self, coro: Awaitable[R]) -> R:
        """Run ``coro`` on the loop and return its result (or raise its error) in the calling thread.

        Raises:
            RuntimeError: The loop is not running, or after an interrupt the coroutine did not finish in time.
            Interrupt: Raised in this thread while it waited; the coroutine was cancelled first.
        """
        if not self.loop.is_running():
            raise RuntimeError("Event loop is not running.")
        outcome = _Outcome()
        try:
            self.loop.call_soon_threadsafe(self._start, coro, outcome)
            # Short waits, not one: an Interrupt raised in this thread is only delivered between two of them.
            while not outcome.done.wait(timeout=self.interrupt_check_ival):
                pass
        except Interrupt as interrupt:
            self.loop.call_soon_threadsafe(_cancel, outcome)
            if not outcome.done.wait(timeout=CLEANUP_WAIT):
                raise RuntimeError("Timed out while waiting for coroutine.") from interrupt
            if outcome.task is None and isinstance(coro, Coroutine):
                coro.close()  # interrupted before its start was queued: it never ran
            raise
        error, outcome.error = outcome.error, None  # no cycle: error → traceback → this frame → outcome → error
        if error is not None:
            try:
                raise error
            finally:
                del error
        result: R = outcome.result
        return result

    def _start(self, coro: Awaitable[Any], outcome: _Outcome) -> None:
        outcome.task = self.loop.create_task(_run(coro, outcome))


async def _run(coro: Awaitable[Any], outcome: _Outcome) -> None:
    try:
        if outcome.cancel_requested:  # interrupted before it began: it never runs
            if isinstance(coro, Coroutine):
                coro.close()
            return
        outcome.started = True
        outcome.result = await coro
    except BaseException as error:  # handed to the waiting worker thread, which raises it
        outcome.error = error
    finally:
        outcome.done.set()


def _cancel(outcome: _Outcome) -> None:
    """On the loop: cancel the coroutine if it has begun, else make sure it never does, and that the worker is woken.

    A task cancelled before its first step would never enter :func:`_run`'s ``finally``, and the worker would wait
    for nothing. No task means its start was never queued: the worker queues the start before the cancel, and the
    loop runs callbacks in order.
    """
    outcome.cancel_requested = True
    if outcome.task is None:
        outcome.done.set()
    elif outcome.started:
        outcome.task.cancel()


class JobAsyncIO(AsyncIO):
    """Dramatiq's ``AsyncIO`` middleware, running async actors on a :class:`JobLoopThread` (its shutdown is
    Dramatiq's: stop the loop, join the thread)."""

    def before_worker_boot(self, broker: Broker, worker: Worker) -> None:
        loop_thread = JobLoopThread(self.logger)
        loop_thread.start(timeout=1.0)
        set_event_loop_thread(loop_thread)

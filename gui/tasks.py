"""Background coroutines of the window, on the qasync loop, with their errors brought to the error dialog.

A :class:`TaskGroup` starts coroutines with a name, keeps them until they end, reports an exception through the
:class:`~gui.error_dialog.ErrorReporter` (a coroutine's error is never silent), and cancels and awaits them all on
:meth:`TaskGroup.close` — so the window can close without a pending task touching a disposed engine. A
:class:`Rerun` runs one kind of read at most once at a time (a request while it runs asks for one more run after).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any, TypeVar

from gui.error_dialog import ErrorReporter

__all__ = ["Rerun", "TaskGroup", "run_loop_until"]

log = logging.getLogger(__name__)

T = TypeVar("T")


def run_loop_until(loop: asyncio.AbstractEventLoop, work: Awaitable[T]) -> T:
    """Run the qasync ``loop`` until ``work`` ends; its result. Use instead of ``loop.run_until_complete``.

    qasync's ``run_until_complete`` processes Qt's events once more after the loop has stopped, so a coroutine step
    queued then runs with no running loop (asyncio's primitives fail: "no running event loop"). Here nothing runs
    once the loop stops: what is queued runs the next time the loop runs.
    """
    future = asyncio.ensure_future(work, loop=loop)

    def stop(_future: asyncio.Future[T]) -> None:
        loop.stop()

    future.add_done_callback(stop)
    try:
        loop.run_forever()
    finally:
        future.remove_done_callback(stop)
    if not future.done():
        raise RuntimeError("the event loop stopped before the work was done")
    return future.result()


class TaskGroup:
    """The window's running coroutines. Use from the UI thread (the qasync loop's thread).

    Args:
        reporter: Where unexpected errors go.
    """

    def __init__(self, reporter: ErrorReporter) -> None:
        self.reporter = reporter
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closed = False

    def start(
        self,
        coro: Coroutine[Any, Any, Any],
        *,
        name: str = "gui-task",
        on_error: Callable[[BaseException], bool] | None = None,
    ) -> asyncio.Task[Any] | None:
        """Run ``coro`` on the event loop; ``None`` (and the coroutine closed) once the group is closed.

        Args:
            coro: The work.
            name: For the log.
            on_error: Called with an exception first; returning ``True`` means it was handled (not reported).
        """
        if self.closed:
            coro.close()
            return None
        loop = asyncio.get_event_loop()
        task = loop.create_task(coro, name=name)
        self.tasks.add(task)

        def done(t: asyncio.Task[Any]) -> None:
            self.tasks.discard(t)
            if t.cancelled():
                return
            exc = t.exception()
            if exc is None or self.closed:
                if exc is not None:
                    log.warning("task %s failed during shutdown: %s", name, exc)
                return
            if on_error is not None and on_error(exc):
                return
            self.reporter.report(exc)

        task.add_done_callback(done)
        return task

    async def close(self, *, grace: float = 1.0, cancel_first: Iterable[asyncio.Task[Any] | None] = ()) -> None:
        """Let running queries finish (up to ``grace`` seconds), then cancel what is left and wait for it.

        Args:
            grace: Seconds to let short tasks end by themselves (a query cancelled mid-flight is logged by the
                pool as an error, harmless but noisy).
            cancel_first: Long-lived tasks (a watch) to cancel at once.
        """
        self.closed = True
        for task in cancel_first:
            if task is not None:
                task.cancel()
        if self.tasks and grace > 0:
            await asyncio.wait(list(self.tasks), timeout=grace)
        pending = list(self.tasks)
        for task in pending:
            task.cancel()
        for task in pending:
            with contextlib.suppress(BaseException):
                await task
        self.tasks.clear()


class Rerun:
    """One coroutine run on a :class:`TaskGroup` at most once at a time; a request while it runs runs it once more
    after it (a change seen during a read is never lost, and reads never pile up). UI thread only.

    Args:
        tasks: Where the runs go (their errors reach the reporter; a failed run does not stop later ones).
        make: Makes the coroutine of one run.
        name: The tasks' name, for the log.
    """

    def __init__(self, tasks: TaskGroup, make: Callable[[], Coroutine[Any, Any, Any]], *, name: str) -> None:
        self.tasks, self.make, self.name = tasks, make, name
        self.busy = False
        self._again = False

    def request(self) -> None:
        """Run now, or, while a run is under way, once more after it."""
        if self.busy:
            self._again = True
            return
        task = self.tasks.start(self.make(), name=self.name)
        if task is not None:
            self.busy = True
            task.add_done_callback(self._done)

    def _done(self, _task: asyncio.Task[Any]) -> None:
        self.busy = False
        if self._again:
            self._again = False
            self.request()

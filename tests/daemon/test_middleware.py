"""The daemon's AsyncIO middleware: a real loop thread, real worker threads, and a real asynchronous interrupt."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import dramatiq
import pytest
from dramatiq.asyncio import get_event_loop_thread
from dramatiq.brokers.stub import StubBroker
from dramatiq.middleware import Shutdown
from dramatiq.threading import raise_thread_exception

from daemon.middleware import JobAsyncIO, JobLoopThread
from tests.waiting import wait_until


@pytest.fixture
def loop_thread() -> Iterator[JobLoopThread]:
    thread = JobLoopThread(dramatiq.get_logger(__name__), interrupt_check_ival=0.05)
    thread.start(timeout=1.0)
    try:
        yield thread
    finally:
        thread.stop()


def _queued_callbacks(loop_thread: JobLoopThread) -> int:
    """How many callbacks wait in the loop's ready queue. CPython's ``BaseEventLoop._ready``: nothing public tells
    that another thread has queued a callback."""
    return len(loop_thread.loop._ready)  # type: ignore[attr-defined]


def test_a_coroutine_runs_on_the_loop_thread_and_its_result_comes_back(loop_thread: JobLoopThread):
    async def where() -> str:
        await asyncio.sleep(0)
        return threading.current_thread().name

    assert loop_thread.run_coroutine(where()) == loop_thread.name


def test_a_coroutine_error_is_raised_in_the_calling_thread_with_its_traceback(loop_thread: JobLoopThread):
    async def broken() -> None:
        raise LookupError("no such document")

    with pytest.raises(LookupError, match="no such document") as raised:
        loop_thread.run_coroutine(broken())
    assert any(entry.name == "broken" for entry in raised.traceback)


def test_many_worker_threads_share_the_loop_and_each_gets_its_own_result(loop_thread: JobLoopThread):
    async def double(value: int) -> int:
        await asyncio.sleep(0.001)
        return 2 * value

    results: dict[int, int] = {}

    def work(first: int) -> None:
        for value in range(first, first + 50):
            results[value] = loop_thread.run_coroutine(double(value))

    threads = [threading.Thread(target=work, args=(start,)) for start in (0, 50, 100, 150)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == {value: 2 * value for value in range(200)}


def test_an_interrupt_cancels_the_coroutine_waits_for_its_cleanup_and_is_raised_again(loop_thread: JobLoopThread):
    started, cleaned_up = threading.Event(), threading.Event()
    raised: list[BaseException] = []

    async def long_job() -> None:
        started.set()
        try:
            await asyncio.sleep(60)
        finally:
            await asyncio.sleep(0.05)  # clean-up that itself awaits
            cleaned_up.set()

    def worker() -> None:
        try:
            loop_thread.run_coroutine(long_job())
        except BaseException as error:  # the interrupt is what this test looks at
            raised.append(error)

    thread = threading.Thread(target=worker)
    thread.start()
    assert started.wait(5)
    raise_thread_exception(thread.ident, Shutdown)
    thread.join(5)
    assert not thread.is_alive()
    assert cleaned_up.is_set()
    assert len(raised) == 1 and isinstance(raised[0], Shutdown)


def test_an_interrupt_before_the_coroutine_began_ends_the_wait_at_once_and_the_coroutine_never_runs(
    loop_thread: JobLoopThread,
):
    loop_busy, release_loop = threading.Event(), threading.Event()
    ran: list[str] = []
    raised: list[BaseException] = []

    def hold_the_loop() -> None:
        loop_busy.set()
        release_loop.wait(5)

    async def job() -> None:
        ran.append("job")

    def worker() -> None:
        try:
            loop_thread.run_coroutine(job())
        except BaseException as error:  # the interrupt is what this test looks at
            raised.append(error)

    loop_thread.loop.call_soon_threadsafe(hold_the_loop)
    assert loop_busy.wait(5)
    queued = _queued_callbacks(loop_thread)  # the loop may hold its own wake-up callback too
    thread = threading.Thread(target=worker)
    thread.start()
    wait_until(
        lambda: _queued_callbacks(loop_thread) == queued + 1,
        what="the coroutine's start queued",
        timeout=10.0,
        interval=0.01,
    )
    raise_thread_exception(thread.ident, Shutdown)
    wait_until(
        lambda: _queued_callbacks(loop_thread) == queued + 2,
        what="the interrupted worker's cancel queued",
        timeout=10.0,
        interval=0.01,
    )
    started = time.monotonic()
    release_loop.set()
    thread.join(5)
    assert not thread.is_alive()
    assert time.monotonic() - started < 0.5  # not the 1 s clean-up wait, which would end in RuntimeError
    assert len(raised) == 1 and isinstance(raised[0], Shutdown)
    assert ran == []


def test_run_coroutine_refuses_when_the_loop_is_not_running():
    thread = JobLoopThread(dramatiq.get_logger(__name__))

    async def nothing() -> None:
        return None

    coroutine = nothing()
    with pytest.raises(RuntimeError, match="not running"):
        thread.run_coroutine(coroutine)
    coroutine.close()
    thread.loop.close()


def test_the_middleware_runs_async_actors_on_its_loop_thread_for_a_real_worker():
    broker = StubBroker(middleware=[JobAsyncIO()])
    seen: list[str] = []

    @dramatiq.actor(broker=broker)
    async def remember(word: str) -> None:
        await asyncio.sleep(0)
        seen.append(word)

    worker = dramatiq.Worker(broker, worker_threads=2, worker_timeout=50)
    worker.start()
    try:
        assert isinstance(get_event_loop_thread(), JobLoopThread)
        for word in ("um", "dois", "três"):
            remember.send(word)
        broker.join(remember.queue_name, timeout=10_000)
        worker.join()
    finally:
        worker.stop()
    assert sorted(seen) == sorted(["um", "dois", "três"])
    assert get_event_loop_thread() is None

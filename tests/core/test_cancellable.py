"""run_cancellable: the checkpoint that runs during the work."""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest

from core import JobStore, StageInterruptedError, run_cancellable
from tests.waiting import async_wait_until


async def never() -> bool:
    return False


async def test_work_that_is_not_interrupted_returns_its_result():
    async def work() -> str:
        await asyncio.sleep(0.02)
        return "resumo"

    assert await run_cancellable(work(), interrupted=never, poll_seconds=0.005) == "resumo"


async def test_work_that_fails_raises_its_own_error():
    async def work() -> None:
        raise KeyError("x")

    with pytest.raises(KeyError):
        await run_cancellable(work(), interrupted=never, poll_seconds=0.01)


async def test_a_stop_sets_the_event_first_then_really_cancels_the_coroutine():
    stop = threading.Event()
    order: list[str] = []

    async def work() -> None:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            order.append(f"cancelled with event {'set' if stop.is_set() else 'clear'}")
            raise

    async def now() -> bool:
        return True

    with pytest.raises(StageInterruptedError):
        await run_cancellable(work(), interrupted=now, poll_seconds=0.01, stop_event=stop)
    assert order == ["cancelled with event set"]


async def test_a_predicate_that_raises_is_logged_and_ignored(caplog):
    calls = 0

    async def flaky() -> bool:
        nonlocal calls
        calls += 1
        raise OSError("database is locked")

    async def work() -> int:
        await asyncio.sleep(0.05)
        return 7

    with caplog.at_level(logging.WARNING):
        assert await run_cancellable(work(), interrupted=flaky, poll_seconds=0.005) == 7
    assert calls > 0
    assert "cancellation check failed" in caplog.text


async def test_cancelling_the_caller_cancels_the_work():
    started = asyncio.Event()
    cancelled = asyncio.Event()

    async def work() -> None:
        started.set()
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    outer = asyncio.create_task(run_cancellable(work(), interrupted=never, poll_seconds=0.01))
    await started.wait()
    outer.cancel()
    with pytest.raises(asyncio.CancelledError):
        await outer
    assert cancelled.is_set()


async def test_a_store_cancel_reaches_a_thread_through_the_stop_event(store: JobStore):
    job = await store.enqueue("generate")
    await store.claim(job.id)
    stop = threading.Event()
    tokens: list[int] = []

    def decode() -> str:
        while not stop.is_set():
            tokens.append(1)
            stop.wait(0.001)
        return "partial"

    runner = asyncio.create_task(
        run_cancellable(
            asyncio.to_thread(decode),
            interrupted=store.cancellation_watch(job.id),
            poll_seconds=0.01,
            stop_event=stop,
        )
    )
    await async_wait_until(lambda: len(tokens) > 5, timeout=10.0, interval=0.01, what="a few tokens")
    await store.cancel(job.id, reason="cancelado pelo usuário")
    with pytest.raises(StageInterruptedError):
        await asyncio.wait_for(runner, 5)
    assert stop.is_set()
    count = len(tokens)
    await asyncio.sleep(0.02)
    assert len(tokens) <= count + 1

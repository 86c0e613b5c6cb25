"""The window's event loop runs no coroutine step once it has stopped (qasync's ``run_until_complete`` does)."""

from __future__ import annotations

import asyncio

import qasync

from gui.tasks import run_loop_until


def _probe(outside: list[int], steps: int) -> asyncio.Task[None]:
    """A task that takes ``steps`` steps and notes each one taken with no running loop."""

    async def probe() -> None:
        for step in range(steps):
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                outside.append(step)
            await asyncio.sleep(0)

    return asyncio.get_running_loop().create_task(probe())


def test_steps_queued_when_the_work_ends_wait_for_the_next_run_of_the_loop(qloop: qasync.QEventLoop) -> None:
    outside: list[int] = []

    async def work() -> asyncio.Task[None]:
        return _probe(outside, 50)  # its steps are queued when the work ends, and the loop stops

    task = run_loop_until(qloop, work())
    assert not task.done()  # nothing of it ran after the loop stopped
    run_loop_until(qloop, task)
    assert outside == []


def test_the_work_s_error_and_result_come_back(qloop: qasync.QEventLoop) -> None:
    async def fails() -> None:
        raise ValueError("no")

    async def answers() -> int:
        return 42

    try:
        run_loop_until(qloop, fails())
    except ValueError as error:
        assert str(error) == "no"
    else:
        raise AssertionError("the error was lost")
    assert run_loop_until(qloop, answers()) == 42

"""The broker adaptation for the seed's samples: tasks run in this process as soon as they are enqueued.

The seed's samples use ``TaskQueue.rabbitmq(...)`` from its SDK; StudyJobs' real broker is Dramatiq (see
``daemon/``). For the contract test of ``core`` the task only needs to run, so this stands in for the broker.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

PENDING: set[asyncio.Task[Any]] = set()


class _Task:
    def __init__(self, fn: Callable[..., Awaitable[Any]]) -> None:
        self.fn = fn

    async def __call__(self, *args: Any) -> Any:
        return await self.fn(*args)

    async def enqueue(self, *args: Any) -> None:
        task = asyncio.get_running_loop().create_task(self.fn(*args))
        PENDING.add(task)
        task.add_done_callback(PENDING.discard)


class TaskQueue:
    @classmethod
    def rabbitmq(cls, url: str, *, resources: list[Any]) -> TaskQueue:
        return cls()

    def task(self, fn: Callable[..., Awaitable[Any]]) -> _Task:
        return _Task(fn)

    def interval(self, *, seconds: float) -> Callable[[Callable[..., Awaitable[Any]]], _Task]:
        return self.task


async def drain() -> None:
    while PENDING:
        await asyncio.gather(*list(PENDING))

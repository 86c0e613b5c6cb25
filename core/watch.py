"""Watching jobs without holding a session between ticks: :func:`watch_job` (one job until it ends),
:func:`watch_jobs` (several jobs, each with its children) and :func:`watch_table` (the table may have changed).

Async generators for one event loop, served by that loop's :class:`core.watch_hub.ChangeHub`
(design: docs/design/jobs.md, "Watching").
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncGenerator, AsyncIterator, Iterable, Sequence
from typing import Any

from core.db import AsyncDatabaseManager
from core.models import BaseJobModel
from core.rows import read_row
from core.status import TERMINAL_JOB_STATUSES
from core.watch_hub import Subscription, hub_of, watchers

__all__ = ["DEFAULT_EMIT_ON", "watch_job", "watch_jobs", "watch_table", "watchers"]

DEFAULT_EMIT_ON: tuple[str, ...] = ("status",)
_TERMINAL = frozenset(s.value for s in TERMINAL_JOB_STATUSES)


def _checked(model: type[BaseJobModel], interval: float, emit_on: Sequence[str]) -> tuple[str, ...]:
    """``emit_on`` as a tuple, once ``interval`` and every name in it are known to be valid."""
    if interval <= 0:
        raise ValueError("interval must be positive")
    fields = tuple(emit_on)
    for name in fields:
        if not hasattr(model, name):
            raise ValueError(f"emit_on names an unknown attribute: {name!r}")
    return fields


def _snapshot(job: Any, emit_on: Sequence[str]) -> tuple[Any, ...]:
    return tuple(getattr(job, name) for name in emit_on)


async def watch_job(
    db: AsyncDatabaseManager,
    model: type[BaseJobModel],
    job_id: uuid.UUID,
    *,
    interval: float,
    timeout: float | None,
    emit_on: Sequence[str],
) -> AsyncIterator[Any]:
    """Yield the job now, then on every change of an ``emit_on`` attribute, and always its terminal row; then end.

    A subscriber that arrives after the end gets exactly one row. Rows come without their payload
    (:mod:`core.rows`).

    Args:
        db: The database to read from.
        model: The job table.
        job_id: The job to follow.
        interval: Seconds between looks.
        timeout: Give up with :class:`TimeoutError` after this many seconds without reaching a terminal status.
        emit_on: Attribute names whose change yields a row (``"status"``, ``"progress"``, ``"stage"``,
            ``"message"``, ``"detail"`` …). The terminal row is yielded whatever this says.

    Raises:
        JobNotFoundError: the job does not exist (or was deleted while watched).
        TimeoutError: ``timeout`` passed first.
    """
    fields = _checked(model, interval, emit_on)
    loop = asyncio.get_running_loop()
    deadline = None if timeout is None else loop.time() + timeout
    job = await read_row(db, model, job_id, whole=False)
    yield job
    if job.status in _TERMINAL:
        return
    last = _snapshot(job, fields)
    hub = hub_of(db, model)
    seen = {job_id: ((job.status, job.updated_at), None)}
    sub = hub.subscribe(Subscription([job_id], interval=interval, tokens=seen))
    try:
        while True:
            remaining = None if deadline is None else deadline - loop.time()
            if remaining is not None and remaining <= 0:
                raise TimeoutError(f"job {job_id} did not finish within {timeout} s")
            try:
                await asyncio.wait_for(sub.changed.wait(), remaining)
            except TimeoutError:
                raise TimeoutError(f"job {job_id} did not finish within {timeout} s") from None
            sub.take()
            job = await read_row(db, model, job_id, whole=False)
            if job.status in _TERMINAL:
                yield job
                return
            snapshot = _snapshot(job, fields)
            if snapshot != last:
                last = snapshot
                yield job
    finally:
        await hub.unsubscribe(sub)


async def watch_jobs(
    db: AsyncDatabaseManager,
    model: type[BaseJobModel],
    job_ids: Iterable[uuid.UUID],
    *,
    children: str | None = None,
    interval: float,
) -> AsyncGenerator[frozenset[uuid.UUID], None]:
    """Yield every id of ``job_ids`` at once, then, whenever some of them changed, the ids that did; never ends.

    A job changes when its status or ``updated_at`` does, when it is deleted, and — with ``children``, the name of
    the column by which a job names its parent (``"parent_id"``) — when one of its children is added, changes or is
    deleted. The caller reads what it needs of the changed jobs; end the watch by leaving the loop or cancelling.

    Args:
        db: The database to read from.
        model: The job table.
        job_ids: The jobs to watch.
        children: The parent column of ``model`` whose rows count as each job's own, or ``None``.
        interval: Seconds between looks (a look costs no query while nothing was committed).

    Raises:
        ValueError: ``interval`` is not positive, or ``children`` names no column of ``model``.
    """
    _checked(model, interval, () if children is None else (children,))
    ids = frozenset(job_ids)
    hub = hub_of(db, model)
    sub = hub.subscribe(Subscription(ids, interval=interval, children=children, tokens=await hub.tokens(ids, children)))
    try:
        yield ids
        while True:
            await sub.changed.wait()
            changed = sub.take()
            if changed:
                yield changed
    finally:
        await hub.unsubscribe(sub)


async def watch_table(
    db: AsyncDatabaseManager, model: type[BaseJobModel], *, interval: float, blind_interval: float
) -> AsyncGenerator[None, None]:
    """Yield at once, then each time something may have changed in the table (rows added, changed or deleted).

    On SQLite that is any commit to the file since the last look; on PostgreSQL a job that became queued
    (a notification), and otherwise every ``blind_interval`` seconds, since nothing says what changed. Never ends.

    Args:
        db: The database to read from.
        model: The job table.
        interval: Seconds between looks where commits can be seen (SQLite: a look costs microseconds).
        blind_interval: Seconds between yields where they cannot.
    """
    _checked(model, min(interval, blind_interval), ())
    hub = hub_of(db, model)
    sub = hub.subscribe(Subscription(None, interval=interval, blind_interval=blind_interval, version=db.data_version()))
    try:
        yield None
        while True:
            await sub.changed.wait()
            sub.take()
            yield None
    finally:
        await hub.unsubscribe(sub)

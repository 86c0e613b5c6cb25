"""``watch``: follow one job until it ends, cheaply, without ever holding a session between ticks.

Change detection: on SQLite, ``PRAGMA data_version`` (on a private connection) tells whether anything at all was
committed since the last look; when nothing was, the tick costs microseconds and no query. Otherwise the tick reads
the job's row (never its payload) in a fresh short session and compares the ``emit_on`` attributes.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Any

from core.status import TERMINAL_JOB_STATUSES

if TYPE_CHECKING:
    from core.store import JobStore

__all__ = ["DEFAULT_EMIT_ON", "watch_job"]

DEFAULT_EMIT_ON: tuple[str, ...] = ("status",)
_TERMINAL = frozenset(s.value for s in TERMINAL_JOB_STATUSES)


def _snapshot(job: Any, emit_on: Sequence[str]) -> tuple[Any, ...]:
    return tuple(getattr(job, name) for name in emit_on)


async def watch_job(
    store: JobStore[Any],
    job_id: uuid.UUID,
    *,
    interval: float,
    timeout: float | None,
    emit_on: Sequence[str],
) -> AsyncIterator[Any]:
    """Yield the job now, then on every change of an ``emit_on`` attribute, and always its terminal row; then end.

    A subscriber that arrives after the end gets exactly one row.

    Args:
        store: The store to read from.
        job_id: The job to follow.
        interval: Seconds between looks.
        timeout: Give up with :class:`TimeoutError` after this many seconds without reaching a terminal status.
        emit_on: Attribute names whose change yields a row (``"status"``, ``"progress"``, ``"stage"``,
            ``"message"``, ``"detail"`` …). The terminal row is yielded whatever this says.

    Raises:
        JobNotFoundError: the job does not exist (or was deleted while watched).
        TimeoutError: ``timeout`` passed first.
    """
    if interval <= 0:
        raise ValueError("interval must be positive")
    fields = tuple(emit_on)
    for name in fields:
        if not hasattr(store.model, name):
            raise ValueError(f"emit_on names an unknown attribute: {name!r}")
    loop = asyncio.get_running_loop()
    deadline = None if timeout is None else loop.time() + timeout
    version = store.db.data_version()
    job = await store.get(job_id)
    yield job
    if job.status in _TERMINAL:
        return
    last = _snapshot(job, fields)
    while True:
        if deadline is not None:
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"job {job_id} did not finish within {timeout} s")
            await asyncio.sleep(min(interval, remaining))
        else:
            await asyncio.sleep(interval)
        current_version = store.db.data_version()
        if current_version is not None and current_version == version:
            continue
        version = current_version
        job = await store.get(job_id)
        if job.status in _TERMINAL:
            yield job
            return
        snapshot = _snapshot(job, fields)
        if snapshot != last:
            last = snapshot
            yield job

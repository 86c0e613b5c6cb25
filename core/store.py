"""``JobStore``: the job table's only writer. Its state changes are :mod:`core.transitions`' (one conditional
statement each, with the table of every change); the store adds the defaults, the precise errors and the rows.

Thread safety: a store belongs to one event loop (the one its manager's engine runs on). Use one store per loop.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import MappedColumn, class_mapper

from core import leases
from core.closing import why_not_closed
from core.db import AsyncDatabaseManager
from core.listing import Cursor, counting, job_filters, newest_first
from core.models import BaseJobModel
from core.retry import DEFAULT_BACKOFF, Backoff
from core.rows import interrupted, read_row, without_payload, without_payloads
from core.status import JobStatus
from core.transitions import Row, Transitions
from core.types import utcnow
from core.watch import DEFAULT_EMIT_ON, watch_job, watch_jobs, watch_table

__all__ = ["Cursor", "JobStore"]

M = TypeVar("M", bound=BaseJobModel)
_BASE_COLUMN_KEYS = frozenset(name for name, value in vars(BaseJobModel).items() if isinstance(value, MappedColumn))
"""The columns every job table has; ``enqueue(columns=…)`` fills only the ones an application adds."""


class JobStore(Generic[M]):
    """The job table's lifecycle: enqueue, claim, report, close, cancel, retry, reclaim, list and watch.

    Takes the manager, never a session: every call is its own unit of work, so an enqueuing handler, a worker busy
    for minutes and a screen polling every few seconds never hold a transaction across work.

    Args:
        db: The database manager.
        model: The concrete :class:`BaseJobModel` subclass (the table).
        stale_after: Seconds without a heartbeat after which a running job is presumed dead
            (``reclaim_stale`` refuses without it).
        backoff: Delays (seconds) before the 2nd, 3rd, … attempt after a transient failure; the last repeats.
        max_attempts: The default attempt budget of a new job.
        max_attempts_by_kind: Budgets for particular kinds (e.g. ``{"ingest": 5, "generate": 3}``).
    """

    def __init__(
        self,
        db: AsyncDatabaseManager,
        *,
        model: type[M],
        stale_after: float | None = None,
        backoff: Sequence[float] = DEFAULT_BACKOFF,
        max_attempts: int = 3,
        max_attempts_by_kind: Mapping[str, int] | None = None,
    ) -> None:
        if stale_after is not None and stale_after <= 0:
            raise ValueError("stale_after must be a positive number of seconds")
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        self.db = db
        self.model: type[M] = model
        self.stale_after = stale_after
        self.backoff = Backoff(backoff)
        self.max_attempts = max_attempts
        self.max_attempts_by_kind = dict(max_attempts_by_kind or {})
        self._moves = Transitions(db, model)
        self._manager = class_mapper(model).class_manager

    # -- reading -------------------------------------------------------------------------------------------

    async def get(self, job_id: uuid.UUID) -> M:
        """The job's whole current row, its payload included. Raises :class:`JobNotFoundError`."""
        return await read_row(self.db, self.model, job_id, whole=True)

    async def is_cancelled(self, job_id: uuid.UUID) -> bool:
        """Whether the job was cancelled (a fresh read; a missing row counts as cancelled)."""
        return await interrupted(self.db, self.model, job_id, attempt=None)

    def cancellation_watch(self, job_id: uuid.UUID, *, attempt: int | None = None) -> Callable[[], Awaitable[bool]]:
        """The async predicate that :func:`run_cancellable` polls: ``True`` means stop.

        With ``attempt`` it also says stop when this claim was lost (the job was reclaimed or finished elsewhere).
        """
        return functools.partial(interrupted, self.db, self.model, job_id, attempt=attempt)

    async def list_recent(
        self,
        *,
        kind: str | None = None,
        status: JobStatus | str | None = None,
        statuses: Iterable[JobStatus | str] | None = None,
        limit: int = 20,
        offset: int = 0,
        before: Cursor | None = None,
        search: str | None = None,
    ) -> list[M]:
        """Newest first, without payloads (reading one raises :class:`PayloadNotLoadedError`). ``[]`` when nothing
        matches.

        Args:
            kind: Only this kind.
            status: Only this status (not together with ``statuses``).
            statuses: Any of these, in one query so its halves cannot disagree.
            limit: Page size, at least 1.
            offset: Rows to skip (simple paging).
            before: Keyset paging: only rows older than this cursor (see :meth:`cursor_of`); stable while
                new jobs arrive, and fast however deep the page.
            search: Case-insensitive substring of the title.
        """
        filters = job_filters(self.model, kind=kind, status=status, statuses=statuses, search=search)
        stmt = newest_first(self.model, filters, limit=limit, offset=offset, before=before)
        async with self.db.get_session_context() as session:
            return without_payloads((await session.scalars(stmt)).all())

    async def count(
        self,
        *,
        kind: str | None = None,
        status: JobStatus | str | None = None,
        statuses: Iterable[JobStatus | str] | None = None,
        search: str | None = None,
    ) -> int:
        """How many jobs match the same filters as :meth:`list_recent`."""
        filters = job_filters(self.model, kind=kind, status=status, statuses=statuses, search=search)
        async with self.db.get_session_context() as session:
            return int(await session.scalar(counting(self.model, filters)) or 0)

    @staticmethod
    def cursor_of(job: BaseJobModel) -> Cursor:
        """The keyset cursor that makes ``list_recent(before=…)`` continue after ``job``."""
        return (job.created_at, job.id)

    def watch(
        self,
        job_id: uuid.UUID,
        *,
        interval: float = 2.0,
        timeout: float | None = None,
        emit_on: Sequence[str] = DEFAULT_EMIT_ON,
    ) -> AsyncIterator[M]:
        """Yield the row now, then whenever an ``emit_on`` attribute changes, and always the terminal row; rows
        come without their payload, no session stays open between ticks. See :func:`core.watch.watch_job`."""
        return watch_job(self.db, self.model, job_id, interval=interval, timeout=timeout, emit_on=emit_on)

    def watch_jobs(
        self, job_ids: Iterable[uuid.UUID], *, children: str | None = None, interval: float = 2.0
    ) -> AsyncGenerator[frozenset[uuid.UUID], None]:
        """Yield the ids at once, then the ids among them whose rows (or, through the parent column ``children``,
        whose children's rows) changed. See :func:`core.watch.watch_jobs`."""
        return watch_jobs(self.db, self.model, job_ids, children=children, interval=interval)

    def watch_table(self, *, interval: float = 0.25, blind_interval: float = 2.0) -> AsyncGenerator[None, None]:
        """Yield at once, then whenever the table may have changed. See :func:`core.watch.watch_table`."""
        return watch_table(self.db, self.model, interval=interval, blind_interval=blind_interval)

    # -- the lifecycle -------------------------------------------------------------------------------------

    async def enqueue(
        self,
        kind: str,
        *,
        params: Mapping[str, Any] | None = None,
        payload: bytes | None = None,
        max_attempts: int | None = None,
        title: str = "",
        detail: Mapping[str, Any] | None = None,
        phases: Sequence[Mapping[str, Any]] | None = None,
        job_id: uuid.UUID | None = None,
        columns: Mapping[str, Any] | None = None,
    ) -> M:
        """Insert a queued row and return it. Write the row before sending any broker message.

        With ``job_id`` the enqueue is idempotent: when a job with that id already exists, it is returned as it
        is (a step that is re-run after a crash does not make a second job). ``columns`` gives values for the
        columns the application's model adds to :class:`BaseJobModel` (e.g. ``{"parent_id": …}``).

        Raises:
            ValueError: ``columns`` names a column the model does not add.
        """
        budget = max_attempts if max_attempts is not None else self.max_attempts_by_kind.get(kind, self.max_attempts)
        if budget < 1:
            raise ValueError("max_attempts must be at least 1")
        now = utcnow()
        values: dict[str, Any] = dict.fromkeys(self._moves.column_keys)
        values.update(
            id=job_id or uuid.uuid4(),
            kind=kind,
            status=JobStatus.QUEUED.value,
            title=title,
            stage="",
            progress=0.0,
            message="",
            detail=dict(detail or {}),
            phases=[dict(p) for p in phases or ()],
            params=dict(params or {}),
            payload=payload,
            attempts=0,
            max_attempts=budget,
            error_transient=False,
            created_at=now,
            updated_at=now,
        )
        if columns:
            unknown = set(columns) - (set(self._moves.column_keys) - _BASE_COLUMN_KEYS)
            if unknown:
                raise ValueError(f"columns names no column the model adds: {sorted(unknown)}")
            values.update(columns)
        try:
            await self._moves.enqueue(values)
        except IntegrityError:
            if job_id is None:
                raise
            return await self.get(job_id)
        return self._instance(values)

    async def claim(self, job_id: uuid.UUID, *, worker_id: str | None = None) -> M | None:
        """Queued → running, ``attempts`` + 1: the returned row (with its payload) is the claim.

        ``None`` when the job is not yours to run: unknown id, already running, finished, cancelled, or its retry
        time has not come. Two workers racing on two connections: exactly one wins. The returned ``attempts`` is
        the claim's fencing token (pass it as ``attempt=`` to every later write).
        """
        row = await self._moves.claim(job_id, worker_id=worker_id)
        return None if row is None else self._instance(row)

    async def succeed(
        self,
        job_id: uuid.UUID,
        *,
        result_id: uuid.UUID | None = None,
        attempt: int | None = None,
        message: str = "",
    ) -> M:
        """Close the job as done: progress 1.0, payload dropped, ``finished_at`` set.

        Raises:
            JobNotFoundError: unknown id.
            JobCancelledError: the user cancelled it meanwhile (log and move on).
            JobClaimLostError: ``attempt`` given and the claim was superseded.
            JobAlreadyFinishedError: it was already terminal.
        """
        row = await self._moves.succeed(job_id, result_id=result_id, attempt=attempt, message=message, whole_row=True)
        if row is None:
            raise await self._why_not_closed(job_id, attempt)
        return self._instance(row, dropped=True)

    async def succeed_without_row(
        self,
        job_id: uuid.UUID,
        *,
        result_id: uuid.UUID | None = None,
        attempt: int | None = None,
        message: str = "",
    ) -> None:
        """:meth:`succeed`, the same write and the same errors, without reading the closed row back: the daemon's
        close of every job (decoding the row costs more than writing it; docs/performance.md)."""
        row = await self._moves.succeed(job_id, result_id=result_id, attempt=attempt, message=message, whole_row=False)
        if row is None:
            raise await self._why_not_closed(job_id, attempt)

    async def fail(
        self,
        job_id: uuid.UUID,
        reason: str,
        *,
        transient: bool = False,
        attempt: int | None = None,
    ) -> M:
        """Record a failed attempt, written for the user in ``reason``: a message code with its values
        (:func:`core.stored_messages.encode`, translated by each screen) or a plain sentence, shown as it is.

        A ``transient`` error with attempts left goes back to queued with ``run_after`` from the backoff, its
        payload kept and ``error`` holding this reason. A permanent error or a spent budget ends failed: the bar
        stays where it stopped, the payload is dropped. Decided in one conditional UPDATE.

        Returns:
            The row after the write: ``queued`` (will be retried at ``run_after``) or ``failed``.

        Raises:
            The same errors as :meth:`succeed`.
        """
        row = await self._moves.fail(job_id, reason=reason, transient=transient, attempt=attempt, backoff=self.backoff)
        if row is None:
            raise await self._why_not_closed(job_id, attempt)
        return self._instance(row, dropped=row["status"] == JobStatus.FAILED)

    async def cancel(self, job_id: uuid.UUID, *, reason: str | None = None) -> M | None:
        """Queued/running → cancelled, payload dropped. ``None`` (never an error) when there is nothing to stop.

        Cancelled is terminal but is not a failure: ``error`` is left alone and ``reason`` goes to ``message``.
        The worker notices at its next checkpoint (``ProgressTracker`` tick or ``run_cancellable`` poll).
        """
        row = await self._moves.cancel(job_id, reason=reason)
        return None if row is None else self._instance(row, dropped=True)

    async def retry(self, job_id: uuid.UUID) -> M | None:
        """The manual retry button: a failed or cancelled job goes back to queued with a fresh attempt budget.

        ``None`` for any other job (unknown, queued, running, done). A payload dropped at the end of the last run
        does not come back: keep what a rerun needs in ``params``.
        """
        row = await self._moves.retry(job_id)
        return None if row is None else self._instance(row)

    async def release(self, job_id: uuid.UUID, *, attempt: int) -> bool:
        """Hand a claim back to the queue without spending an attempt (graceful shutdown).

        Call it only once the work has really stopped: the next claim reuses this attempt number.
        Returns ``False`` when the claim was no longer held.
        """
        return await self._moves.release(job_id, attempt=attempt)

    async def delete(self, job_id: uuid.UUID) -> bool:
        """Remove a finished job from the history. ``False`` when it is unknown or still open."""
        return await self._moves.delete(job_id)

    # -- progress and leases ----------------------------------------------------------------------------

    async def report_progress(
        self,
        job_id: uuid.UUID,
        progress: float,
        *,
        stage: str | None = None,
        message: str | None = None,
        detail: Mapping[str, Any] | None = None,
        phases: Sequence[Mapping[str, Any]] | None = None,
        attempt: int | None = None,
    ) -> bool:
        """Write progress (never backwards), and the stage, message and counters when given; renews the lease.

        Returns ``False`` when the write did not land: the job is no longer running (cancelled, finished,
        reclaimed) or, with ``attempt``, this claim was superseded. That answer is the worker's cancel check.
        """
        return await self._moves.progress(
            job_id,
            progress,
            stage=stage,
            message=message,
            detail=detail,
            phases=phases,
            attempt=attempt,
        )

    async def heartbeat(self, job_id: uuid.UUID, *, attempt: int | None = None) -> bool:
        """Renew the lease of a running job. ``False`` when the claim is not held any more."""
        return await self._moves.heartbeat({job_id: attempt}) == {job_id}

    async def heartbeat_many(self, claims: Mapping[uuid.UUID, int | None]) -> set[uuid.UUID]:
        """Renew several leases, one statement each; returns the ids whose claim is still held."""
        return await self._moves.heartbeat(claims)

    async def reclaim_stale(self, *, reason: str = leases.DEFAULT_RECLAIM_REASON) -> int:
        """Running rows whose lease expired go back to queued, or to failed once their budget is spent.

        Raises:
            RuntimeError: the store has no ``stale_after``.
        """
        if self.stale_after is None:
            raise RuntimeError("reclaim_stale needs JobStore(stale_after=…): refusing to guess when a worker is dead")
        return await self._moves.reclaim_stale(stale_after=self.stale_after, reason=reason)

    async def reclaim_of_workers(
        self, worker_ids: Collection[str], *, reason: str = leases.DEFAULT_RECLAIM_REASON
    ) -> int:
        """Running rows claimed by ``worker_ids`` — workers known to be gone (their process ended) — go back to
        queued, or to failed once their budget is spent, as :meth:`reclaim_stale` moves them, but at once."""
        return await self._moves.reclaim_of_workers(worker_ids, reason=reason)

    async def due_jobs(self, *, older_than: float = 0.0, limit: int = 100) -> list[M]:
        """Queued rows that may be claimed now and were last touched ``older_than`` seconds ago or more.

        The daemon's sweep dispatches them again: requeued rows, retries whose time has come, and rows whose
        broker message was lost. Oldest first, without payloads.
        """
        return await leases.due_jobs(self.db, self.model, older_than=older_than, limit=limit)

    # -- internals -----------------------------------------------------------------------------------------

    def _instance(self, values: Row, *, dropped: bool = False) -> M:
        """A detached instance holding ``values`` as loaded state, built without ``__init__``'s per-attribute events
        (a fifth of a claim's cost). ``dropped``: the change cleared the payload, so it reads ``None``; else a row
        without ``payload`` among ``values`` is a row without its payload (:mod:`core.rows`)."""
        job: M = self._manager.new_instance()
        job.__dict__.update(values)
        if dropped:
            job.__dict__["payload"] = None
        return job if "payload" in job.__dict__ else without_payload(job)

    async def _why_not_closed(self, job_id: uuid.UUID, attempt: int | None) -> Exception:
        async with self.db.get_session_context() as session:
            return await why_not_closed(session, self.model, job_id, attempt)

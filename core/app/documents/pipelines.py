"""Documents over the job store: list, count, read and act on a root job and its children as one thing. Every page is
one query, with the status filters in SQL, so paging, counting and filtering agree with the screens; the actions
write through :class:`core.store.JobStore` and keep its rules (docs/design/documents.md).

Thread safety: like the store it wraps, one event loop.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncGenerator, Iterable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, case, delete, false, func, or_, select
from sqlalchemy.orm import aliased

from core.app.documents.parts import PART_COLUMNS, PartSnapshot
from core.app.documents.view import DocumentView, document_view
from core.app.models.downloads import DOWNLOAD_KIND
from core.app.storage.schema import Job
from core.status import OPEN_JOB_STATUSES, JobStatus
from core.store import JobStore

__all__ = ["DOCUMENT_FILTERS", "GENERATE_KIND", "PARENT_COLUMN", "DocumentCursor", "Pipelines", "queue_guide"]

DocumentCursor = tuple[datetime, uuid.UUID]
"""Where a page of documents ended: the last root's ``(created_at, id)``."""

DOCUMENT_FILTERS: dict[str, tuple[str, ...] | None] = {
    "all": None,
    "active": OPEN_JOB_STATUSES,
    "done": (JobStatus.DONE.value,),
    "failed": (JobStatus.FAILED.value,),
    "cancelled": (JobStatus.CANCELLED.value,),
}
"""Filter name → the pipeline statuses it shows (``None``: every document)."""

PARENT_COLUMN = "parent_id"
"""The column by which a document's part names its root job."""

GENERATE_KIND = "generate"
"""The kind of a document's guide part (a child of its root)."""

_ENDED_BADLY = (JobStatus.FAILED.value, JobStatus.CANCELLED.value)


class _Query:
    """The aliases and expressions of the documents query: ``root`` LEFT JOIN its newest ``child``."""

    def __init__(self) -> None:
        self.root = aliased(Job, name="root")
        self.child = aliased(Job, name="child")
        newer = aliased(Job, name="newer")
        newest = (
            select(newer.id)
            .where(newer.parent_id == self.root.id)
            .order_by(newer.created_at.desc(), newer.id.desc())
            .limit(1)
            .correlate(self.root)
            .scalar_subquery()
        )
        self.join_on = self.child.id == newest
        # "no parent", written so that no index serves it: a page then walks ix_jobs_created newest first and stops
        # at the page's end. Written as `parent_id IS NULL`, SQLite chose ix_jobs_parent_id and sorted every root
        # (400 ms over 100,000 rows instead of a few).
        self.is_root = func.coalesce(self.root.parent_id, self.root.id) == self.root.id
        only_extract = func.coalesce(self.root.params["only_extract"].as_boolean(), false())
        self.status = case(
            (self.root.status != JobStatus.DONE.value, self.root.status),
            (self.child.id.is_not(None), self.child.status),
            (only_extract, JobStatus.DONE.value),
            else_=JobStatus.QUEUED.value,
        )
        self.columns = [getattr(self.root, name).label(f"r_{name}") for name in PART_COLUMNS] + [
            getattr(self.child, name).label(f"c_{name}") for name in PART_COLUMNS
        ]

    def filters(
        self, statuses: Iterable[str] | None, search: str | None, *, counting: bool = False
    ) -> list[ColumnElement[bool]]:
        """The WHERE clauses; ``counting`` lets ``parent_id IS NULL`` use its index (a count reads every root)."""
        wanted = None if statuses is None else tuple(JobStatus(s).value for s in statuses)
        if wanted is not None and not wanted:
            raise ValueError("statuses is empty")
        clauses: list[ColumnElement[bool]] = [self.root.parent_id.is_(None) if counting else self.is_root]
        clauses.append(self.root.kind != DOWNLOAD_KIND)  # a model download is not a document
        if wanted is not None:
            clauses.append(self.status.in_(wanted))
        if search:
            escaped = search.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            clauses.append(func.lower(self.root.title).like(f"%{escaped}%", escape="\\"))
        return clauses

    def page(self, clauses: list[ColumnElement[bool]], *, limit: int, before: DocumentCursor | None) -> Select[Any]:
        if limit <= 0:
            raise ValueError("limit must be at least 1")
        root = self.root
        stmt = (
            select(*self.columns)
            .select_from(root)
            .outerjoin(self.child, self.join_on)
            .where(*clauses)
            .order_by(root.created_at.desc(), root.id.desc())
            .limit(limit)
        )
        if before is not None:
            created, last_id = before
            # the same range-friendly "older than the cursor" as core.listing.newest_first
            stmt = stmt.where(root.created_at <= created, or_(root.created_at < created, root.id < last_id))
        return stmt


def _split(row: Any) -> tuple[PartSnapshot, PartSnapshot | None]:
    mapping = row._mapping
    root = PartSnapshot.of({name: mapping[f"r_{name}"] for name in PART_COLUMNS})
    if mapping["c_id"] is None:
        return root, None
    return root, PartSnapshot.of({name: mapping[f"c_{name}"] for name in PART_COLUMNS})


async def queue_guide(
    store: JobStore[Job],
    document_id: uuid.UUID,
    *,
    title: str,
    params: Mapping[str, Any],
    detail: Mapping[str, Any],
    job_id: uuid.UUID | None = None,
) -> Job:
    """Queue a ``generate`` job as a part of the document whose root is ``document_id``: the one place a guide is
    queued (after a reading, "Write again", a section rewritten). ``job_id`` makes it idempotent
    (:meth:`core.store.JobStore.enqueue`). Sending its broker message is the caller's (the worker's sweep sends it
    otherwise)."""
    return await store.enqueue(
        GENERATE_KIND, job_id=job_id, title=title, params=params, detail=detail, columns={PARENT_COLUMN: document_id}
    )


class Pipelines:
    """The documents of a job store over the application's ``jobs`` table.

    Args:
        store: The application's job store (:func:`core.app.storage.database.make_app_store`).
    """

    def __init__(self, store: JobStore[Job]) -> None:
        self.store = store
        self.db = store.db
        self._q = _Query()

    # -- reading -------------------------------------------------------------------------------------------

    async def list_recent(
        self,
        *,
        statuses: Iterable[str] | None = None,
        search: str | None = None,
        limit: int = 20,
        before: DocumentCursor | None = None,
    ) -> list[DocumentView]:
        """Documents newest first (by their root's ``created_at``), one query per page.

        Args:
            statuses: Only documents whose *pipeline* status is one of these.
            search: Case-insensitive substring of the title.
            limit: Page size, at least 1.
            before: Keyset paging: only documents older than this cursor (:attr:`DocumentView.cursor`).
        """
        stmt = self._q.page(self._q.filters(statuses, search), limit=limit, before=before)
        async with self.db.get_session_context() as session:
            rows = (await session.execute(stmt)).all()
        return [document_view(*_split(row)) for row in rows]

    async def count(self, *, statuses: Iterable[str] | None = None, search: str | None = None) -> int:
        """How many documents match the same filters as :meth:`list_recent`."""
        q = self._q
        stmt = select(func.count()).select_from(q.root)
        if statuses is not None:
            stmt = stmt.outerjoin(q.child, q.join_on)
        stmt = stmt.where(*q.filters(statuses, search, counting=True))
        async with self.db.get_session_context() as session:
            return int(await session.scalar(stmt) or 0)

    async def get(self, document_id: uuid.UUID) -> DocumentView | None:
        """The document whose root is ``document_id``; a child's id gives its document too. ``None``: unknown."""
        q = self._q
        async with self.db.get_session_context() as session:
            parent = await session.scalar(select(Job.parent_id).where(Job.id == document_id))
            root_id = parent if parent is not None else document_id
            stmt = select(*q.columns).select_from(q.root).outerjoin(q.child, q.join_on).where(q.root.id == root_id)
            row = (await session.execute(stmt)).first()
        return None if row is None else document_view(*_split(row))

    def watch(
        self, document_ids: Iterable[uuid.UUID], *, interval: float
    ) -> AsyncGenerator[frozenset[uuid.UUID], None]:
        """The ids at once, then the ids of the documents whose root or one of whose parts was added, changed or
        removed (:meth:`core.store.JobStore.watch_jobs` over ``parent_id``: no query while nothing is committed)."""
        return self.store.watch_jobs(document_ids, children=PARENT_COLUMN, interval=interval)

    async def follow(self, document_id: uuid.UUID, *, interval: float) -> AsyncGenerator[DocumentView, None]:
        """The document now, then after each change of its parts, until it is no longer open (its last view
        included). Yields nothing when the document is unknown, and ends when it is removed."""
        changes = self.watch([document_id], interval=interval)
        try:
            async for _changed in changes:
                view = await self.get(document_id)
                if view is None:
                    return
                yield view
                if view.status not in OPEN_JOB_STATUSES:
                    return
        finally:
            await changes.aclose()

    async def _children(self, root_id: uuid.UUID, statuses: tuple[str, ...]) -> list[uuid.UUID]:
        stmt = select(Job.id).where(Job.parent_id == root_id, Job.status.in_(statuses))
        async with self.db.get_session_context() as session:
            return list((await session.scalars(stmt)).all())

    # -- acting on one document ------------------------------------------------------------------------------

    async def cancel(self, document_id: uuid.UUID, *, reason: str | None = None) -> DocumentView | None:
        """Stop whatever part of the document is open; ``None`` when nothing was open (or it is unknown).

        Every open part is cancelled, so a child queued in the instant its root was cancelled never runs.
        """
        view = await self.get(document_id)
        if view is None:
            return None
        stopped = await self.store.cancel(view.id, reason=reason) is not None
        for child_id in await self._children(view.id, OPEN_JOB_STATUSES):
            stopped = await self.store.cancel(child_id, reason=reason) is not None or stopped
        return await self.get(view.id) if stopped else None

    async def retry(self, document_id: uuid.UUID) -> DocumentView | None:
        """Run the part that failed or was cancelled again; ``None`` when the document has no such part.

        A root that ended badly runs again itself (its unfinished children are dropped: the rerun queues its
        follow-up again); once the root is done, the newest child that failed or was cancelled runs again.
        """
        view = await self.get(document_id)
        if view is None:
            return None
        if view.root.status in _ENDED_BADLY:
            if await self.store.retry(view.id) is None:
                return None
            await self._drop_children(view.id, _ENDED_BADLY)
            return await self.get(view.id)
        if view.root.status == JobStatus.DONE and view.guide is not None and view.guide.status in _ENDED_BADLY:
            if await self.store.retry(view.guide.id) is None:
                return None
            return await self.get(view.id)
        return None

    async def remove(self, document_id: uuid.UUID) -> bool:
        """Delete the document's jobs (root and children) from the history, in one statement.

        ``False`` when the document is unknown or a part of it is still queued or running. The study guides it
        made are kept (they are the user's).
        """
        view = await self.get(document_id)
        if view is None:
            return False
        root_id = view.id
        own = or_(Job.id == root_id, Job.parent_id == root_id)
        busy = aliased(Job, name="busy")
        still_open = select(busy.id).where(
            or_(busy.id == root_id, busy.parent_id == root_id), busy.status.in_(OPEN_JOB_STATUSES)
        )
        result = await self.db.execute(delete(Job).where(own, ~still_open.exists()))
        return bool(result.rowcount)

    async def write_again(self, document_id: uuid.UUID) -> DocumentView | None:
        """Queue a new ``generate`` child (a new id) for a document whose guide is finished.

        The guide already written stays where it is until the new one is done (screens show the newest done
        guide). ``None`` when the document is unknown, text only, or its guide is not finished (done, failed or
        cancelled).
        """
        view = await self.get(document_id)
        if view is None or view.root.status != JobStatus.DONE or view.guide is None:
            return None
        if view.guide.status in OPEN_JOB_STATUSES:
            return None
        last = view.guide
        detail = {k: v for k, v in last.detail.items() if k in ("document_id", "ingest_job_id", "expected_seconds")}
        await queue_guide(self.store, view.id, title=last.title or view.title, params=dict(last.params), detail=detail)
        return await self.get(view.id)

    async def _drop_children(self, root_id: uuid.UUID, statuses: tuple[str, ...]) -> None:
        await self.db.execute(delete(Job).where(Job.parent_id == root_id, Job.status.in_(statuses)))

    # -- acting on many ------------------------------------------------------------------------------------

    async def cancel_all(self, *, reason: str | None = None) -> int:
        """Cancel every open part of every document; returns how many jobs were stopped."""
        stopped = 0
        while True:
            async with self.db.get_session_context() as session:
                ids = list(
                    (await session.scalars(select(Job.id).where(Job.status.in_(OPEN_JOB_STATUSES)).limit(500))).all()
                )
            progress = [job_id for job_id in ids if await self.store.cancel(job_id, reason=reason) is not None]
            stopped += len(progress)
            if not ids or not progress:
                return stopped

    async def retry_all_failed(self) -> int:
        """Retry every document whose pipeline failed; returns how many were queued again."""
        failed: list[uuid.UUID] = []
        before: DocumentCursor | None = None
        while page := await self.list_recent(statuses=(JobStatus.FAILED.value,), limit=500, before=before):
            failed += [view.id for view in page]
            before = page[-1].cursor
        return sum([await self.retry(document_id) is not None for document_id in failed])

"""Loads the documents table from the store and keeps it current with a cheap change check.

Owns the filter, the search text and keyset paging; follows :meth:`core.store.JobStore.watch_table` while the
window is visible (:meth:`pause`/:meth:`resume`). UI thread only; the queries run as tasks on the qasync loop,
holding no session between checks. Costs: docs/design/window.md.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from core.app.documents.pipelines import DOCUMENT_FILTERS, Pipelines
from core.status import OPEN_JOB_STATUSES
from core.store import JobStore
from gui.documents.table_model import JobRow, JobsModel
from gui.tasks import Rerun, TaskGroup

__all__ = ["FILTERS", "JobFeed"]

log = logging.getLogger(__name__)

FILTERS: dict[str, tuple[str, ...] | None] = DOCUMENT_FILTERS
"""Filter name → the pipeline statuses it shows (``None``: every document). Active is one query over two."""


class JobFeed(QObject):
    """Feeds a :class:`JobsModel` from a :class:`JobStore`.

    Args:
        store: The job store (on the qasync loop).
        model: The model to feed.
        tasks: Where the queries run.
        page_size: Rows per page.
        head_size: How many of the newest rows a change check re-reads at most.
        interval: Seconds between change checks.

    Signals:
        refreshed: After each load or change check that touched the model (a row changed, came or went, or the
            count moved): ``(changed rows, finished documents)``, where finished documents are rows whose pipeline
            became done or failed since the last look (for notifications: once per document, never per part).
    """

    refreshed = Signal(list, list)

    def __init__(
        self,
        store: JobStore[Any],
        model: JobsModel,
        tasks: TaskGroup,
        *,
        page_size: int = 200,
        head_size: int = 200,
        interval: float = 0.1,
        slow_interval: float = 2.0,
    ) -> None:
        super().__init__()
        self.store = store
        self.pipelines = Pipelines(store)
        self.model = model
        self.tasks = tasks
        self.page_size = page_size
        self.head_size = head_size
        self.filter_name = "all"
        self.search = ""
        self.interval = interval
        self.slow_interval = slow_interval
        self._generation = 0
        self._checks = Rerun(tasks, lambda: self._check(self._generation), name="jobs-check")
        self._follow: asyncio.Task[Any] | None = None
        self.count_interval = 2.0
        self._counted: tuple[tuple[Any, ...], float] = ((), 0.0)
        self._clock = QTimer(self)
        self._clock.setInterval(1000)
        self._clock.timeout.connect(model.tick_running)
        model.fetch_requested.connect(self._fetch_more)
        self.on_finished: Callable[[list[JobRow]], None] | None = None

    @property
    def statuses(self) -> tuple[str, ...] | None:
        """The statuses the current filter shows."""
        return FILTERS[self.filter_name]

    def start(self) -> None:
        """Load the first page and start following the store."""
        self.reload()
        self.resume()

    def resume(self) -> None:
        """Follow the store again (the window is visible) and look at once."""
        if self._follow is None or self._follow.done():
            self._follow = self.tasks.start(self._follow_table(), name="jobs-follow")
        self._clock.start()

    def pause(self) -> None:
        """Stop following (the window is hidden)."""
        if self._follow is not None:
            self._follow.cancel()
            self._follow = None
        self._clock.stop()

    @property
    def polling(self) -> bool:
        """Whether the change check is running."""
        return self._follow is not None and not self._follow.done()

    def set_filter(self, name: str) -> None:
        """Show only the documents of filter ``name`` (a key of :data:`FILTERS`)."""
        if name not in FILTERS:
            raise ValueError(f"unknown filter {name!r}")
        if name != self.filter_name:
            self.filter_name = name
            self.reload()

    def set_search(self, text: str) -> None:
        """Show only documents whose title contains ``text`` (case-insensitive)."""
        text = text.strip()
        if text != self.search:
            self.search = text
            self.reload()

    def reload(self) -> None:
        """Forget the loaded rows and load the first page of the current filter."""
        self._generation += 1
        self.tasks.start(self._load_first(self._generation), name="jobs-load")

    def refresh_now(self) -> None:
        """Run a change check now, whether or not the store saw a change."""
        self._checks.request()

    # -- work ---------------------------------------------------------------------------------------------

    def _query(self) -> dict[str, Any]:
        return {"statuses": self.statuses, "search": self.search or None}

    async def _load_first(self, generation: int) -> None:
        jobs = await self.pipelines.list_recent(limit=self.page_size + 1, **self._query())
        total = await self.pipelines.count(**self._query())
        if generation != self._generation:
            return
        rows = jobs[: self.page_size]
        self._counted = (tuple(r.id for r in rows), time.monotonic())
        self.model.reset(rows, more=len(jobs) > self.page_size, total=total)
        self.refreshed.emit(list(range(len(rows))), [])

    def _fetch_more(self) -> None:
        self.tasks.start(self._load_more(self._generation), name="jobs-more")

    async def _load_more(self, generation: int) -> None:
        try:
            last = self.model.rows[-1] if self.model.rows else None
            before = (last.created_at, last.id) if last is not None else None
            jobs = await self.pipelines.list_recent(limit=self.page_size + 1, before=before, **self._query())
        except BaseException:
            self.model.loading = False
            raise
        if generation != self._generation:
            return
        self.model.append(jobs[: self.page_size], more=len(jobs) > self.page_size)

    async def _follow_table(self) -> None:
        """Check the rows each time the store says the table may have changed (at once, too)."""
        async for _ in self.store.watch_table(interval=self.interval, blind_interval=self.slow_interval):
            self._checks.request()

    async def _check(self, generation: int) -> None:
        # at least a page: every row added since the last look fits in the head (up to ``head_size`` of them)
        size = min(max(len(self.model.rows), self.page_size), self.head_size)
        head_jobs = await self.pipelines.list_recent(limit=size + 1, **self._query())
        head = head_jobs[:size]
        if generation == self._generation and self._gap(head, complete=len(head_jobs) <= size):
            self.reload()  # rows the model cannot place (too many new, or older than the newest shown)
            return
        head_ids = {r.id for r in head}
        updates: list[JobRow] = []
        removed: set[Any] = set()
        wanted = self.statuses
        for r in self.model.rows[size:]:
            if r.status in OPEN_JOB_STATUSES and r.id not in head_ids:
                fresh = await self.pipelines.get(r.id)
                if fresh is None:
                    removed.add(r.id)
                    continue
                if wanted is not None and fresh.status not in wanted:
                    removed.add(r.id)
                updates.append(fresh)
        total = await self._total(tuple(r.id for r in head), bool(removed))
        if generation != self._generation:
            return
        before = {r.id: r.status for r in self.model.rows}
        counts = (self.model.rowCount(), self.model.total)
        changed = self.model.apply(
            head, updates, total=total, head_complete=len(head_jobs) <= size, removed=frozenset(removed)
        )
        finished = [
            r for r in [*head, *updates] if r.status in ("done", "failed") and before.get(r.id) in OPEN_JOB_STATUSES
        ]
        if changed or finished or (self.model.rowCount(), self.model.total) != counts:
            self.refreshed.emit(changed, finished)

    async def _total(self, head_ids: tuple[Any, ...], removed: bool) -> int:
        """How many documents match: counted again when the head's documents changed, some left the filter, or
        :attr:`count_interval` passed; else the last count (a filtered count reads every document)."""
        last_head, at = self._counted
        if head_ids == last_head and not removed and time.monotonic() - at < self.count_interval:
            return self.model.total
        total = await self.pipelines.count(**self._query())
        self._counted = (head_ids, time.monotonic())
        return total

    def _gap(self, head: list[JobRow], *, complete: bool) -> bool:
        """Whether the head holds rows the model would miss: more new rows than a head holds (into an empty list
        too: a page loaded afresh knows that older rows follow), or a row that is not shown although it sorts among
        the shown ones (a job whose ``created_at`` was set in the past)."""
        rows = self.model.rows
        if not head:
            return False
        if not rows:
            return not complete
        newest, oldest = (rows[0].created_at, rows[0].id), (rows[-1].created_at, rows[-1].id)
        if not complete and (head[-1].created_at, head[-1].id) > newest:
            return True
        return any(
            self.model.row_of(r.id) is None
            and (oldest < (r.created_at, r.id) or not self.model.more)
            and (r.created_at, r.id) < newest
            for r in head
        )

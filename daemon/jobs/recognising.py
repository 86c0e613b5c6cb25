"""The read phase of an ``ingest`` job while a PDF's pictures are recognised: its message and time left.

Threading: :meth:`Recognising.note` and the counter run on the read's thread; :meth:`Recognising.estimate` on the
job's loop. The count is one tuple, replaced whole. How the time left is reckoned: docs/design/worker.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from core.app.documents.counters import PAGES
from core.progress import plan_remaining_seconds
from core.tracker import ProgressTracker
from daemon.jobs.context import JobContext
from daemon.readers.formats.pdf_scanned import RECOGNITION_SECONDS_PER_PAGE

__all__ = ["Recognising"]


class Recognising:
    """What the read phase knows of the recognition under way; ``tracker`` is set once the job's tracker exists."""

    def __init__(self) -> None:
        self.tracker: ProgressTracker | None = None
        self._count: tuple[int, int, float] | None = None  # pages done, pages, monotonic time recognition began

    def note(self, done: int, pages: int) -> None:
        """``on_recognising``: ``done`` of ``pages`` recognised."""
        began = self._count[2] if self._count is not None else time.monotonic()
        self._count = (done, pages, began)

    def estimate(self, phase: str, elapsed: float, done: float | None) -> float | None:
        """The job's time left (see docs/design/worker.md)."""
        tracker = self.tracker
        if tracker is None:
            return None
        count = self._count
        if phase != "read" or count is None:
            return plan_remaining_seconds(tracker.plan, phase, elapsed, done=done)
        recognised, pages, began = count
        after = plan_remaining_seconds(tracker.plan, phase, elapsed, done=1.0)
        spent = time.monotonic() - began
        if recognised == 0:
            return after + max(pages * RECOGNITION_SECONDS_PER_PAGE - spent, RECOGNITION_SECONDS_PER_PAGE / 2)
        return after + spent / recognised * (pages - recognised)

    def wrap(
        self, ctx: JobContext, counter: Callable[[int, int], None], *, share: float = 1.0
    ) -> Callable[[int, int], None]:
        """``counter`` (the read's page counter), with the recognition's words once it has begun; the count fills
        ``share`` of the read's bar, as ``counter``'s does (:meth:`JobContext.counter`)."""

        def report(done: int, total: int) -> None:
            count = self._count
            if count is None or self.tracker is None:
                counter(done, total)
                return
            recognised, pages, _began = count
            page = min(recognised + 1, pages)
            detail = {**ctx.job.detail, **PAGES.values(page, pages)}
            text = ctx.text("recognising_page", done=page, total=pages)
            self.tracker.count("read", done=share * done / total if total else 0.0, message=text, detail=detail)

        return report

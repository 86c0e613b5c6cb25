"""Small helpers shared by the reader tests."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class BadInput:
    """A document that must be refused, and the code it must be refused with."""

    name: str
    path: Path
    code: str


@dataclass
class ProgressLog:
    """Records ``on_progress(done, total)`` calls, with the thread each came on."""

    calls: list[tuple[int, int]] = field(default_factory=list)
    threads: set[int] = field(default_factory=set)

    def __call__(self, done: int, total: int) -> None:
        self.calls.append((done, total))
        self.threads.add(threading.get_ident())

    @property
    def done(self) -> int:
        """The last ``done`` reported (0 before any report)."""
        return self.calls[-1][0] if self.calls else 0

    def assert_complete(self, total: int) -> None:
        """The counter started at 0, only went up, and reached ``total`` (which never changed)."""
        assert self.calls, "on_progress was never called"
        assert self.calls[0] == (0, total)
        assert self.calls[-1] == (total, total)
        assert {t for _, t in self.calls} == {total}
        dones = [d for d, _ in self.calls]
        assert dones == sorted(set(dones)), "the counter must strictly increase"

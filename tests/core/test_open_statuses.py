"""The jobs still open (queued or running) are one set, ``core.OPEN_JOB_STATUSES``: the store's changes agree with
it, and no other module spells the pair by hand."""

from __future__ import annotations

import ast
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from core import (
    CANCELLABLE_JOB_STATUSES,
    OPEN_JOB_STATUSES,
    TERMINAL_JOB_STATUSES,
    JobAlreadyFinishedError,
    JobStatus,
    JobStore,
)

ROOT = Path(__file__).resolve().parents[2]
DEFINED_IN = ROOT / "core" / "status.py"
SCANNED = ("core", "daemon", "gui", "bench")
_OPEN_PAIR = frozenset({"queued", "running"})
_STATUSES = frozenset(s.value for s in JobStatus)


async def _job_in(store: JobStore, status: str) -> uuid.UUID:
    """A fresh job brought to ``status`` through the store's own changes."""
    job = await store.enqueue("extract", payload=b"x")
    if status == "queued":
        return job.id
    if status == "cancelled":
        await store.cancel(job.id)
        return job.id
    claimed = await store.claim(job.id)
    assert claimed is not None
    if status == "done":
        await store.succeed(job.id, attempt=claimed.attempts)
    elif status == "failed":
        await store.fail(job.id, "broken", attempt=claimed.attempts)
    assert (await store.get(job.id)).status == status
    return job.id


async def _one_of_each(store: JobStore) -> dict[str, uuid.UUID]:
    return {status: await _job_in(store, status) for status in sorted(_STATUSES)}


def test_the_open_set_is_queued_and_running_and_the_complement_of_the_terminal_one() -> None:
    assert set(OPEN_JOB_STATUSES) == {"queued", "running"}
    assert {JobStatus(s) for s in OPEN_JOB_STATUSES} == CANCELLABLE_JOB_STATUSES
    assert set(OPEN_JOB_STATUSES) | {s.value for s in TERMINAL_JOB_STATUSES} == _STATUSES
    assert not set(OPEN_JOB_STATUSES) & {s.value for s in TERMINAL_JOB_STATUSES}


async def test_a_job_can_be_cancelled_exactly_while_its_status_is_open(store: JobStore) -> None:
    jobs = await _one_of_each(store)
    stopped = {status for status, job_id in jobs.items() if await store.cancel(job_id) is not None}
    assert stopped == set(OPEN_JOB_STATUSES)


async def test_a_job_can_be_closed_without_its_claim_exactly_while_its_status_is_open(store: JobStore) -> None:
    jobs = await _one_of_each(store)
    closed: set[str] = set()
    for status, job_id in jobs.items():
        try:
            await store.succeed_without_row(job_id)
        except JobAlreadyFinishedError:
            continue
        closed.add(status)
    assert closed == set(OPEN_JOB_STATUSES)


async def test_a_job_can_be_removed_exactly_when_its_status_is_not_open(store: JobStore) -> None:
    jobs = await _one_of_each(store)
    removed = {status for status, job_id in jobs.items() if await store.delete(job_id)}
    assert removed == _STATUSES - set(OPEN_JOB_STATUSES)


async def test_the_listing_of_open_jobs_returns_the_queued_and_running_ones(store: JobStore) -> None:
    jobs = await _one_of_each(store)
    listed = {row.id for row in await store.list_recent(statuses=OPEN_JOB_STATUSES, limit=50)}
    assert listed == {jobs[status] for status in OPEN_JOB_STATUSES}


# -- no module but core/status.py spells the open pair --------------------------------------------------------


def _status_named(node: ast.expr) -> str | None:
    """The status ``node`` spells: ``"queued"``, ``JobStatus.QUEUED``, ``JobStatus.QUEUED.value`` or ``_QUEUED``."""
    if isinstance(node, ast.Constant) and node.value in _STATUSES:
        return str(node.value)
    if isinstance(node, ast.Attribute):
        if node.attr == "value":
            return _status_named(node.value)
        return node.attr.lower() if node.attr.isupper() and node.attr.lower() in _STATUSES else None
    if isinstance(node, ast.Name) and node.id.strip("_").isupper():
        name = node.id.strip("_").lower()
        return name if name in _STATUSES else None
    return None


def _compared_statuses(operands: list[ast.expr]) -> set[str | None]:
    """The statuses of ``x == <status>`` operands (``None`` for an operand of another shape)."""
    found: set[str | None] = set()
    for operand in operands:
        if isinstance(operand, ast.Compare) and len(operand.ops) == 1 and isinstance(operand.ops[0], ast.Eq):
            found.add(_status_named(operand.comparators[0]) or _status_named(operand.left))
        else:
            found.add(None)
    return found


def _spells_open_pair(node: ast.AST) -> bool:
    """A literal collection of exactly queued and running, or ``a == queued or a == running`` (``or_`` too)."""
    written_to = isinstance(getattr(node, "ctx", None), ast.Store)  # ``_QUEUED, _RUNNING = …``'s names
    if isinstance(node, ast.Tuple | ast.List | ast.Set) and node.elts and not written_to:
        named = {_status_named(e) for e in node.elts}
        return named == _OPEN_PAIR
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        return _compared_statuses(node.values) == _OPEN_PAIR
    if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "or_":
        return _compared_statuses(list(node.args)) == _OPEN_PAIR
    return False


def _spellings(source: str) -> Iterator[int]:
    """The lines of ``source`` that spell the open pair by hand (``_QUEUED, _RUNNING = …`` names two, not a set)."""
    tree = ast.parse(source)
    unpacked = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Tuple | ast.List) for t in node.targets)
    }
    for node in ast.walk(tree):
        if id(node) not in unpacked and _spells_open_pair(node):
            yield getattr(node, "lineno", 0)


@pytest.mark.parametrize(
    "spelling",
    [
        'if status in ("queued", "running"): pass',
        "wanted = {JobStatus.RUNNING, JobStatus.QUEUED}",
        "stmt = m.status.in_([JobStatus.QUEUED.value, JobStatus.RUNNING.value])",
        "clause = or_(c.status == _QUEUED, c.status == _RUNNING)",
        'busy = row.status == "queued" or row.status == "running"',
    ],
)
def test_the_scan_finds_every_spelling_of_the_open_pair(spelling: str) -> None:
    assert list(_spellings(spelling)) == [1]


@pytest.mark.parametrize(
    "other",
    [
        'ended = status in ("done", "failed", "cancelled")',
        'visible = status in (*OPEN_JOB_STATUSES, "failed")',
        "stage_open = current in (StageStatus.PENDING, StageStatus.RUNNING)",
        'running = row.status == "running"',
        "_QUEUED, _RUNNING = JobStatus.QUEUED.value, JobStatus.RUNNING.value",
    ],
)
def test_the_scan_leaves_other_sets_alone(other: str) -> None:
    assert not list(_spellings(other))


def test_no_module_but_the_status_module_spells_queued_or_running_by_hand() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for package in SCANNED
        for path in sorted((ROOT / package).rglob("*.py"))
        if path != DEFINED_IN
        for line in _spellings(path.read_text(encoding="utf-8"))
    ]
    assert not found, f"use core.status.OPEN_JOB_STATUSES instead: {found}"
    assert list(_spellings(DEFINED_IN.read_text(encoding="utf-8")))  # the one place it is spelled

"""No application code polls the jobs table by hand: screens and commands wait through the store's watch.

The job library (``core/*.py``, ``core/backends/``) owns change detection: ``JobStore.watch``, ``watch_jobs`` and
``watch_table`` over ``core/watch_hub.py`` (no query while SQLite's ``data_version`` stands still, ``LISTEN`` on
PostgreSQL). The application (``core/app``, ``daemon``, ``gui``) may read the commit counter in one module only,
:data:`COUNTER_READER`, the broker dispatch (its docstring says why), and never loops with a sleep between reads of
job rows. Read with :mod:`ast`, so a comment or a string is not a loop.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPLICATION = ("core/app", "daemon", "gui")
COUNTER_READER = "daemon/brokers/dispatch_signal.py"
"""The broker dispatch's change check: the one module outside the library that reads the commit counter and paces
a loop over job rows."""

SLEEPS = frozenset({"sleep"})
"""Calls that pace a loop (``asyncio.sleep``, ``time.sleep``, ``anyio.sleep`` …)."""
JOB_READS = frozenset(
    {
        "Job",
        "JobStore",
        "Pipelines",
        "store",
        "pipelines",
        "read_row",
        "list_recent",
        "due_jobs",
        "get_session_context",
        "guide_job_for",
        "read_guide",
        "read_guide_parts",
    }
)
"""Names through which code reaches job rows: the jobs table, the store and the documents over it, and the
application's readers of a job's guide."""


def _modules() -> Iterator[Path]:
    for package in APPLICATION:
        yield from sorted((ROOT / package).rglob("*.py"))


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _own_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """``node``'s descendants, without the bodies of functions, lambdas and classes defined inside it."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            continue
        yield child
        yield from _own_nodes(child)


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def _names(node: ast.AST) -> set[str]:
    found: set[str] = set()
    for child in _own_nodes(node):
        if isinstance(child, ast.Name):
            found.add(child.id)
        elif isinstance(child, ast.Attribute):
            found.add(child.attr)
    return found


def _sleeps(node: ast.AST, pacers: set[str]) -> bool:
    """Whether ``node`` calls a sleep, or a function of ``pacers`` (functions of the application that sleep)."""
    return any(
        isinstance(child, ast.Call) and (_called_name(child) in SLEEPS or _called_name(child) in pacers)
        for child in _own_nodes(node)
    )


def _functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _pacers(trees: dict[str, ast.AST]) -> set[str]:
    """The names of the application's functions that sleep (outside :data:`COUNTER_READER`): a loop calling one
    is paced by it as by a sleep of its own."""
    return {
        function.name
        for path, tree in trees.items()
        if path != COUNTER_READER
        for function in _functions(tree)
        if _sleeps(function, set())
    }


def _polling_loops(path: str, tree: ast.AST, pacers: set[str]) -> Iterator[str]:
    for function in _functions(tree):
        for node in _own_nodes(function):
            if isinstance(node, ast.While | ast.For | ast.AsyncFor) and _sleeps(node, pacers):
                reads = _names(node) & JOB_READS
                if reads:
                    yield f"{path}:{node.lineno} ({function.name}: sleeps, reads through {', '.join(sorted(reads))})"


def _trees() -> dict[str, ast.AST]:
    return {_relative(p): ast.parse(p.read_text(encoding="utf-8"), filename=str(p)) for p in _modules()}


def test_only_the_broker_dispatch_reads_the_commit_counter_outside_the_job_library():
    readers = [path for path in map(_relative, _modules()) if "data_version" in (ROOT / path).read_text("utf-8")]
    assert readers == [COUNTER_READER], "wait for jobs with JobStore.watch / watch_jobs / watch_table instead"


def test_no_application_loop_sleeps_between_reads_of_job_rows():
    trees = _trees()
    pacers = _pacers(trees)
    found = [loop for path, tree in trees.items() for loop in _polling_loops(path, tree, pacers)]
    assert found == [], "follow jobs with JobStore.watch / watch_jobs / watch_table (or Pipelines.follow) instead"


def test_the_scan_finds_a_hand_written_poll_of_job_rows():
    polls = {
        "gui/example.py": (
            "async def follow(store, job_id):\n"
            "    while True:\n"
            "        job = await store.get(job_id)\n"
            "        await asyncio.sleep(0.25)\n"
        ),
        "daemon/example.py": (
            "def wait_a_little():\n"
            "    time.sleep(0.1)\n"
            "async def follow(db, job_id):\n"
            "    for _ in range(100):\n"
            "        async with db.get_session_context() as session:\n"
            "            await session.get(Job, job_id)\n"
            "        wait_a_little()\n"
        ),
    }
    trees = {path: ast.parse(source) for path, source in polls.items()}
    pacers = _pacers(trees)
    assert [loop.split(" ")[0] for path, tree in trees.items() for loop in _polling_loops(path, tree, pacers)] == [
        "gui/example.py:2",
        "daemon/example.py:4",
    ]

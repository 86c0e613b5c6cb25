"""The one wait of the suite (tests/waiting.py): a met condition returns at once, an unmet one fails after its
timeout naming what was awaited; and no test module grows a wait of its own.

The source scan reads every module under tests/ with :mod:`ast`: it fails on a function named like a wait helper
(``wait_until``, ``wait_for``, ``until``, ``poll`` …) and on a ``while`` loop that reads ``time.monotonic()``
(a deadline loop). The loops kept on purpose are listed in :data:`KEPT`, each with the reason: they do more than
wait for a condition.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import conftest
from tests.waiting import async_wait_until, wait_until

TESTS = Path(__file__).resolve().parent
HELPER_NAME = re.compile(r"^_*(async_)?(wait_until|wait_for(_\w+)?|until|poll)(_async)?$")

KEPT: dict[tuple[str, str], str] = {
    ("daemon/brokers/broker_child.py", "main"): "a child process draining a queue until it stayed idle a given time",
    ("daemon/brokers/broker_kits.py", "take"): "returns None when no message comes: tests assert that none does",
    ("daemon/brokers/broker_kits.py", "read_line"): "select()s on the child's stdout for the time left, reading",
    ("daemon/brokers/test_redis.py", "polls_in"): "counts a consumer's looks over a fixed time",
    ("daemon/worker/test_controls.py", "_stays_queued"): "asserts a row stays queued for a whole time",
    ("daemon/worker/test_eta.py", "follow_document"): "samples both rows every 50 ms until the guide is written",
    ("daemon/worker/test_failures.py", "_keep_terminating"): "ends database sessions for a given time",
    ("daemon/worker/test_idle_unload.py", "_read_through_hand_over"): "counts the reads, and those without a worker",
    ("gui/conftest.py", "wait_until"): "the GUI tests' fixture: async_wait_until with their defaults (30 s, 20 ms)",
}


def test_a_met_condition_returns_its_value_at_once() -> None:
    looks: list[int] = []

    def ready() -> str:
        looks.append(1)
        return "ready"

    began = time.monotonic()
    assert wait_until(ready, timeout=60, what="the answer", interval=30) == "ready"
    assert time.monotonic() - began < 1.0 and len(looks) == 1  # one look, no interval slept


def test_a_condition_met_after_some_looks_returns_its_first_truthy_value() -> None:
    looks = iter([0, None, "", [], "third"])
    assert wait_until(lambda: next(looks), timeout=10, what="the third look", interval=0.001) == "third"


def test_an_unmet_condition_fails_after_its_timeout_naming_what_was_awaited() -> None:
    began = time.monotonic()
    with pytest.raises(AssertionError, match=r"^timed out after 0\.2 s waiting for the answer$"):
        wait_until(lambda: False, timeout=0.2, what="the answer", interval=0.01)
    assert 0.2 <= time.monotonic() - began < 5.0


async def test_the_async_twin_returns_at_once_and_awaits_a_condition_that_is_a_coroutine() -> None:
    async def ready() -> str:
        return "ready"

    began = time.monotonic()
    assert await async_wait_until(lambda: "ready", timeout=60, what="the answer", interval=30) == "ready"
    assert await async_wait_until(ready, timeout=60, what="the answer", interval=30) == "ready"
    assert time.monotonic() - began < 1.0


async def test_the_async_twin_fails_after_its_timeout_with_the_same_message() -> None:
    async def never() -> bool:
        return False

    began = time.monotonic()
    with pytest.raises(AssertionError, match=r"^timed out after 0\.2 s waiting for the answer$"):
        await async_wait_until(never, timeout=0.2, what="the answer", interval=0.01)
    assert 0.2 <= time.monotonic() - began < 5.0


def _own_waits(path: Path) -> Iterator[tuple[str, str, int]]:
    """``(kind, enclosing function, line)`` of each wait helper defined and each deadline loop in ``path``."""

    def visit(node: ast.AST, function: str) -> Iterator[tuple[str, str, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                if HELPER_NAME.match(child.name):
                    yield "a wait helper", child.name, child.lineno
                yield from visit(child, child.name)
                continue
            if isinstance(child, ast.While) and "time.monotonic()" in ast.unparse(child):
                yield "a deadline loop", function, child.lineno
            yield from visit(child, function)

    yield from visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)), "<module>")


def test_no_test_module_waits_its_own_way() -> None:
    found, kept = [], set()
    for path in sorted(TESTS.rglob("*.py")):
        name = path.relative_to(TESTS).as_posix()
        if name == "waiting.py":
            continue
        for kind, function, line in _own_waits(path):
            if (name, function) in KEPT:
                kept.add((name, function))
            else:
                found.append(f"tests/{name}:{line}: {kind} in {function}")
    assert not found, "wait with tests/waiting.py instead (or list the loop in KEPT, with why):\n" + "\n".join(found)
    assert kept == set(KEPT), f"KEPT names loops that are gone: {sorted(set(KEPT) - kept)}"


def test_the_scan_sees_a_helper_and_a_deadline_loop(tmp_path: Path) -> None:
    module = tmp_path / "test_sample.py"
    module.write_text(
        "import time\n"
        "def wait_for(condition):\n"
        "    pass\n"
        "def test_it():\n"
        "    deadline = time.monotonic() + 5\n"
        "    while not done():\n"
        "        assert time.monotonic() < deadline\n",
        encoding="utf-8",
    )
    assert list(_own_waits(module)) == [("a wait helper", "wait_for", 2), ("a deadline loop", "test_it", 6)]


def test_the_slow_rule_marks_the_tests_that_start_workers_and_only_those() -> None:
    """The rule in tests/conftest.py, asked of a real collection; and every folder and fixture it names exists."""
    collected = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            "-m",
            "slow",
            "tests/daemon/worker/test_jobs.py",
            "tests/gui/worker/test_texts.py",
            "tests/core/test_retry.py",
        ],
        capture_output=True,
        text=True,
        cwd=TESTS.parent,
        timeout=300,
        check=False,
    ).stdout
    slow = {line.split("::")[0] for line in collected.splitlines() if "::" in line}
    assert "tests/daemon/worker/test_jobs.py" in slow  # by its folder
    assert "tests/gui/worker/test_texts.py" in slow  # by the fixture that starts a real worker
    assert "tests/core/test_retry.py" not in slow  # store tests start nothing
    sources = "\n".join(path.read_text(encoding="utf-8") for path in TESTS.rglob("*.py"))
    for fixture in conftest.SLOW_FIXTURES:
        assert f"def {fixture}(" in sources, f"SLOW_FIXTURES names {fixture}, which no test defines"
    for path in conftest.SLOW_PATHS:
        assert (TESTS / path).exists(), f"SLOW_PATHS names {path}, which no longer exists"

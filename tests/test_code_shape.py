"""Code shape: every function of core, daemon and gui holds at most 60 lines.

A function (or method, ``async`` or nested) is measured from its ``def`` line to its last line
(``end_lineno - lineno + 1``, decorators not counted), read with :mod:`ast`. A function that grows past the limit is
split into named steps. Modules have no line cap: they are sized by their subject.

The only exemption is ``core/**/migrations/versions/*``: a migration is schema history, written once and then
never edited (an existing database's upgrade path must stay what it was), so it is not split when it is long.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("core", "daemon", "gui", "devkit")
MAX_FUNCTION_LINES = 60


def _exempt(path: Path) -> bool:
    """Schema history: ``core/**/migrations/versions/*``."""
    parts = path.relative_to(ROOT).parts
    return parts[0] == "core" and any(parts[i : i + 2] == ("migrations", "versions") for i in range(len(parts) - 1))


def _modules() -> Iterator[Path]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if not _exempt(path):
                yield path


def _long_functions(path: Path) -> Iterator[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                yield f"{node.name} (line {node.lineno})", length


def test_the_packages_hold_modules_to_measure():
    modules = list(_modules())
    assert {path.relative_to(ROOT).parts[0] for path in modules} == set(PACKAGES)
    assert len(modules) > 50


def test_every_function_is_at_most_60_lines():
    offenders = [
        f"{path.relative_to(ROOT)}: {name}: {length} lines"
        for path in _modules()
        for name, length in _long_functions(path)
    ]
    assert not offenders, f"functions over {MAX_FUNCTION_LINES} lines (split them into named steps):\n" + "\n".join(
        offenders
    )


def test_only_schema_history_is_exempt():
    exempt = [path for package in PACKAGES for path in (ROOT / package).rglob("*.py") if _exempt(path)]
    assert exempt, "the migrations' versions folder was not found: the exemption names a path that is gone"
    assert all("migrations" in path.parts and "versions" in path.parts for path in exempt)
    assert not _exempt(ROOT / "core" / "migrations" / "env.py")
    assert not _exempt(ROOT / "daemon" / "migrations" / "versions" / "x.py")

"""Layering: core imports neither Qt nor daemon/gui; daemon never imports Qt or gui; gui never imports daemon.

Enforced by import-linter (the contracts live in pyproject.toml), plus a check that no package has an import cycle,
counting the imports made for type checking (plug-ins are chosen by a factory above them, never by their base).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_hold():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def _cycle(graph: grimp.ImportGraph, modules: set[str]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        stack.append(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module) & modules):
            if state.get(imported) == 1:
                return [*stack[stack.index(imported) :], imported]
            if imported not in state and (found := visit(imported)):
                return found
        stack.pop()
        state[module] = 2
        return None

    for module in sorted(modules):
        if module not in state and (found := visit(module)):
            return found
    return None


@pytest.mark.parametrize("package", ["core", "daemon", "gui", "devkit"])
def test_no_package_has_an_import_cycle(package: str):
    graph = grimp.build_graph(package, exclude_type_checking_imports=False)
    modules = {m for m in graph.modules if m != package}  # a package's __init__ re-exporting is not a cycle
    assert _cycle(graph, modules) is None, f"import cycle: {' -> '.join(_cycle(graph, modules) or [])}"

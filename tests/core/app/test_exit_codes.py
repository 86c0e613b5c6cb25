"""Every StudyJobs process answers with the exit codes of one table, each number with one meaning."""

from __future__ import annotations

import re
from pathlib import Path

from core.app import exit_codes

ROOT = Path(__file__).resolve().parents[3]


def test_each_exit_code_has_one_meaning() -> None:
    codes = {name: getattr(exit_codes, name) for name in exit_codes.__all__}
    assert len(set(codes.values())) == len(codes), codes


def test_no_module_defines_an_exit_code_of_its_own() -> None:
    """A second ``EXIT_… = n`` elsewhere is how one number came to mean both "database" and "already running"."""
    table = ROOT / "core" / "app" / "exit_codes.py"
    defined = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for package in ("core", "daemon", "gui")
        for path in (ROOT / package).rglob("*.py")
        if path != table
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.match(r"\s*EXIT_[A-Z_]+(\s*,\s*EXIT_[A-Z_]+)*\s*(:\s*\w+\s*)?=\s*\(?\d", line)
    ]
    assert defined == []

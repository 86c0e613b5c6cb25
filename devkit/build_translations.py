"""Rebuild the translations: ``pyside6-lupdate`` the GUI's sources into the ``.ts`` files, ``pyside6-lrelease`` them.

Usage: ``python -m devkit.build_translations`` (update and build) or ``--check`` (exit 1 when the committed files are
out of date). A development tool, never imported by the app.
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["LANGUAGES", "SOURCES", "TS_DIR", "build", "check", "lrelease", "lupdate", "tool"]

ROOT = Path(__file__).resolve().parents[1]
TS_DIR = ROOT / "resources" / "translations"
LANGUAGES = ("pt_BR", "en")
_SKIP = {"__main__.py"}
SOURCES = sorted(p for p in (ROOT / "gui").rglob("*.py") if p.name not in _SKIP)


def tool(name: str) -> str:
    """The path of a PySide6 tool (``pyside6-lupdate``): beside this Python, else on PATH."""
    here = Path(sys.executable).with_name(name)
    found = str(here) if here.exists() else shutil.which(name)
    if not found:
        raise FileNotFoundError(f"{name} not found; install pyside6-essentials into this environment")
    return found


def ts_path(language: str, folder: Path = TS_DIR) -> Path:
    """``studyjobs_<language>.ts`` in ``folder``."""
    return folder / f"studyjobs_{language}.ts"


def lupdate(folder: Path = TS_DIR) -> None:
    """Update the ``.ts`` files in ``folder`` from the sources (obsolete strings dropped)."""
    for language in LANGUAGES:
        cmd = [tool("pyside6-lupdate"), *map(str, SOURCES), "-no-obsolete", "-locations", "none",
               "-source-language", "en", "-target-language", language,
               "-ts", str(ts_path(language, folder))]  # fmt: skip
        subprocess.run(cmd, check=True, capture_output=True, text=True)


def lrelease(folder: Path = TS_DIR, out: Path | None = None) -> list[Path]:
    """Build a ``.qm`` per ``.ts`` of ``folder`` into ``out`` (default: the same folder)."""
    out = out or folder
    built = []
    for language in LANGUAGES:
        qm = out / f"studyjobs_{language}.qm"
        cmd = [tool("pyside6-lrelease"), str(ts_path(language, folder)), "-qm", str(qm)]
        subprocess.run(cmd, check=True, capture_output=True, text=True)
        built.append(qm)
    return built


def build() -> None:
    """Update the ``.ts`` files, then build the ``.qm`` files."""
    lupdate()
    lrelease()


def check() -> list[str]:
    """What is out of date: ``.ts`` files missing source strings, or ``.qm`` files that differ from a rebuild."""
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        for language in LANGUAGES:
            shutil.copy(ts_path(language), ts_path(language, scratch))
        lupdate(scratch)
        for language in LANGUAGES:
            if ts_path(language, scratch).read_bytes() != ts_path(language).read_bytes():
                problems.append(f"{ts_path(language).name} is not up to date with the sources (run lupdate)")
        built = lrelease(TS_DIR, scratch)
        for qm in built:
            committed = TS_DIR / qm.name
            if not committed.exists() or not filecmp.cmp(qm, committed, shallow=False):
                problems.append(f"{qm.name} is not up to date with its .ts (run lrelease)")
    return problems


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the committed files are current")
    args = parser.parse_args(argv)
    if args.check:
        problems = check()
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0
    build()
    return 0


if __name__ == "__main__":
    sys.exit(main())

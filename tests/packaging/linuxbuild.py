"""The real Linux build, made once per test run for the tests that need it (the bundle, the .deb): the
:func:`linux_build` fixture (given to the tests by ``conftest.py``) and the marks of a test that uses it."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

BUILD_REASON = "builds the ~410 MB PyInstaller bundle and the .deb (2–4 min): set STUDYJOBS_BUILD_BUNDLE=1 to run it"
needs_build = [
    pytest.mark.skipif(os.environ.get("STUDYJOBS_BUILD_BUNDLE") != "1", reason=BUILD_REASON),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="packaging/build_linux.sh builds on Linux"),
]
"""Marks of a test that uses :func:`linux_build`."""


@dataclass(frozen=True)
class LinuxBuild:
    """What ``packaging/build_linux.sh`` made in ``folder``, and what it printed."""

    folder: Path
    returncode: int
    stdout: str
    stderr: str

    @property
    def dist(self) -> Path:
        return self.folder / "dist" / "StudyJobs"

    def check(self) -> None:
        assert self.returncode == 0, self.stdout[-3000:] + self.stderr[-5000:]


@pytest.fixture(scope="session")
def linux_build(tmp_path_factory: pytest.TempPathFactory) -> LinuxBuild:
    folder = tmp_path_factory.mktemp("linux-build")
    env = {**os.environ, "STUDYJOBS_BUILD_DIR": str(folder), "PYTHON": sys.executable}
    result = subprocess.run(
        ["bash", str(ROOT / "packaging" / "build_linux.sh")],
        env=env,
        capture_output=True,
        text=True,
        timeout=1400,
        check=False,
    )
    print(result.stdout[-3000:])
    return LinuxBuild(folder, result.returncode, result.stdout, result.stderr)

"""The real Linux bundle: packaging/build_linux.sh builds it (both --self-test's run inside the script) and packs it.

Slow (2–4 minutes on 2 cores, about 410 MB on disk), so it runs only when ``STUDYJOBS_BUILD_BUNDLE=1``; the build is
shared with the .deb's test (``conftest.linux_build``).
"""

from __future__ import annotations

import os
import tarfile
from pathlib import Path

import pytest

from tests.packaging.linuxbuild import LinuxBuild, needs_build

pytestmark = needs_build


@pytest.mark.timeout(1500)
def test_the_linux_bundle_builds_passes_its_self_tests_and_packs(linux_build: LinuxBuild) -> None:
    linux_build.check()
    assert linux_build.stdout.count("StudyJobs self-test passed") == 2
    assert "text recognition (" in linux_build.stdout  # the worker bundle carries Tesseract and its trained data
    dist = linux_build.dist
    for name in ("StudyJobs", "studyjobs-worker"):
        assert os.access(dist / name, os.X_OK)
    tarballs = list(linux_build.folder.glob("StudyJobs-*-linux-*.tar.gz"))
    assert len(tarballs) == 1
    with tarfile.open(tarballs[0]) as archive:
        names = {Path(n).relative_to(Path(n).parts[0]).as_posix() for n in archive.getnames() if "/" in n}
    assert {
        "StudyJobs/StudyJobs",
        "StudyJobs/studyjobs-worker",
        "studyjobs.desktop",
        "studyjobs.svg",
        "install.sh",
        "uninstall.sh",
    } <= names
    assert any(n.endswith("SmolLM2-135M-Instruct.Q4_1.gguf") for n in names)

"""Fixtures for the worker daemon: the tiny model, and a data folder whose daemons are stopped afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from devkit.tiny_gguf import write_tiny_model
from tests.daemon.worker.workerhome import DaemonHome


@pytest.fixture(scope="session")
def tiny_gguf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The suite's tiny deterministic model (fast: a guide in well under a second)."""
    return write_tiny_model(tmp_path_factory.mktemp("tiny-model") / "tiny.gguf")


@pytest.fixture
def home(tmp_path: Path, tiny_gguf: Path) -> Iterator[DaemonHome]:
    """A data folder whose settings use the tiny model; every daemon started on it is stopped afterwards."""
    daemon_home = DaemonHome(tmp_path, {"model": {"kind": "gguf", "gguf_path": str(tiny_gguf), "n_threads": 1}})
    try:
        yield daemon_home
    finally:
        daemon_home.stop_all()

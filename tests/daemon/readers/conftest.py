"""Fixtures for the document reader tests: the real corpus (fetched once per machine), the bad-input corpus
built from it, and a recorder for progress reports."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from tests.daemon.corpus import Corpus, fetch_corpus
from tests.daemon.readers.badfiles import BadInput, build_bad_inputs
from tests.daemon.readers.support import ProgressLog


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    """The real documents (Debian manuals, pypdf's resources), downloaded on first use and cached."""
    return fetch_corpus()


@pytest.fixture(scope="session")
def bad_inputs(corpus: Corpus, tmp_path_factory: pytest.TempPathFactory) -> list[BadInput]:
    """Every damaged, protected, empty or mislabelled document, with the code it must raise."""
    return build_bad_inputs(corpus, tmp_path_factory.mktemp("bad-inputs"))


@pytest.fixture
def progress() -> ProgressLog:
    """A fresh progress recorder."""
    return ProgressLog()


@pytest.fixture
def joined_threads() -> Iterator[list[threading.Thread]]:
    """Threads a test starts; joined (with a deadline) when the test ends, whatever happened."""
    threads: list[threading.Thread] = []
    yield threads
    for thread in threads:
        thread.join(timeout=60)
    assert not [t for t in threads if t.is_alive()], "a reader thread did not finish"

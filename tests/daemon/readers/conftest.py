"""Fixtures for the document reader tests: the real corpus (fetched once per machine), the bad-input corpus
built from it, and a recorder for progress reports."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemon.corpus import Corpus, _fetch_debian, _locked, fetch_corpus
from tests.daemon.readers.badfiles import BadInput, build_bad_inputs
from tests.daemon.readers.support import ProgressLog


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    """The real documents (Debian manuals, pypdf's resources), downloaded on first use and cached."""
    return fetch_corpus()


EDU_MANUAL_PACKAGE = "debian-edu-doc-pt-br"
EDU_MANUAL_FOLDER = "usr/share/doc/debian-edu-doc-pt-br"


@pytest.fixture(scope="session")
def edu_manuals(corpus: Corpus) -> list[Path]:
    """The Debian Edu manuals in Brazilian Portuguese as EPUBs (``debian-edu-bookworm-manual.epub`` … as the
    distribution ships them; the same manual's ``.html`` lies beside each).

    Fetched into the corpus folder on first use, like the rest of the corpus (not in
    :data:`~tests.daemon.corpus.DEBIAN_PACKAGES`, whose PDFs other tests read one by one).
    """
    with _locked(corpus.root):
        _fetch_debian(corpus.root, EDU_MANUAL_PACKAGE)
    return sorted((corpus.debian(EDU_MANUAL_PACKAGE) / EDU_MANUAL_FOLDER).glob("debian-edu-*-manual.epub"))


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

"""Real documents for the daemon's tests: fetched by the test setup, cached, never committed.

* Debian packages ``r-doc-pdf`` (the R manuals, up to 2,415 pages), ``auto-multiple-choice-doc-pdf`` (English,
  French and Japanese manuals) and ``camlidl-doc`` (a PDF manual and its HTML version), with ``apt-get download``
  and ``dpkg-deb -x`` (``apt-get update`` first when the download fails and we are root).
* Debian package ``texlive-lang-portuguese``: Brazilian-Portuguese LaTeX handouts and manuals (1 to 292 pages).
* Debian packages fetched on first use by the tests that read them (:func:`fetch_package`): ``debian-faq-pt``
  (the Debian FAQ in Portuguese as numbered plain text, PDF and HTML), ``developers-reference`` (an EPUB built by
  Sphinx), ``live-manual-epub`` (EPUBs of the Live Systems manual, one in Brazilian Portuguese).
* The ``resources/`` folder of pypdf's source distribution (:data:`PYPDF_SDIST`): PDFs encrypted with every
  scheme (RC4-40, RC4-128, AES-128, AES-256, owner-only passwords), scans, odd producers.

They are cached under ``~/.cache/studyjobs-test-corpus`` (``STUDYJOBS_TEST_CORPUS`` overrides), so a machine
fetches them once: each part is unpacked in a temporary folder and renamed into place when complete, under a
file lock, so concurrent test processes share one download. ``tests/daemon/readers/samples.py`` builds the good
and the damaged documents from them at test time.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "CORPUS_DIR",
    "DEBIAN_PACKAGES",
    "PORTUGUESE_PACKAGES",
    "PYPDF_SDIST",
    "Corpus",
    "CorpusError",
    "fetch_corpus",
    "fetch_package",
]

CORPUS_DIR = Path(os.environ.get("STUDYJOBS_TEST_CORPUS") or "~/.cache/studyjobs-test-corpus").expanduser()
DEBIAN_PACKAGES = ("r-doc-pdf", "auto-multiple-choice-doc-pdf", "camlidl-doc")
PORTUGUESE_PACKAGES = ("texlive-lang-portuguese",)
"""Brazilian-Portuguese documents (LaTeX course handouts and manuals), kept apart from :meth:`Corpus.pdfs`."""
PYPDF_SDIST = "pypdf==7.1.1"
"""A pypdf source distribution whose ``resources/`` holds ``encryption/r6-user-password.pdf`` and friends."""

_COMPLETE = ".complete"
_FETCH_TIMEOUT = 600


class CorpusError(RuntimeError):
    """The corpus could not be fetched (no network, no apt-get, a package gone from the archive)."""


@dataclass(frozen=True)
class Corpus:
    """Paths into the fetched corpus."""

    root: Path

    def debian(self, package: str) -> Path:
        """The unpacked tree of a Debian package (its ``usr/…``)."""
        return self.root / "debian" / package

    def r_manual(self, name: str) -> Path:
        """An R manual: ``R-intro``, ``R-FAQ``, ``R-exts``, ``refman`` (2,415 pages) …"""
        return self.debian("r-doc-pdf") / "usr/share/R/doc/manual" / f"{name}.pdf"

    def amc_manual(self, language: str) -> Path:
        """The Auto Multiple Choice manual in ``"en"``, ``"fr"`` or ``"ja"``."""
        folder = self.debian("auto-multiple-choice-doc-pdf") / "usr/share/doc/auto-multiple-choice"
        return folder / f"auto-multiple-choice.{language}.pdf"

    @property
    def camlidl_pdf(self) -> Path:
        """The Camlidl manual (26 pages, uncompressed Type 1 fonts)."""
        return self.debian("camlidl-doc") / "usr/share/doc/camlidl/camlidl-1.04.doc.pdf"

    @property
    def camlidl_html(self) -> list[Path]:
        """The Camlidl manual as HTML chapters, in reading order (``index.html``, ``main001.html`` …)."""
        folder = self.debian("camlidl-doc") / "usr/share/doc/camlidl/html"
        return [folder / "index.html", *sorted(folder.glob("main0*.html"))]

    def portuguese_pdf(self, name: str) -> Path:
        """A Portuguese PDF of ``texlive-lang-portuguese``: ``"cursolatex/cursolatex.pdf"`` (188 pages),
        ``"latexcheat-ptbr/latexsheet-ptbr.pdf"`` (two), ``"lshort-portuguese/pt-lshort.pdf"`` (181) …"""
        return self.debian("texlive-lang-portuguese") / "usr/share/doc/texlive-doc/latex" / name

    @property
    def faq_text_pt(self) -> Path:
        """The Debian FAQ in Portuguese as gzipped plain text (16 chapters numbered "Capítulo 1." …, questions
        "1.1." …, its own table of contents as one block); fetch ``debian-faq-pt`` first (:func:`fetch_package`)."""
        return self.debian("debian-faq-pt") / "usr/share/doc/debian/FAQ/debian-faq.pt.txt.gz"

    @property
    def faq_pdf_pt(self) -> Path:
        """The Debian FAQ in Portuguese as a gzipped PDF (75 pages, a bookmark per chapter and per question); fetch
        ``debian-faq-pt`` first (:func:`fetch_package`)."""
        return self.debian("debian-faq-pt") / "usr/share/doc/debian/FAQ/debian-faq.pt.pdf.gz"

    @property
    def developers_reference_epub(self) -> Path:
        """Debian's Developer's Reference as an EPUB 3 built by Sphinx (a nav document and an NCX, one file per
        chapter); fetch ``developers-reference`` first (:func:`fetch_package`)."""
        return self.debian("developers-reference") / "usr/share/developers-reference/developers-reference.epub"

    @property
    def live_manual_epub_pt(self) -> Path:
        """The Live Systems manual in Brazilian Portuguese as an EPUB 2 (an NCX; every chapter file opens with a
        paragraph number, not its title; passages left in English); fetch ``live-manual-epub`` first."""
        return self.debian("live-manual-epub") / "usr/share/doc/live-manual/epub/live-manual.pt_BR.epub"

    def pypdf(self, name: str) -> Path:
        """A file of pypdf's ``resources/`` (``"encryption/r6-user-password.pdf"``, ``"crazyones.pdf"`` …)."""
        return self.root / "pypdf-resources" / name

    def pdfs(self) -> list[Path]:
        """Every PDF of the Debian packages, each once (the R manuals also appear as symlinks, and
        ``fullrefman.pdf`` is a copy of ``refman.pdf``)."""
        found = {path.resolve() for package in DEBIAN_PACKAGES for path in self.debian(package).rglob("*.pdf")}
        return sorted((path for path in found if path.name != "fullrefman.pdf"), key=lambda path: path.name)


@contextlib.contextmanager
def _locked(root: Path) -> Iterator[None]:
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "a+b") as handle:
        try:
            import fcntl
        except ImportError:  # Windows: no lock; the rename keeps each part whole
            yield
            return
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            command, cwd=cwd, capture_output=True, text=True, timeout=_FETCH_TIMEOUT, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CorpusError(f"{' '.join(command)} failed: {exc}") from exc


def _install(target: Path, build: Path) -> None:
    """Mark ``build`` complete and move it to ``target`` (replacing an incomplete leftover)."""
    (build / _COMPLETE).write_text("ok\n", encoding="utf-8")
    if target.exists():
        shutil.rmtree(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    build.rename(target)


def _fetch_debian(root: Path, package: str) -> None:
    target = root / "debian" / package
    if (target / _COMPLETE).exists():
        return
    with tempfile.TemporaryDirectory(dir=root, prefix=f".{package}-") as tmp:
        work = Path(tmp)
        result = _run(["apt-get", "download", package], work)
        if result.returncode != 0 and hasattr(os, "geteuid") and os.geteuid() == 0:
            _run(["apt-get", "update"], work)
            result = _run(["apt-get", "download", package], work)
        debs = sorted(work.glob(f"{package}_*.deb"))
        if result.returncode != 0 or not debs:
            raise CorpusError(f"apt-get download {package} failed: {result.stderr.strip()[-500:]}")
        tree = work / "tree"
        unpacked = _run(["dpkg-deb", "-x", str(debs[0]), str(tree)], work)
        if unpacked.returncode != 0:
            raise CorpusError(f"dpkg-deb -x {debs[0].name} failed: {unpacked.stderr.strip()[-500:]}")
        _install(target, tree)


def _fetch_pypdf_resources(root: Path) -> None:
    target = root / "pypdf-resources"
    if (target / _COMPLETE).exists():
        return
    with tempfile.TemporaryDirectory(dir=root, prefix=".pypdf-") as tmp:
        work = Path(tmp)
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "-d", str(work)]
        result = _run([*command, PYPDF_SDIST], work)
        archives = sorted(work.glob("pypdf-*.tar.gz"))
        if result.returncode != 0 or not archives:
            raise CorpusError(f"pip download {PYPDF_SDIST} failed: {result.stderr.strip()[-500:]}")
        tree = work / "resources"
        with tarfile.open(archives[0]) as archive:
            for member in archive.getmembers():
                parts = Path(member.name).parts
                if len(parts) > 2 and parts[1] == "resources" and (member.isfile() or member.isdir()):
                    member.name = str(Path(*parts[2:]))
                    archive.extract(member, tree, filter="data")
        if not (tree / "encryption" / "r6-user-password.pdf").is_file():
            raise CorpusError(f"{archives[0].name} has no resources/encryption/: pick another pypdf version")
        _install(target, tree)


def fetch_corpus(root: Path = CORPUS_DIR) -> Corpus:
    """The corpus under ``root``, fetched first if it is not complete there (seconds; once per machine).

    Raises:
        CorpusError: A part could not be fetched.
    """
    with _locked(root):
        for package in (*DEBIAN_PACKAGES, *PORTUGUESE_PACKAGES):
            _fetch_debian(root, package)
        _fetch_pypdf_resources(root)
    return Corpus(root)


def fetch_package(corpus: Corpus, package: str) -> Path:
    """The unpacked tree of Debian ``package`` in ``corpus``, fetched first when missing (once per machine).

    Raises:
        CorpusError: The package could not be fetched.
    """
    with _locked(corpus.root):
        _fetch_debian(corpus.root, package)
    return corpus.debian(package)


if __name__ == "__main__":  # python tests/daemon/corpus.py: fetch now and print where it is
    corpus = fetch_corpus()
    print(corpus.root, len(corpus.pdfs()), "PDFs")

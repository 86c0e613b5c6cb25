"""``--self-test`` of the bundled executables: does this bundle really work on this machine?

Checks, in order, and stops at the first failure:

1. *GUI only*: on Linux, the X11 libraries of Qt's ``xcb`` plugin are installed; Qt's platform plugin loads (a
   ``QApplication`` on ``offscreen``), the SVG plugins read the app's icon, and the translations load.
   *Worker only*: llama.cpp's shared library loads, the default model is found and is a GGUF file, and the model
   reads a short prompt and writes two tokens on this CPU — in a child process, so that a llama.cpp compiled for
   a newer CPU, which dies with SIGILL, fails the self-test with a line that says so instead of the user's first
   study guide); text recognition (Tesseract and its trained data) reads the self-test PDF's first page drawn as a
   picture.
2. A temporary store opens (``core.app.storage.database.open_app_database`` on a temporary SQLite file, migrated to
head). 3. One real document runs through the bundled worker: the ``studyjobs-worker`` executable next to this one (from
   source: ``python -m daemon.cli.main``) starts on that temporary data folder (``STUDYJOBS_DATA_DIR``), and the
   2-page PDF shipped in ``resources/selftest`` is queued through the store. The worker's self-test asks for a
   study guide, written by the bundled model into a temporary output folder (the guide's file must be there); the
   window's asks for *only extract* (its part is Qt; the worker's self-test covers the model).

Prints one line (``StudyJobs self-test passed: …`` or ``StudyJobs self-test FAILED: …``), also written to the
file named by ``STUDYJOBS_SELFTEST_REPORT`` (a windowed Windows executable has no console); returns 0 or 1.
The worker's own log is printed after a failure. Everything happens in a temporary folder that is removed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

__all__ = [
    "GUIDE_TIMEOUT",
    "JOB_TIMEOUT",
    "MODEL_CHECK_FLAG",
    "SELF_TEST_PDF",
    "check_desktop_libraries",
    "check_model",
    "check_text_recognition",
    "run_isolated",
    "run_model_check",
    "run_self_test",
    "self_test_pdf",
    "worker_command",
]

MODEL_CHECK_FLAG = "--self-test-model"
"""The worker executable's hidden flag that runs :func:`model_check` alone and prints its result line."""
MODEL_CHECK_TIMEOUT = 300.0
"""Seconds the model check may take: loading a model from a slow disk and reading a prompt on an old CPU."""
JOB_TIMEOUT = 180.0
"""Seconds the extract-only job may take, worker start included (a cold start of a bundle on a slow disk is slow)."""
GUIDE_TIMEOUT = 600.0
"""Seconds the document with its study guide may take (the bundled model writes one in about a minute on 2 cores)."""
SELF_TEST_PDF = "photosynthesis.pdf"
"""The real 2-page PDF the self-test reads, in ``resources/selftest`` (made by ``gui.guide.export_pdf`` from the
Markdown beside it)."""
_CLEARED_ENV = ("STUDYJOBS_DATABASE_URL", "STUDYJOBS_BROKER_URL", "STUDYJOBS_DAEMON_COMMAND")
_WORKER_NAME = "studyjobs-worker"


class SelfTestError(RuntimeError):
    """One check failed; the message says which and why."""


def worker_command() -> list[str]:
    """The worker to start: the executable next to this one when frozen, else this Python's ``daemon.cli.main``."""
    if getattr(sys, "frozen", False):
        name = _WORKER_NAME + (".exe" if sys.platform == "win32" else "")
        path = Path(sys.executable).with_name(name)
        if not path.is_file():
            raise SelfTestError(f"the worker executable is missing: {path}")
        return [str(path), "daemon"]
    return [sys.executable, "-m", "daemon.cli.main", "daemon"]


def check_desktop_libraries() -> str:
    """Linux: the X11 libraries Qt's ``xcb`` plugin links with are installed (:mod:`gui.platform_check`), so the
    window opens on a desktop and not only on the offscreen platform checked next."""
    if not sys.platform.startswith("linux"):
        return "no X11 libraries needed"
    from gui.platform_check import install_command, missing_libraries, present_libraries

    present = present_libraries()
    if present is None:
        return "X11 libraries not checked (no ldconfig)"
    missing = missing_libraries(present)
    if missing:
        raise SelfTestError(f"the window needs {', '.join(missing)}: {install_command(missing)}")
    return "X11 libraries"


def check_qt() -> str:
    """Qt's offscreen platform, the SVG icon and the translations (GUI bundle)."""
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtCore import QTranslator
    from PySide6.QtGui import QIcon, QImageReader
    from PySide6.QtWidgets import QApplication

    from gui.i18n import ICONS_DIR, TRANSLATIONS_DIR

    app = QApplication.instance() or QApplication(["studyjobs-self-test"])
    platform = QApplication.platformName()
    if platform != "offscreen":
        raise SelfTestError(f"Qt started the {platform!r} platform instead of offscreen")
    formats = {bytes(f.data()).decode() for f in QImageReader.supportedImageFormats()}
    if "svg" not in formats:
        raise SelfTestError(f"Qt's SVG image plugin did not load (formats: {sorted(formats)})")
    icon = QIcon(str(ICONS_DIR / "studyjobs.svg"))
    if icon.isNull() or icon.pixmap(32, 32).isNull():
        raise SelfTestError(f"the app icon did not load from {ICONS_DIR}")
    translator = QTranslator(app)
    if not translator.load("studyjobs_pt_BR", str(TRANSLATIONS_DIR)):
        raise SelfTestError(f"the Portuguese translation did not load from {TRANSLATIONS_DIR}")
    return f"Qt {platform}+svg"


def check_model() -> str:
    """llama.cpp and the default model (worker bundle), checked in a child process of this executable.

    The child (``--self-test-model``) runs :func:`model_check`. A llama.cpp built for instructions this CPU lacks
    does not raise: it kills its process (SIGILL, or ``STATUS_ILLEGAL_INSTRUCTION`` on Windows). In a child, that
    death becomes one failed line that says so, instead of a self-test that vanishes without a word.
    """
    if getattr(sys, "frozen", False):
        command = [sys.executable, MODEL_CHECK_FLAG]
    else:
        command = [sys.executable, str(Path(__file__).with_name("entry_worker.py")), MODEL_CHECK_FLAG]
    return run_isolated(command, "the model check")


def model_check() -> str:
    """Load the default model as the worker does and read a prompt with it; the summary of what was checked."""
    import llama_cpp

    from daemon.llm.local_model import SharedModel, default_n_threads
    from daemon.llm.models import bundled_model_path

    path = bundled_model_path()
    # Loaded as the worker loads it: the file check, the processor check, the worker's threads and batch.
    model = SharedModel(path, n_ctx=512, n_threads=default_n_threads(), n_batch=256)
    try:
        # A prompt long enough for the batched matrix kernels, which use the newest instructions the build allows.
        reply = model.llama.create_completion(SELF_TEST_PROMPT, max_tokens=2, temperature=0.0)
        tokens = reply["usage"]["prompt_tokens"]
    finally:
        model.close()
    size = path.stat().st_size // 2**20
    return f"llama.cpp {llama_cpp.__version__} + {path.name} ({size} MB, read {tokens} prompt tokens)"


def check_text_recognition() -> str:
    """Text recognition (worker bundle): the self-test PDF's first page, drawn as a picture with no text layer, is
    read back by the bundled Tesseract with its trained data, as the reader reads a scanned page."""
    import pypdfium2

    from daemon.readers.formats.ocr import PageRecogniser, available, tessdata_dir
    from daemon.readers.formats.pdf import render_for_recognition

    if not available():
        raise SelfTestError(f"text recognition is missing: tesserocr, or the trained data in {tessdata_dir()}")
    document = pypdfium2.PdfDocument(str(self_test_pdf()))
    try:
        image = render_for_recognition(document, None, 0)  # drawn as the reader draws a scanned page
    finally:
        document.close()
    started = time.monotonic()
    with PageRecogniser("en", lambda: False) as recogniser:
        recogniser.give(0, image)
        text = "".join(page_text for _, page_text in recogniser.pages())
    if "photosynthesis" not in text.lower():
        raise SelfTestError(f"text recognition misread the self-test's page: {text[:80]!r}")
    return f"text recognition ({len(text.split())} words of a page in {time.monotonic() - started:.1f} s)"


def run_model_check() -> int:
    """The child's side of :func:`check_model`: print :func:`model_check`'s line (exit 0), or the error (exit 1)."""
    try:
        line = model_check()
    except Exception as error:
        print(f"{type(error).__name__}: {error}", file=sys.stderr, flush=True)
        return 1
    print(line, flush=True)
    return 0


def run_isolated(command: list[str], what: str, *, timeout: float = MODEL_CHECK_TIMEOUT) -> str:
    """Run ``command`` (a check in its own process) and return the last line it printed.

    Raises:
        SelfTestError: It crashed, failed or hung; the message says which, with its last words.
    """
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired as expired:
        raise SelfTestError(f"{what} did not finish within {timeout:.0f} s") from expired
    output = result.stdout.strip().splitlines()
    errors = result.stderr.strip().splitlines()
    if result.returncode == 0 and output:
        return output[-1]
    from daemon.watchdog import describe_exit  # the worker bundle's; the GUI's self-test never gets here

    crash = describe_exit(result.returncode)
    if crash:
        raise SelfTestError(f"{what} crashed its process ({crash})")
    last = errors[-1] if errors else f"exit code {result.returncode}"
    raise SelfTestError(f"{what} failed: {last}")


SELF_TEST_PROMPT = "Photosynthesis turns light, water and carbon dioxide into sugar and oxygen. " * 8


@contextlib.contextmanager
def _worker(data_dir: Path) -> Iterator[subprocess.Popen[bytes]]:
    env = {k: v for k, v in os.environ.items() if k not in _CLEARED_ENV}
    env["STUDYJOBS_DATA_DIR"] = str(data_dir)
    env["QT_QPA_PLATFORM"] = "offscreen"
    log = open(data_dir / "worker-output.log", "wb")  # noqa: SIM115 - closed below
    process = subprocess.Popen(worker_command(), env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    try:
        yield process
    finally:
        if process.poll() is None:
            if sys.platform == "win32":
                process.terminate()  # no SIGTERM on Windows; the temporary folder is thrown away anyway
            else:
                process.send_signal(signal.SIGTERM)  # the worker's graceful stop
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        log.close()


def self_test_pdf() -> Path:
    """The shipped PDF: under ``sys._MEIPASS`` in a bundle, else the repository's ``resources/selftest``."""
    base = Path(getattr(sys, "_MEIPASS", Path(__file__).resolve().parents[1]))
    path = base / "resources" / "selftest" / SELF_TEST_PDF
    if not path.is_file():
        raise SelfTestError(f"the self-test's PDF is missing: {path}")
    return path


def _prepare(data_dir: Path) -> Path:
    """Settings whose output folder is inside ``data_dir``, and a copy of the PDF there; the PDF's path."""
    import shutil

    import tomli_w

    settings = {"output_dir": str(data_dir / "guides")}
    (data_dir / "settings.toml").write_text(tomli_w.dumps(settings), "utf-8")
    document = data_dir / SELF_TEST_PDF
    shutil.copyfile(self_test_pdf(), document)
    return document


async def _run_job(data_dir: Path, process: subprocess.Popen[bytes], *, guide: bool) -> str:
    from core.app.documents.pipelines import Pipelines
    from core.app.settings.config import default_database_url
    from core.app.storage.database import head_revision, make_app_store, open_app_database
    from core.status import JobStatus

    db = await open_app_database(default_database_url(data_dir))
    try:
        store = make_app_store(db)
        document = data_dir / SELF_TEST_PDF
        params = {"path": str(document), "only_extract": not guide}
        job = await store.enqueue("ingest", title=document.name, params=params)
        started = time.monotonic()
        timeout = GUIDE_TIMEOUT if guide else JOB_TIMEOUT
        view = await _wait_for_document(Pipelines(store), job.id, process, started + timeout, timeout)
        if view.status != JobStatus.DONE:
            raise SelfTestError(f"the document ended {view.status}: {view.error or 'no reason given'}")
        took = time.monotonic() - started
        if not guide:
            return f"store at {head_revision()}, {SELF_TEST_PDF} read in {took:.1f} s"
        written = sorted((data_dir / "guides").glob("*.md"))
        if not written or not written[0].read_text("utf-8").strip():
            raise SelfTestError(f"the document is done but no study guide is in {data_dir / 'guides'}")
        size = written[0].stat().st_size
        return f"store at {head_revision()}, study guide of {SELF_TEST_PDF} ({size} bytes) in {took:.1f} s"
    finally:
        await db.dispose()


async def _wait_for_document(
    pipelines: Any, document_id: Any, process: subprocess.Popen[bytes], deadline: float, timeout: float
) -> Any:
    """The document's view once it ended (its guide too, when it wants one)."""
    from core.status import TERMINAL_JOB_STATUSES

    while True:
        view = await pipelines.get(document_id)
        if view is not None and view.status in TERMINAL_JOB_STATUSES:
            return view
        if process.poll() is not None:
            raise SelfTestError(f"the worker exited with code {process.returncode} before the document ended")
        if time.monotonic() > deadline:
            status = view.status if view is not None else "missing"
            raise SelfTestError(f"the document was still {status} after {timeout:.0f} s")
        await asyncio.sleep(0.2)


def run_self_test(kind: str, checks: list[Callable[[], str]], *, guide: bool = False) -> int:
    """Run ``checks`` then the store and document checks (with a study guide when ``guide``); print one line and
    return the exit code (0 passed)."""
    started = time.monotonic()
    parts: list[str] = []
    failure = ""
    worker_log = ""
    with tempfile.TemporaryDirectory(prefix="studyjobs-selftest-", ignore_cleanup_errors=True) as temporary:
        data_dir = Path(temporary)
        try:
            for check in checks:
                parts.append(check())
            _prepare(data_dir)
            with _worker(data_dir) as process:
                parts.append(asyncio.run(_run_job(data_dir, process, guide=guide)))
        except Exception as error:
            failure = f"{type(error).__name__}: {error}" if not isinstance(error, SelfTestError) else str(error)
            if sys.stderr is not None:
                traceback.print_exc(file=sys.stderr)
            log_file = data_dir / "worker-output.log"
            worker_log = log_file.read_text("utf-8", errors="replace") if log_file.is_file() else ""
    elapsed = f"{time.monotonic() - started:.1f} s"
    if failure:
        line = f"StudyJobs self-test FAILED ({kind}, {elapsed}): {failure}"
    else:
        line = f"StudyJobs self-test passed ({kind}, {elapsed}): {'; '.join(parts)}"
    _report(line, worker_log)
    return 1 if failure else 0


def _report(line: str, worker_log: str) -> None:
    if sys.stdout is not None:
        print(line, flush=True)
    if worker_log and sys.stderr is not None:
        print(f"--- worker output ---\n{worker_log.rstrip()}", file=sys.stderr, flush=True)
    target = os.environ.get("STUDYJOBS_SELFTEST_REPORT", "").strip()
    if target:
        Path(target).write_text(line + "\n", encoding="utf-8")

"""The study author's first hour, on a real X server: the app as a new user starts it, a real Portuguese PDF, the
bundled model, the guide on screen.

A fresh home and data folder, no ``settings.toml`` (the embedded defaults: SQLite, the bundled SmolLM2 model), the
app started through its own entry point with the document on its command line (``tests/gui/window_session.py``
answers the add dialog and records what the window shows). Then: one row for the document all along, the page
and section counters seen, a time left that is never wild, and the guide viewer showing exactly the guide file.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemon.corpus import CorpusError, fetch_corpus
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = "latexcheat-ptbr/latexsheet-ptbr.pdf"


@pytest.fixture
def x_display(tmp_path: Path) -> Iterator[str]:
    """A real X server (Xvfb) on a free display number; stopped after the test."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.fail("Xvfb is not installed (scripts/desktop_libs installs it)")
    number = next(n for n in range(90, 190) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    server = subprocess.Popen(
        [xvfb, f":{number}", "-screen", "0", "1400x900x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def listening() -> bool:
        assert server.poll() is None, "Xvfb ended at once"
        return Path(f"/tmp/.X11-unix/X{number}").exists()

    wait_until(listening, timeout=20, what="Xvfb to start")
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)


def _stop_workers(data: Path) -> None:
    """SIGTERM the worker (and its watchdog) the app started for ``data``, then wait for them to end."""
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            environ = (proc / "environ").read_bytes()
            if f"STUDYJOBS_DATA_DIR={data}".encode() in environ.split(b"\0"):
                pids.append(int(proc.name))
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    try:
        wait_until(lambda: not any(_alive(pid) for pid in pids), timeout=20, what="the worker to stop")
    except AssertionError:  # it did not stop on SIGTERM: it is killed, and the test's own checks tell why
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    with contextlib.suppress(OSError):
        return " Z " not in Path(f"/proc/{pid}/stat").read_text(encoding="ascii").split(")", 1)[1][:4]
    return False


def test_a_new_user_gets_one_row_honest_time_left_and_the_guide_on_screen(tmp_path: Path, x_display: str):
    try:
        document = fetch_corpus().portuguese_pdf(DOCUMENT)
    except CorpusError as exc:
        pytest.fail(f"the real documents could not be fetched: {exc}")
    home, data = tmp_path / "home", tmp_path / "home" / ".local" / "share" / "StudyJobs"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("STUDYJOBS_", "QT_", "XDG_"))}
    env.update(
        HOME=str(home),
        DISPLAY=x_display,
        QT_QPA_PLATFORM="xcb",
        LANG="pt_BR.UTF-8",
        PYTHONPATH=str(ROOT),
        STUDYJOBS_DATA_DIR=str(data),
    )
    record, screenshot = tmp_path / "record.json", tmp_path / "screen.png"
    session = [sys.executable, str(ROOT / "tests/gui/window_session.py"), str(record), str(screenshot), str(document)]
    began = time.monotonic()
    try:
        app = subprocess.run(session, cwd=home, env=env, capture_output=True, text=True, timeout=660)
    finally:
        _stop_workers(data)
    took = time.monotonic() - began
    assert record.exists(), f"the session wrote no record (exit {app.returncode}):\n{app.stderr[-3000:]}"
    result = json.loads(record.read_text(encoding="utf-8"))
    assert "error" not in result, (result.get("error"), app.stderr[-3000:])
    assert app.returncode == 0, app.stderr[-3000:]
    assert "Traceback" not in app.stderr, app.stderr[-3000:]
    assert result["platform"] == "xcb"

    samples = result["samples"]
    assert samples and all(s["rows"] == 1 for s in samples), "one document must be one row"
    running = [s for s in samples if s["status"] == "running"]
    assert running, "the document was never seen running"
    counters = " ".join(s["counters"] for s in samples)
    assert re.search(r"página \d+ de \d+", counters) and re.search(r"seção \d+ de \d+", counters), counters
    # the time left: said from the first second of work, and never wild while there is time left to speak of
    ends_at = next(s["t"] for s in samples if s["status"] == "done")
    for sample in running:
        shown, actual = sample["eta_seconds"], ends_at - sample["t"]
        if shown is None or sample["t"] - running[0]["t"] <= 5 or actual <= 15:
            continue
        assert shown <= 3 * actual or shown < 60, (sample, actual)
        assert shown >= actual / 3 or actual < 60, (sample, actual)
    assert all(s["cells"]["eta"] for s in running), [s["cells"]["eta"] for s in running]
    assert took < 600

    guide = Path(result["guide_path"])
    assert guide.is_file() and guide.parent == home / "Documents" / "StudyJobs"
    assert result["viewer_markdown"] == guide.read_text(encoding="utf-8")
    assert result["viewer_text"].strip(), "the viewer showed nothing"
    assert screenshot.stat().st_size > 10_000

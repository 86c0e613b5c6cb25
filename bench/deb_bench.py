"""The .deb after a fresh install, measured from outside like a user would meet it. Prints its figures.

    flock /tmp/studyjobs-suite.lock .venv/bin/python bench/deb_bench.py build/bundle/studyjobs_<v>_amd64.deb \
        [--screenshot docs/screenshots/installed_deb_en.png]

Needs root (``apt-get install``), Xvfb and xwininfo. Steps:

1. The .deb's size; ``apt-get install --reinstall ./<deb>``; the installed size (``dpkg-query``).
2. First start to visible window: a fresh home, an X server (Xvfb), ``/opt/studyjobs/StudyJobs`` started from the
   installed menu entry's program; the time until X reports a viewable top-level window named StudyJobs
   (``xwininfo``): the first start after install, with the disk cache as the install left it.
3. First guide of a 2-page PDF: another fresh home, ``studyjobs add resources/selftest/photosynthesis.pdf --wait``
   (the command starts the worker itself, so the worker's start is included) until the guide is written.
4. With ``--screenshot``: the same 2-page PDF added to the open window's home from the installed command line;
   once its guide is done, the window's area of the X screen is saved as PNG (grabbed by Qt from the X server, as
   a screenshot tool would).

Everything started is stopped; the package stays installed (``apt-get remove studyjobs`` removes it).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
PREFIX = Path("/opt/studyjobs")
PDF = ROOT / "resources" / "selftest" / "photosynthesis.pdf"
SCREEN = "1920x1080x24"


def _env(home: Path | None = None, **extra: str) -> dict[str, str]:
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}
    if home is not None:
        env["HOME"] = str(home)
    return {**env, "DEBIAN_FRONTEND": "noninteractive", **extra}


def install(deb: Path) -> None:
    """Print the .deb's size, install it, print the time and the installed size."""
    print(f".deb size:                      {deb.stat().st_size / 2**20:.0f} MB ({deb.name})")
    started = time.monotonic()
    command = ["apt-get", "install", "-y", "-q", "--reinstall", f"./{deb.name}"]
    subprocess.run(command, cwd=deb.parent, env=_env(), check=True, capture_output=True, timeout=900)
    took = time.monotonic() - started
    kib = subprocess.run(
        ["dpkg-query", "-W", "-f=${Installed-Size}", "studyjobs"], capture_output=True, text=True, check=True
    ).stdout
    print(f"installed size:                 {int(kib) / 1024:.0f} MB in {PREFIX} (apt-get install took {took:.0f} s)")


@contextlib.contextmanager
def x_server() -> Iterator[str]:
    """An Xvfb display of its own (the first free number from 90)."""
    number = next(n for n in range(90, 200) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    server = subprocess.Popen(
        ["Xvfb", f":{number}", "-screen", "0", SCREEN, "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait(lambda: Path(f"/tmp/.X11-unix/X{number}").exists(), 30, "Xvfb")
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def _wait(condition: object, timeout: float, what: str, step: float = 0.05) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(step)


def window_geometry(display: str) -> tuple[int, int, int, int] | None:
    """``(x, y, width, height)`` of a viewable top-level window named StudyJobs on ``display``, or ``None``."""
    tree = subprocess.run(
        ["xwininfo", "-root", "-children"], env=_env(DISPLAY=display), capture_output=True, text=True, check=False
    ).stdout
    for line in tree.splitlines():
        if '"StudyJobs' not in line:
            continue
        info = subprocess.run(
            ["xwininfo", "-id", line.split()[0]], env=_env(DISPLAY=display), capture_output=True, text=True, check=False
        ).stdout
        if "IsViewable" in info:
            values = dict(row.strip().split(":", 1) for row in info.splitlines() if ":" in row)
            keys = ("Absolute upper-left X", "Absolute upper-left Y", "Width", "Height")
            x, y, width, height = (int(values[k].strip()) for k in keys)
            return x, y, width, height
    return None


def stop_installed(home: Path) -> None:
    """Stop the installed package's programs that run with ``home``."""
    found = []
    for process in psutil.process_iter(["exe"]):
        with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
            if str(process.info["exe"] or "").startswith(f"{PREFIX}/") and process.environ().get("HOME") == str(home):
                found.append(process)
    for process in found:
        with contextlib.suppress(psutil.NoSuchProcess):
            process.send_signal(signal.SIGTERM)
    _, alive = psutil.wait_procs(found, timeout=20)
    for process in alive:
        process.kill()


def first_guide(home: Path) -> None:
    started = time.monotonic()
    subprocess.run(
        ["studyjobs", "add", str(PDF), "--wait"], env=_env(home), check=True, capture_output=True, timeout=900
    )
    took = time.monotonic() - started
    guides = list((home / "Documents" / "StudyJobs").glob("*.md"))
    assert guides, "no guide written"
    print(f"first guide of a 2-page PDF:    {took:.1f} s (studyjobs add --wait, the worker's start included)")


def window_and_screenshot(home: Path, display: str, screenshot: Path | None) -> None:
    started = time.monotonic()
    window = subprocess.Popen(
        [str(PREFIX / "StudyJobs")],
        env=_env(home, DISPLAY=display),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait(lambda: window_geometry(display) is not None, 120, "the window")
        print(f"first start to visible window:  {time.monotonic() - started:.1f} s")
        if screenshot is None:
            return
        subprocess.run(
            ["studyjobs", "add", str(PDF), "--wait", "--no-start"],
            env=_env(home),
            check=True,
            capture_output=True,
            timeout=900,
        )
        time.sleep(3)  # the window's next refresh shows the finished document
        x, y, width, height = window_geometry(display) or (0, 0, -1, -1)
        grab = "from PySide6.QtGui import QGuiApplication as A; a = A([]); import sys; "
        grab += "x, y, w, h = map(int, sys.argv[2:]); "
        grab += "sys.exit(0 if a.primaryScreen().grabWindow(0, x, y, w, h).save(sys.argv[1]) else 1)"
        subprocess.run(
            [sys.executable, "-c", grab, str(screenshot), str(x), str(y), str(width), str(height)],
            env={**_env(DISPLAY=display), "QT_QPA_PLATFORM": "xcb"},
            check=True,
            timeout=60,
        )
        print(f"screenshot:                     {screenshot}")
    finally:
        window.terminate()
        window.wait(timeout=30)
        stop_installed(home)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deb", type=Path)
    parser.add_argument("--screenshot", type=Path, help="save the screen with the installed window as PNG")
    args = parser.parse_args()
    if os.geteuid() != 0 or shutil.which("Xvfb") is None or shutil.which("xwininfo") is None:
        print("needs root, Xvfb and xwininfo", file=sys.stderr)
        return 2
    install(args.deb.resolve())
    with tempfile.TemporaryDirectory(prefix="studyjobs-deb-bench-") as temporary:
        homes = [Path(temporary) / name for name in ("window", "cli")]
        for home in homes:
            home.mkdir()
        with x_server() as display:
            window_and_screenshot(homes[0], display, args.screenshot.resolve() if args.screenshot else None)
        try:
            first_guide(homes[1])
        finally:
            stop_installed(homes[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())

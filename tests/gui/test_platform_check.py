"""Before Qt starts on Linux: missing X11 libraries are named, with the packages that install them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from gui.platform_check import (
    XCB_LIBRARIES,
    install_command,
    missing_libraries,
    missing_libraries_message,
    needs_xcb,
)

ROOT = Path(__file__).resolve().parents[2]
EVERY_LIBRARY = [f"/usr/lib/x86_64-linux-gnu/{name}" for name in XCB_LIBRARIES]


def test_a_desktop_with_every_library_misses_none():
    assert missing_libraries(EVERY_LIBRARY) == []


def test_a_desktop_without_libxcb_cursor_misses_exactly_it():
    present = [path for path in EVERY_LIBRARY if not path.endswith("libxcb-cursor.so.0")]
    assert missing_libraries(present) == ["libxcb-cursor.so.0"]
    assert install_command(["libxcb-cursor.so.0"]) == "sudo apt install libxcb-cursor0"


def test_only_the_file_name_counts_and_a_similar_name_is_not_the_library():
    present = ["libxcb-cursor.so.0.0.0", "/opt/elsewhere/libxcb.so.1"]
    missing = missing_libraries(present)
    assert "libxcb-cursor.so.0" in missing and "libxcb.so.1" not in missing


def test_the_message_names_the_missing_libraries_and_one_command_with_their_packages():
    missing = ["libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxkbcommon-x11.so.0"]
    text = missing_libraries_message(missing, "en")
    assert text.startswith("StudyJobs cannot open its window")
    assert "libxcb-cursor.so.0, libxcb-icccm.so.4, libxkbcommon-x11.so.0" in text
    assert "    sudo apt install libxcb-cursor0 libxcb-icccm4 libxkbcommon-x11-0\n" in text
    portuguese = missing_libraries_message(missing, "pt_BR")
    assert portuguese.startswith("O StudyJobs não consegue abrir a janela")
    assert "sudo apt install libxcb-cursor0 libxcb-icccm4 libxkbcommon-x11-0" in portuguese


def test_only_an_x11_start_on_linux_needs_the_libraries():
    assert needs_xcb({"DISPLAY": ":0"}, "linux")
    assert needs_xcb({"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"}, "linux")
    assert needs_xcb({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "QT_QPA_PLATFORM": "xcb"}, "linux")
    assert not needs_xcb({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, "linux")
    assert not needs_xcb({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}, "linux")
    assert not needs_xcb({}, "linux")
    assert not needs_xcb({"DISPLAY": ":0"}, "darwin")
    assert not needs_xcb({"DISPLAY": ":0"}, "win32")


def test_the_check_runs_with_the_standard_library_alone_as_scripts_run_starts_it(tmp_path):
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    code = "import sys, gui.platform_check; sys.exit(gui.platform_check.main() or 'PySide6' in sys.modules)"
    result = subprocess.run([sys.executable, "-S", "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    script = (ROOT / "scripts" / "run").read_text(encoding="utf-8")
    assert 0 < script.index("-m gui.platform_check") < script.index("pip install")  # before the long install

"""Before Qt starts on a Linux desktop: are the X11 (xcb) libraries its platform plugin needs installed?

Standard library only: ``scripts/run`` runs it with the system's Python (``python3 -m gui.platform_check``). Call it
before any ``QApplication`` exists. Why: docs/design/window.md.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path

from core.app.exit_codes import EXIT_MISSING_LIBRARIES

__all__ = [
    "XCB_LIBRARIES",
    "check_desktop",
    "install_command",
    "missing_libraries",
    "missing_libraries_message",
    "needs_xcb",
    "present_libraries",
]

XCB_LIBRARIES: Mapping[str, str] = {
    "libxcb.so.1": "libxcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libfontconfig.so.1": "libfontconfig1",
}
"""The libraries PySide6's ``libqxcb.so`` links with that a desktop may lack (``ldd`` of the plugin), each with the
Debian/Ubuntu package that installs it."""

_MESSAGES = {
    "en": (
        "StudyJobs cannot open its window: this desktop lacks libraries that Qt needs to draw on X11 "
        "({libraries}).\nInstall them, then start StudyJobs again:\n\n    {command}\n"
    ),
    "pt_BR": (
        "O StudyJobs não consegue abrir a janela: faltam neste computador bibliotecas de que o Qt precisa para "
        "desenhar no X11 ({libraries}).\nInstale-as e abra o StudyJobs de novo:\n\n    {command}\n"
    ),
}
_LDCONFIG_ENTRY = re.compile(r"^\s*(\S+)\s+\(([^)]*)\)")


def missing_libraries(present: Collection[str], wanted: Mapping[str, str] = XCB_LIBRARIES) -> list[str]:
    """The names in ``wanted`` that ``present`` lacks, in ``wanted``'s order (a pure function).

    Args:
        present: Library file names or paths found on this machine (only the last path part counts).
        wanted: ``{soname: package}``.
    """
    names = {Path(item).name for item in present}
    return [soname for soname in wanted if soname not in names]


def install_command(missing: Iterable[str], wanted: Mapping[str, str] = XCB_LIBRARIES) -> str:
    """``sudo apt install …`` with the packages of the ``missing`` libraries (each once, in order)."""
    packages = list(dict.fromkeys(wanted[soname] for soname in missing))
    return "sudo apt install " + " ".join(packages)


def missing_libraries_message(missing: list[str], language: str = "en") -> str:
    """The plain message that says what to install (``language``: ``"pt_BR"`` or ``"en"``)."""
    template = _MESSAGES.get(language, _MESSAGES["en"])
    return template.format(libraries=", ".join(missing), command=install_command(missing))


def needs_xcb(env: Mapping[str, str], platform: str = sys.platform) -> bool:
    """Whether Qt will load its ``xcb`` plugin: Linux, an X display, and no other platform chosen (no
    ``QT_QPA_PLATFORM``, or ``xcb``; a Wayland session without that variable gets Qt's Wayland plugin)."""
    if not platform.startswith("linux") or not env.get("DISPLAY"):
        return False
    chosen = env.get("QT_QPA_PLATFORM", "").strip()
    if chosen:
        return chosen.split(":")[0] == "xcb"
    return not env.get("WAYLAND_DISPLAY")


def _ldconfig_entries() -> list[str]:
    """The paths in the dynamic linker's cache (``ldconfig -p``, which :func:`ctypes.util.find_library` reads)."""
    for program in ("/sbin/ldconfig", "/usr/sbin/ldconfig", "ldconfig"):
        try:
            output = subprocess.run(
                [program, "-p"], capture_output=True, text=True, timeout=10, check=False, env={"LC_ALL": "C"}
            ).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        entries = [match.group(1) for line in output.splitlines() if (match := _LDCONFIG_ENTRY.match(line))]
        if entries:
            return entries
    return []


def present_libraries(env: Mapping[str, str] = os.environ) -> list[str] | None:
    """Library names this process's loader can find: the linker cache, ``LD_LIBRARY_PATH``, and a bundle's own
    folder. ``None`` when the cache cannot be read (no ``ldconfig``: a system we cannot judge)."""
    cache = _ldconfig_entries()
    if not cache:
        return None
    folders = [Path(p) for p in env.get("LD_LIBRARY_PATH", "").split(":") if p]
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        folders.append(Path(bundle))
    extra = [entry.name for folder in folders if folder.is_dir() for entry in folder.iterdir()]
    return cache + extra


def check_desktop(env: Mapping[str, str] = os.environ, language: str = "en") -> str:
    """The message to print when Qt would fail to open a window here for lack of libraries, else ``""``."""
    if not needs_xcb(env):
        return ""
    present = present_libraries(env)
    if present is None:
        return ""
    missing = missing_libraries(present)
    return missing_libraries_message(missing, language) if missing else ""


def _system_language(env: Mapping[str, str]) -> str:
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "").split(":")[0].strip().lower()
        if value:
            return "pt_BR" if value.startswith("pt") else "en"
    return "en"


def main() -> int:
    """``python -m gui.platform_check``: print the message and exit :data:`EXIT_MISSING_LIBRARIES` when needed."""
    message = check_desktop(os.environ, _system_language(os.environ))
    if message:
        print(message, file=sys.stderr)
        return EXIT_MISSING_LIBRARIES
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Start the worker when the user logs in: one small adapter per operating system, chosen by ``sys.platform``.

* **Linux and other XDG desktops** — an autostart entry ``$XDG_CONFIG_HOME/autostart/studyjobs-worker.desktop``
  (``~/.config`` when the variable is unset, empty or relative). A desktop that turns the entry off writes
  ``Hidden=true`` (KDE, the XDG Autostart spec) or ``X-GNOME-Autostart-enabled=false`` (GNOME): that reads as
  :attr:`AutostartStatus.DISABLED_BY_USER`. :func:`render_systemd_unit` renders an equivalent systemd user unit
  for people who prefer one; it is never installed by :func:`enable`.
* **macOS** — a LaunchAgent ``~/Library/LaunchAgents/<label>.plist`` with ``RunAtLoad``; ``launchctl
  print-disabled`` tells when the user switched it off under *Login Items* (Background Items).
* **Windows** — a value in the per-user ``Run`` key (``HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run``);
  Task Manager's *Startup apps* switch lives in ``Explorer\\StartupApproved\\Run`` as a binary value whose first
  byte is odd when the user disabled the entry.

Each entry is rendered by a pure function (:func:`render_desktop_entry`, :func:`render_systemd_unit`,
:func:`render_launch_agent`, :func:`render_run_value`), so every format is tested on every OS. :func:`enable`
always rewrites the entry: calling it again after the program moved re-registers the new path, and an explicit
"start at login" from the user replaces an earlier "off" written by the desktop.

:attr:`AutostartStatus.NEEDS_APPROVAL` is reserved for a macOS ``SMAppService`` registration waiting for the
user's approval; the plain LaunchAgent file used here never reports it.

This module is Qt-free and never imports ``daemon`` (:func:`worker_command` names the worker by its module path).
All functions are synchronous and quick (one small file or registry value); call them from any thread.
"""

from __future__ import annotations

import enum
import os
import plistlib
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

__all__ = [
    "DESKTOP_FILE_NAME",
    "LAUNCH_AGENT_LABEL",
    "RUN_VALUE_NAME",
    "WORKER_EXECUTABLE",
    "AutostartStatus",
    "desktop_entry_path",
    "disable",
    "enable",
    "launch_agent_path",
    "launchctl_says_disabled",
    "quote_exec_argument",
    "render_desktop_entry",
    "render_launch_agent",
    "render_run_value",
    "render_systemd_unit",
    "startup_approved_disabled",
    "status",
    "systemd_unit_path",
    "worker_command",
]

APP_ID = "studyjobs-worker"
DESKTOP_FILE_NAME = f"{APP_ID}.desktop"
SYSTEMD_UNIT_NAME = f"{APP_ID}.service"
LAUNCH_AGENT_LABEL = "com.studyjobs.worker"
RUN_VALUE_NAME = "StudyJobs Worker"
WORKER_EXECUTABLE = "studyjobs-worker"
"""The worker's executable in a frozen bundle (``.exe`` added on Windows), next to the GUI's."""
DISPLAY_NAME = "StudyJobs worker"
COMMENT = "Reads your documents and writes study guides in the background"

_RUN_KEY = r"Software\Microsoft\Windows\CurrentVersion\Run"
_APPROVED_KEY = r"Software\Microsoft\Windows\CurrentVersion\Explorer\StartupApproved\Run"
_EXEC_RESERVED = frozenset(" \t\n\"'\\><~|&;$*?#()`")
_EXEC_ESCAPED = frozenset('"`$\\')
_STRING_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


class AutostartStatus(enum.Enum):
    """Whether the worker starts at login.

    Attributes:
        ENABLED: Our entry is registered and nothing turned it off.
        DISABLED: No entry is registered.
        DISABLED_BY_USER: Our entry is there but the user switched it off in the desktop's own settings
            (GNOME/KDE autostart settings, macOS Login Items, Windows Task Manager).
        NEEDS_APPROVAL: Registered, waiting for the user's approval (macOS ``SMAppService`` only).
        UNSUPPORTED: This operating system has no adapter.
    """

    ENABLED = "enabled"
    DISABLED = "disabled"
    DISABLED_BY_USER = "disabled_by_user"
    NEEDS_APPROVAL = "needs_approval"
    UNSUPPORTED = "unsupported"


# --------------------------------------------------------------------------------------------------- renderers


def quote_exec_argument(argument: str) -> str:
    """One argument of a Desktop Entry ``Exec`` key, before the file's string escapes.

    An argument with a reserved character (or an empty one) is enclosed in double quotes, with ``"``, `````, ``$``
    and ``\\`` escaped by a backslash; ``%`` is doubled everywhere (a lone ``%`` starts a field code).
    """
    if argument and not _EXEC_RESERVED.intersection(argument):
        return argument.replace("%", "%%")
    inner = "".join("\\" + c if c in _EXEC_ESCAPED else c for c in argument)
    return '"' + inner.replace("%", "%%") + '"'


def _escape_string_value(value: str) -> str:
    """The Desktop Entry spec's escapes for a ``string`` value (applied after the ``Exec`` quoting)."""
    escaped = "".join(_STRING_ESCAPES.get(c, c) for c in value)
    return "\\s" + escaped[1:] if escaped.startswith(" ") else escaped


def _check_command(exe: str, args: Sequence[str]) -> list[str]:
    if not exe:
        raise ValueError("the program to start at login is empty")
    if isinstance(args, str):
        raise TypeError("args must be a sequence of arguments, not one string")
    return [exe, *args]


def render_desktop_entry(exe: str, args: Sequence[str]) -> str:
    """The XDG autostart entry that runs ``exe`` with ``args`` (text of the ``.desktop`` file).

    Raises:
        ValueError: ``exe`` is empty or contains ``=`` (the spec forbids it in the program's path).
    """
    command = _check_command(exe, args)
    if "=" in exe:
        raise ValueError(f"a desktop entry cannot start a program whose path contains '=': {exe!r}")
    exec_line = _escape_string_value(" ".join(quote_exec_argument(a) for a in command))
    return (
        "[Desktop Entry]\n"
        "Type=Application\n"
        f"Name={DISPLAY_NAME}\n"
        f"Comment={COMMENT}\n"
        f"Exec={exec_line}\n"
        "Icon=studyjobs\n"
        "Terminal=false\n"
        "NoDisplay=true\n"
        "X-GNOME-Autostart-enabled=true\n"
    )


def _systemd_quote(argument: str) -> str:
    escaped = "".join({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(c, c) for c in argument)
    return '"' + escaped.replace("%", "%%").replace("$", "$$") + '"'


def render_systemd_unit(exe: str, args: Sequence[str]) -> str:
    """A systemd user unit (``~/.config/systemd/user/studyjobs-worker.service``) that runs the worker.

    Every word of ``ExecStart`` is double-quoted with C-style escapes; ``%`` (specifiers) and ``$`` (variable
    expansion) are doubled, as ``systemd.service(5)`` documents. Installing it is left to the user
    (``systemctl --user enable --now studyjobs-worker``); :func:`enable` uses the XDG entry instead.

    Raises:
        ValueError: ``exe`` is empty or not an absolute path (systemd wants one).
    """
    command = _check_command(exe, args)
    if not exe.startswith("/"):
        raise ValueError(f"systemd needs an absolute path to the program: {exe!r}")
    return (
        "[Unit]\n"
        f"Description={DISPLAY_NAME}\n"
        "After=graphical-session.target\n"
        "\n"
        "[Service]\n"
        "Type=simple\n"
        f"ExecStart={' '.join(_systemd_quote(a) for a in command)}\n"
        "Restart=on-failure\n"
        "RestartSec=30\n"
        "\n"
        "[Install]\n"
        "WantedBy=default.target\n"
    )


def render_launch_agent(label: str, exe: str, args: Sequence[str]) -> bytes:
    """The LaunchAgent property list (XML) that runs ``exe`` with ``args`` at login.

    The command is launchd's ``ProgramArguments`` array, one string per argument: nothing is quoted or parsed
    by a shell.
    """
    command = _check_command(exe, args)
    if not label:
        raise ValueError("a LaunchAgent needs a label")
    agent = {
        "Label": label,
        "ProgramArguments": command,
        "RunAtLoad": True,
        "KeepAlive": False,
        "ProcessType": "Background",
        "LimitLoadToSessionType": "Aqua",
    }
    return plistlib.dumps(agent, fmt=plistlib.FMT_XML, sort_keys=True)


def render_run_value(exe: str, args: Sequence[str]) -> str:
    """The ``Run`` registry value: one Windows command line, quoted as :func:`subprocess.list2cmdline` does
    (the rules of the Microsoft C runtime: spaces and tabs need quotes, ``"`` is escaped with ``\\``, and
    backslashes are doubled only before a ``"``)."""
    command = _check_command(exe, args)
    if '"' in exe:
        raise ValueError(f"a Windows program path cannot contain '\"': {exe!r}")
    return subprocess.list2cmdline(command)


def startup_approved_disabled(data: bytes | None) -> bool:
    """``True`` when a ``StartupApproved\\Run`` binary value says the user disabled the entry.

    Explorer writes 12 bytes: ``02 00 00 00`` + zeros when enabled, an odd first byte (``03``) plus the time it
    was switched off when disabled. No value means enabled.
    """
    return data is not None and len(data) > 0 and bool(data[0] & 1)


def launchctl_says_disabled(output: str, label: str) -> bool:
    """``True`` when ``launchctl print-disabled gui/<uid>`` lists ``label`` as disabled.

    Lines look like ``"com.example.agent" => disabled`` (macOS 13+) or ``"com.example.agent" => true`` (older).
    """
    for line in output.splitlines():
        name, arrow, state = line.strip().partition("=>")
        if arrow and name.strip().strip('"') == label:
            return state.strip() in ("true", "disabled")
    return False


# ----------------------------------------------------------------------------------------------------- paths


def _config_home() -> Path:
    raw = os.environ.get("XDG_CONFIG_HOME", "")
    return Path(raw) if raw and os.path.isabs(raw) else Path.home() / ".config"


def desktop_entry_path() -> Path:
    """``$XDG_CONFIG_HOME/autostart/studyjobs-worker.desktop`` (``~/.config`` by default)."""
    return _config_home() / "autostart" / DESKTOP_FILE_NAME


def systemd_unit_path() -> Path:
    """Where a systemd user unit rendered by :func:`render_systemd_unit` belongs."""
    return _config_home() / "systemd" / "user" / SYSTEMD_UNIT_NAME


def launch_agent_path(label: str = LAUNCH_AGENT_LABEL) -> Path:
    """``~/Library/LaunchAgents/<label>.plist``."""
    return Path.home() / "Library" / "LaunchAgents" / f"{label}.plist"


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _desktop_keys(text: str) -> dict[str, str]:
    """The keys of the ``[Desktop Entry]`` group (unlocalised ones; values unescaped only for booleans)."""
    keys: dict[str, str] = {}
    group = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            group = line[1:-1]
        elif group == "Desktop Entry" and "=" in line:
            key, _, value = line.partition("=")
            keys.setdefault(key.strip(), value.strip())
    return keys


# -------------------------------------------------------------------------------------------------- adapters


class _Adapter(Protocol):
    def enable(self, exe: str, args: Sequence[str]) -> None: ...
    def disable(self) -> None: ...
    def status(self) -> AutostartStatus: ...


class _XdgAutostart:
    """The XDG autostart entry (Linux and the BSDs)."""

    def enable(self, exe: str, args: Sequence[str]) -> None:
        _write_atomically(desktop_entry_path(), render_desktop_entry(exe, args).encode("utf-8"))

    def disable(self) -> None:
        desktop_entry_path().unlink(missing_ok=True)

    def status(self) -> AutostartStatus:
        try:
            keys = _desktop_keys(desktop_entry_path().read_text(encoding="utf-8", errors="replace"))
        except FileNotFoundError:
            return AutostartStatus.DISABLED
        if keys.get("Hidden") == "true" or keys.get("X-GNOME-Autostart-enabled") == "false":
            return AutostartStatus.DISABLED_BY_USER
        return AutostartStatus.ENABLED


class _LaunchAgent:
    """A per-user LaunchAgent (macOS)."""

    def enable(self, exe: str, args: Sequence[str]) -> None:
        _write_atomically(launch_agent_path(), render_launch_agent(LAUNCH_AGENT_LABEL, exe, args))

    def disable(self) -> None:
        launch_agent_path().unlink(missing_ok=True)

    def status(self) -> AutostartStatus:
        if not launch_agent_path().is_file():
            return AutostartStatus.DISABLED
        try:
            listed = subprocess.run(
                ["launchctl", "print-disabled", f"gui/{os.getuid()}"],
                capture_output=True,
                text=True,
                timeout=10,
                check=False,
            ).stdout
        except (OSError, subprocess.SubprocessError):
            listed = ""
        if launchctl_says_disabled(listed, LAUNCH_AGENT_LABEL):
            return AutostartStatus.DISABLED_BY_USER
        return AutostartStatus.ENABLED


class _WindowsRunKey:
    """A value in ``HKCU\\...\\CurrentVersion\\Run`` (Windows)."""

    def enable(self, exe: str, args: Sequence[str]) -> None:
        value = render_run_value(exe, args)
        if sys.platform == "win32":
            import winreg

            with winreg.CreateKeyEx(winreg.HKEY_CURRENT_USER, _RUN_KEY, 0, winreg.KEY_SET_VALUE) as key:
                winreg.SetValueEx(key, RUN_VALUE_NAME, 0, winreg.REG_SZ, value)
            try:  # the user's new "on" replaces an older "off" from Task Manager
                with winreg.OpenKey(winreg.HKEY_CURRENT_USER, _APPROVED_KEY, 0, winreg.KEY_SET_VALUE) as key:
                    winreg.DeleteValue(key, RUN_VALUE_NAME)
            except FileNotFoundError:
                pass

    def disable(self) -> None:
        if sys.platform == "win32":
            import winreg

            for path in (_RUN_KEY, _APPROVED_KEY):
                try:
                    with winreg.OpenKey(winreg.HKEY_CURRENT_USER, path, 0, winreg.KEY_SET_VALUE) as key:
                        winreg.DeleteValue(key, RUN_VALUE_NAME)
                except FileNotFoundError:
                    pass

    def status(self) -> AutostartStatus:
        if sys.platform != "win32":
            return AutostartStatus.UNSUPPORTED
        import winreg

        try:
            with winreg.OpenKey(winreg.HKEY_CURRENT_USER, _RUN_KEY) as key:
                winreg.QueryValueEx(key, RUN_VALUE_NAME)
        except FileNotFoundError:
            return AutostartStatus.DISABLED
        try:
            with winreg.OpenKey(winreg.HKEY_CURRENT_USER, _APPROVED_KEY) as key:
                data, _kind = winreg.QueryValueEx(key, RUN_VALUE_NAME)
        except FileNotFoundError:
            return AutostartStatus.ENABLED
        approved = bytes(data) if isinstance(data, bytes | bytearray) else None
        return AutostartStatus.DISABLED_BY_USER if startup_approved_disabled(approved) else AutostartStatus.ENABLED


class _Unsupported:
    def enable(self, exe: str, args: Sequence[str]) -> None:
        raise OSError(f"starting the worker at login is not supported on {sys.platform}")

    def disable(self) -> None:
        return None

    def status(self) -> AutostartStatus:
        return AutostartStatus.UNSUPPORTED


def _adapter(platform: str | None = None) -> _Adapter:
    platform = sys.platform if platform is None else platform
    if platform == "darwin":
        return _LaunchAgent()
    if platform == "win32":
        return _WindowsRunKey()
    if platform.startswith(("linux", "freebsd", "openbsd", "netbsd", "dragonfly")):
        return _XdgAutostart()
    return _Unsupported()


# ------------------------------------------------------------------------------------------------ public API


def enable(exe: str, args: Sequence[str]) -> None:
    """Register ``exe args…`` to start when the user logs in, replacing any earlier entry of ours.

    Raises:
        ValueError: The command cannot be written in this OS's format.
        OSError: The entry could not be written, or this OS is not supported.
    """
    _adapter().enable(exe, args)


def disable() -> None:
    """Remove our login entry (nothing happens when there is none).

    Raises:
        OSError: The entry exists but could not be removed.
    """
    _adapter().disable()


def status() -> AutostartStatus:
    """Whether the worker starts at login on this computer, for this user."""
    return _adapter().status()


def worker_command() -> tuple[str, list[str]]:
    """The program and arguments that start the worker quietly at login.

    In a frozen bundle (PyInstaller, the macOS ``.app``): the ``studyjobs-worker`` executable next to
    ``sys.executable`` with ``daemon --autostart --watch``. From source: ``sys.executable -m daemon.cli daemon
    --autostart --watch`` (``pythonw.exe`` on Windows when it exists, so no console window opens at login).
    ``--watch`` starts the worker again if it crashes (``daemon.watchdog``): nobody watches a worker started at
    login.
    """
    here = Path(sys.executable)
    if getattr(sys, "frozen", False):
        name = WORKER_EXECUTABLE + (".exe" if sys.platform == "win32" else "")
        return str(here.with_name(name)), ["daemon", "--autostart", "--watch"]
    exe = here
    if sys.platform == "win32" and here.name.lower() == "python.exe" and here.with_name("pythonw.exe").is_file():
        exe = here.with_name("pythonw.exe")
    return str(exe), ["-m", "daemon.cli", "daemon", "--autostart", "--watch"]

"""Start the worker when the user logs in: one small adapter per operating system, chosen by ``sys.platform``.

:func:`enable` always rewrites the entry for the command it is given (the app gives
:func:`core.app.workers.launch.login_command`). Qt-free, never imports ``daemon``; every function is synchronous and
quick: call it from any thread. The entries per system: docs/design/window.md.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from core.app.storage.files import write_whole
from gui.worker.autostart_entries import (
    DESKTOP_FILE_NAME,
    LAUNCH_AGENT_LABEL,
    RUN_VALUE_NAME,
    SYSTEMD_UNIT_NAME,
    AutostartStatus,
    desktop_keys,
    launchctl_says_disabled,
    quote_exec_argument,
    render_desktop_entry,
    render_launch_agent,
    render_run_value,
    render_systemd_unit,
    startup_approved_disabled,
)

__all__ = [
    "DESKTOP_FILE_NAME",
    "LAUNCH_AGENT_LABEL",
    "RUN_VALUE_NAME",
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
]

_RUN_KEY = r"Software\Microsoft\Windows\CurrentVersion\Run"
_APPROVED_KEY = r"Software\Microsoft\Windows\CurrentVersion\Explorer\StartupApproved\Run"


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

    def write(temporary: Path) -> None:
        temporary.write_bytes(data)
        temporary.chmod(0o644)

    write_whole(path, write, suffix="")


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
            keys = desktop_keys(desktop_entry_path().read_text(encoding="utf-8", errors="replace"))
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

"""What a login entry says: the entry of each operating system rendered by a pure function, and the parsers that
tell whether the user switched it off. :mod:`gui.worker.autostart` writes and reads them where each system keeps them.

Every format is rendered and parsed here without touching the system, so each one is tested on every OS.
"""

from __future__ import annotations

import enum
import os
import plistlib
import subprocess
from collections.abc import Sequence

__all__ = [
    "APP_ID",
    "COMMENT",
    "DESKTOP_FILE_NAME",
    "DISPLAY_NAME",
    "LAUNCH_AGENT_LABEL",
    "RUN_VALUE_NAME",
    "SYSTEMD_UNIT_NAME",
    "AutostartStatus",
    "desktop_keys",
    "launchctl_says_disabled",
    "quote_exec_argument",
    "render_desktop_entry",
    "render_launch_agent",
    "render_run_value",
    "render_systemd_unit",
    "startup_approved_disabled",
]

APP_ID = "studyjobs-worker"
DESKTOP_FILE_NAME = f"{APP_ID}.desktop"
SYSTEMD_UNIT_NAME = f"{APP_ID}.service"
LAUNCH_AGENT_LABEL = "com.studyjobs.worker"
RUN_VALUE_NAME = "StudyJobs Worker"
DISPLAY_NAME = "StudyJobs worker"
COMMENT = "Reads your documents and writes study guides in the background"

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
    # TryExec: once the program is gone (the app uninstalled, e.g. `apt-get remove`), the desktop skips the entry
    # instead of failing at every login; it works again when the app comes back to the same place.
    try_exec = f"TryExec={_escape_string_value(exe)}\n" if os.path.isabs(exe) else ""
    return (
        "[Desktop Entry]\n"
        "Type=Application\n"
        f"Name={DISPLAY_NAME}\n"
        f"Comment={COMMENT}\n"
        f"Exec={exec_line}\n"
        f"{try_exec}"
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


def desktop_keys(text: str) -> dict[str, str]:
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

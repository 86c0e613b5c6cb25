"""``studyjobs`` — the entry point: every command of :mod:`daemon.cli.commands`, and ``daemon --watch`` without them.

``studyjobs daemon --watch`` (what login, the window and ``add`` start) is the watchdog: a parent that lives as long
as the worker and only starts it, so it imports no more than it uses (:func:`daemon.watchdog.watch`: the settings,
the log, ``subprocess``). Every other command loads the whole command line.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

__all__ = ["main", "watch_options"]


def watch_options(args: Sequence[str]) -> list[str] | None:
    """The worker's options when ``args`` ask for the watchdog alone (``daemon --watch [--threads N]
    [--autostart]``); ``None`` for any other command (the whole command line parses it and reports its errors)."""
    if args[:1] != ["daemon"] or "--watch" not in args:
        return None
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--autostart", action="store_true")
    parser.add_argument("--watch", action="store_true")
    try:
        parsed, extra = parser.parse_known_args(list(args[1:]))
    except SystemExit:  # a malformed --threads: the whole command line says so
        return None
    if extra:
        return None
    return [*(["--threads", str(parsed.threads)] if parsed.threads else []), *(["--autostart"] * parsed.autostart)]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``studyjobs``; returns the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    options = watch_options(args)
    if options is not None:
        from daemon.watchdog import watch

        return watch(options)
    from daemon.cli.commands import main as run_command

    return run_command(args)


if __name__ == "__main__":
    sys.exit(main())

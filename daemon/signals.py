"""The stop request of a long-running daemon process: SIGTERM and SIGINT set an event, nothing more."""

from __future__ import annotations

import logging
import signal
import threading
from types import FrameType

__all__ = ["stop_on_signals"]

log = logging.getLogger(__name__)


def stop_on_signals(what: str) -> threading.Event:
    """An event that SIGTERM or SIGINT sets (logged as stopping ``what``). Main thread only.

    The handlers only set the event: the process's own loop notices it and stops in order.
    """
    stop = threading.Event()

    def request_stop(signum: int, _frame: FrameType | None) -> None:
        log.info("received signal %d: stopping %s", signum, what)
        stop.set()

    signal.signal(signal.SIGTERM, request_stop)
    signal.signal(signal.SIGINT, request_stop)
    return stop

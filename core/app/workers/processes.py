"""Whether a process of this machine is gone — how a restarted program tells a crashed predecessor's leftovers from
a live neighbour's without waiting for a lease to run out.

Stdlib only, no Qt; callable from any thread.
"""

from __future__ import annotations

import os

__all__ = ["process_gone"]


def process_gone(pid: int) -> bool:
    """``True`` only when certainly no process ``pid`` runs on this machine.

    POSIX asks with signal 0, which delivers nothing. Elsewhere (Windows, where ``os.kill`` would end the process)
    the answer is ``False``: not known, so callers keep waiting for the lease, as they would without this check.
    A pid reused by an unrelated process also reads as alive: the safe side.
    """
    if os.name != "posix" or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False  # it exists, under another user
    return False

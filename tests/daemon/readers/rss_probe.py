"""Read documents in a fresh process and say, for each, what happened, how long it took and how much the
process's peak resident memory grew: ``python -m tests.daemon.readers.rss_probe WARM_UP... -- FILE...``.

The files before ``--`` are read first (imports and first-use allocations settle); then one JSON line per file:
``{"name", "outcome", "seconds", "peak_growth_mib"}``, the growth measured from the peak after the warm-up.
A last line, ``"control"``, allocates 100 MiB on purpose to show that the gauge sees memory that is really used
(its growth is from the resident memory just before, read from ``/proc/self/statm``: Linux only).
"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path

from daemon.readers import ExtractionError, read_document

_KIB_PER_MIB = 1024


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / _KIB_PER_MIB  # Linux reports KiB


def _current_mib() -> float:
    with open("/proc/self/statm", encoding="ascii") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() / (1024 * 1024)


def _outcome(path: Path) -> str:
    try:
        document = read_document(path)
    except ExtractionError as error:
        return error.code
    return f"read {document.char_count} characters"


def main(arguments: list[str]) -> None:
    split = arguments.index("--")
    for warm_up in arguments[:split]:
        _outcome(Path(warm_up))
    baseline = _peak_mib()
    for name in arguments[split + 1 :]:
        started = time.perf_counter()
        outcome = _outcome(Path(name))
        seconds = time.perf_counter() - started
        row = {
            "name": Path(name).name,
            "outcome": outcome,
            "seconds": seconds,
            "peak_growth_mib": _peak_mib() - baseline,
        }
        print(json.dumps(row), flush=True)
    before = _current_mib()
    ballast = bytearray(100 * 1024 * 1024)
    ballast[::4096] = b"\x01" * len(ballast[::4096])  # touch every page
    print(
        json.dumps(
            {"name": "control", "outcome": "100 MiB allocated", "seconds": 0.0, "peak_growth_mib": _peak_mib() - before}
        ),
        flush=True,
    )


if __name__ == "__main__":
    main(sys.argv[1:])

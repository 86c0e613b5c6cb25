"""The limits a document's reader process runs under, scaled to the file's size, and how they are applied.

:func:`limits_for` gives them (``STUDYJOBS_READER_LIMITS`` overrides, tests only); :func:`apply_limits`,
:func:`lift_limits` and :func:`allow_recognition` run inside the reader process only. The parent enforces the
wall time and the text's size. Per system and the recognition budget: docs/design/readers.md.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

__all__ = [
    "LIMITS_ENV",
    "RECOGNITION_CPU_SECONDS",
    "RECOGNITION_MEMORY_BYTES",
    "RECOGNITION_WALL_SECONDS",
    "ReadLimits",
    "allow_recognition",
    "apply_limits",
    "lift_limits",
    "limits_for",
]

LIMITS_ENV = "STUDYJOBS_READER_LIMITS"
_MIB = 1024 * 1024
RECOGNITION_MEMORY_BYTES = 1536 * _MIB
"""Address space (committed memory on Windows) the process may map beyond its start while it recognises text."""
RECOGNITION_CPU_SECONDS = 30.0
"""CPU time added per page to recognise (about 2.5 s a page measured on a loaded machine)."""
RECOGNITION_WALL_SECONDS = 60.0
"""Wall time the parent adds per page to recognise (two pages at once on two busy cores, with room)."""
_started_mapped = [0]


@dataclass(frozen=True, slots=True)
class ReadLimits:
    """What one document may cost its reader process.

    Attributes:
        memory_bytes: Address space the process may map beyond what it maps when the document starts.
        cpu_seconds: CPU time (all its threads) the document may use.
        wall_seconds: Time from the request to the answer; the parent ends the process after it.
        max_text_chars: Characters of extracted text; more is refused with ``text_too_large``.
    """

    memory_bytes: int
    cpu_seconds: float
    wall_seconds: float
    max_text_chars: int


def limits_for(size_bytes: int) -> ReadLimits:
    """The limits for a file of ``size_bytes`` (its size on disk; 0 when unknown).

    Memory: 512 MiB plus 12 bytes per byte of the file (a 200 MB file gets about 2.8 GiB). It is address space,
    not resident memory: PDFium's allocator and the integrity check's thread reserve much more than they touch, so
    the corpus's PDFs (130 KiB to 6.2 MiB) each needed a budget between 200 and 256 MiB while the process's
    resident peak stayed at 72–118 MiB. CPU: 30 s plus 3 s per
    MiB. Wall: twice the CPU time plus 30 s (a busy machine shares its cores). Text: 8 Mi characters plus 2 per
    byte (text formats give one character per byte, a PDF 0.1–0.6; an EPUB or Word archive is bounded by its
    unpacked size).
    """
    size = max(size_bytes, 0)
    cpu = 30.0 + 3.0 * size / _MIB
    limits = ReadLimits(
        memory_bytes=512 * _MIB + 12 * size,
        cpu_seconds=cpu,
        wall_seconds=2 * cpu + 30.0,
        max_text_chars=8 * _MIB + 2 * size,
    )
    return _overridden(limits, os.environ.get(LIMITS_ENV, ""))


_OVERRIDES: dict[str, tuple[str, Callable[[float], float | int]]] = {
    "wall": ("wall_seconds", float),
    "cpu": ("cpu_seconds", float),
    "memory_mb": ("memory_bytes", lambda megabytes: int(megabytes * _MIB)),
    "text_chars": ("max_text_chars", int),
}


def _overridden(limits: ReadLimits, raw: str) -> ReadLimits:
    """``limits`` with the values named in ``raw`` (``"wall=2,memory_mb=300"``) instead."""
    changes: dict[str, float | int] = {}
    for item in filter(None, (part.strip() for part in raw.split(","))):
        name, _, value = (piece.strip() for piece in item.partition("="))
        if name not in _OVERRIDES:
            raise ValueError(f"{LIMITS_ENV}: unknown limit {name!r} (known: {', '.join(_OVERRIDES)})")
        field, convert = _OVERRIDES[name]
        changes[field] = convert(float(value))
    return replace(limits, **changes)  # type: ignore[arg-type]


def _mapped_bytes() -> int:
    """Address space the process maps now (Linux ``/proc``; 0 where unknown)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def apply_limits(limits: ReadLimits) -> None:
    """Limit this process for the next document (call in the reader process only, never in the worker)."""
    if sys.platform == "win32":
        from daemon.readers.sandbox import winjob

        winjob.limit_this_process(limits.memory_bytes, limits.cpu_seconds)
        return
    import resource

    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    _started_mapped[0] = _mapped_bytes()
    if sys.platform.startswith("linux"):  # macOS maps far more than it uses, and does not enforce the limit
        _, hard_as = resource.getrlimit(resource.RLIMIT_AS)
        address_space = _started_mapped[0] + limits.memory_bytes
        if hard_as == resource.RLIM_INFINITY or address_space < hard_as:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, hard_as))
    _, hard_cpu = resource.getrlimit(resource.RLIMIT_CPU)
    cpu = int(time.process_time() + limits.cpu_seconds) + 1
    if hard_cpu == resource.RLIM_INFINITY or cpu < hard_cpu:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, hard_cpu))


def allow_recognition(limits: ReadLimits, pages: int) -> None:
    """Give the document being read the budget of recognising ``pages`` pages (see docs/design/readers.md): never
    less memory than ``limits`` gave it. Call in the reader process only, after :func:`apply_limits`."""
    memory = max(limits.memory_bytes, RECOGNITION_MEMORY_BYTES)
    cpu = RECOGNITION_CPU_SECONDS * pages
    if sys.platform == "win32":
        from daemon.readers.sandbox import winjob

        winjob.limit_this_process(memory, limits.cpu_seconds + cpu)
        return
    import resource

    if sys.platform.startswith("linux"):
        _, hard_as = resource.getrlimit(resource.RLIMIT_AS)
        address_space = _started_mapped[0] + memory
        if hard_as == resource.RLIM_INFINITY or address_space < hard_as:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, hard_as))
    soft_cpu, hard_cpu = resource.getrlimit(resource.RLIMIT_CPU)
    if soft_cpu != resource.RLIM_INFINITY:
        raised = int(soft_cpu + cpu)
        if hard_cpu == resource.RLIM_INFINITY or raised < hard_cpu:
            resource.setrlimit(resource.RLIMIT_CPU, (raised, hard_cpu))


def lift_limits() -> None:
    """Give this process back the room it had before :func:`apply_limits` (soft limits up to the hard ones)."""
    if sys.platform == "win32":
        from daemon.readers.sandbox import winjob

        winjob.lift_this_process()
        return
    import resource

    for which in (resource.RLIMIT_AS, resource.RLIMIT_CPU):
        _, hard = resource.getrlimit(which)
        resource.setrlimit(which, (hard, hard))

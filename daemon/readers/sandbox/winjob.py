"""Windows only: limit the reader process's memory and CPU time through a job object it puts itself in.

Called inside the reader process only, before each document. How: docs/design/readers.md.
"""

from __future__ import annotations

import ctypes
import os
import sys
from ctypes import wintypes

__all__ = ["lift_this_process", "limit_this_process"]

_JOB_OBJECT_EXTENDED_LIMIT_INFORMATION_CLASS = 9
_LIMIT_PROCESS_TIME = 0x00000002
_LIMIT_PROCESS_MEMORY = 0x00000100
_LIMIT_DIE_ON_UNHANDLED_EXCEPTION = 0x00000400
_TICKS_PER_SECOND = 10_000_000  # the job object counts CPU time in 100-nanosecond ticks


class _BasicLimits(ctypes.Structure):
    _fields_ = (
        ("PerProcessUserTimeLimit", ctypes.c_int64),
        ("PerJobUserTimeLimit", ctypes.c_int64),
        ("LimitFlags", wintypes.DWORD),
        ("MinimumWorkingSetSize", ctypes.c_size_t),
        ("MaximumWorkingSetSize", ctypes.c_size_t),
        ("ActiveProcessLimit", wintypes.DWORD),
        ("Affinity", ctypes.c_size_t),
        ("PriorityClass", wintypes.DWORD),
        ("SchedulingClass", wintypes.DWORD),
    )


class _IoCounters(ctypes.Structure):
    _fields_ = tuple((name, ctypes.c_uint64) for name in ("reads", "writes", "others", "read_b", "write_b", "other_b"))


class _ExtendedLimits(ctypes.Structure):
    _fields_ = (
        ("BasicLimitInformation", _BasicLimits),
        ("IoInfo", _IoCounters),
        ("ProcessMemoryLimit", ctypes.c_size_t),
        ("JobMemoryLimit", ctypes.c_size_t),
        ("PeakProcessMemoryUsed", ctypes.c_size_t),
        ("PeakJobMemoryUsed", ctypes.c_size_t),
    )


_job: int | None = None


def _kernel32() -> ctypes.WinDLL:  # type: ignore[name-defined,unused-ignore]
    if sys.platform != "win32":
        raise OSError("job objects exist only on Windows")
    return ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined,unused-ignore]


def _current_process() -> wintypes.HANDLE:
    """This process's pseudo-handle, ``(HANDLE)-1``, as a full 64-bit handle.

    Without ``restype``, ctypes reads ``GetCurrentProcess``'s result as a C ``int`` and passes it back as one:
    ``0xFFFFFFFF``, which is no handle (Wine refuses it with ``ERROR_INVALID_HANDLE``)."""
    get_current_process = _kernel32().GetCurrentProcess
    get_current_process.restype = wintypes.HANDLE
    get_current_process.argtypes = ()
    return wintypes.HANDLE(get_current_process())


def _own_job() -> int:
    """The job object this process is in (created and joined on first use)."""
    global _job
    if _job is None:
        kernel32 = _kernel32()
        kernel32.CreateJobObjectW.restype = wintypes.HANDLE
        handle = kernel32.CreateJobObjectW(None, None)
        if not handle:
            raise ctypes.WinError(ctypes.get_last_error())  # type: ignore[attr-defined,unused-ignore]
        kernel32.AssignProcessToJobObject.argtypes = (wintypes.HANDLE, wintypes.HANDLE)
        if not kernel32.AssignProcessToJobObject(wintypes.HANDLE(handle), _current_process()):
            raise ctypes.WinError(ctypes.get_last_error())  # type: ignore[attr-defined,unused-ignore]
        _job = int(handle)
    return _job


def _set(flags: int, memory_bytes: int, cpu_ticks: int) -> None:
    limits = _ExtendedLimits()
    limits.BasicLimitInformation.LimitFlags = flags
    limits.BasicLimitInformation.PerProcessUserTimeLimit = cpu_ticks
    limits.ProcessMemoryLimit = memory_bytes
    kernel32 = _kernel32()
    done = kernel32.SetInformationJobObject(
        wintypes.HANDLE(_own_job()),
        _JOB_OBJECT_EXTENDED_LIMIT_INFORMATION_CLASS,
        ctypes.byref(limits),
        ctypes.sizeof(limits),
    )
    if not done:
        raise ctypes.WinError(ctypes.get_last_error())  # type: ignore[attr-defined,unused-ignore]


def _committed_bytes() -> int:
    """Memory this process has committed now (its private bytes)."""

    class _Counters(ctypes.Structure):
        _fields_ = (
            ("cb", wintypes.DWORD),
            ("PageFaultCount", wintypes.DWORD),
            *((name, ctypes.c_size_t) for name in ("Peak", "WorkingSet", "QPPeak", "QP", "QNPPeak", "QNP")),
            ("PagefileUsage", ctypes.c_size_t),
            ("PeakPagefileUsage", ctypes.c_size_t),
        )

    counters = _Counters()
    counters.cb = ctypes.sizeof(counters)
    psapi = ctypes.WinDLL("psapi", use_last_error=True)  # type: ignore[attr-defined,unused-ignore]
    if not psapi.GetProcessMemoryInfo(_current_process(), ctypes.byref(counters), counters.cb):
        return 0
    return int(counters.PagefileUsage)


def limit_this_process(memory_bytes: int, cpu_seconds: float) -> None:
    """Allow this process ``memory_bytes`` more committed memory and ``cpu_seconds`` more user CPU time."""
    ticks = int((os.times().user + cpu_seconds) * _TICKS_PER_SECOND)
    flags = _LIMIT_PROCESS_MEMORY | _LIMIT_PROCESS_TIME | _LIMIT_DIE_ON_UNHANDLED_EXCEPTION
    _set(flags, _committed_bytes() + memory_bytes, ticks)


def lift_this_process() -> None:
    """Remove the memory and CPU limits (the process stays in its job)."""
    _set(_LIMIT_DIE_ON_UNHANDLED_EXCEPTION, 0, 0)

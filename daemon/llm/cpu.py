"""Can this processor run the llama.cpp we ship? Asked before a model is loaded, so an old CPU gets a sentence.

:func:`missing_cpu_features` names what is missing; a feature it cannot read is assumed present. Pure functions;
results cached per process. Why and how: docs/design/model-backends.md.
"""

from __future__ import annotations

import functools
import platform
import re
import subprocess
import sys
from collections.abc import Iterable, Set
from pathlib import Path

__all__ = ["compiled_features", "features_missing", "missing_cpu_features", "processor_features"]

# llama.cpp's name of a feature → the lowercase names the operating systems give it (any one is enough).
_FLAGS: dict[str, tuple[str, ...]] = {
    "SSE3": ("pni", "sse3"),
    "SSSE3": ("ssse3",),
    "AVX": ("avx", "avx1.0"),
    "AVX2": ("avx2",),
    "F16C": ("f16c",),
    "FMA": ("fma",),
    "BMI2": ("bmi2",),
    "AVX_VNNI": ("avx_vnni", "avxvnni"),
    "AVX512": ("avx512f",),
    "AVX512_VBMI": ("avx512vbmi", "avx512_vbmi"),
    "AVX512_VNNI": ("avx512_vnni", "avx512vnni"),
    "AVX512_BF16": ("avx512_bf16", "avx512bf16"),
    "AMX_INT8": ("amx_int8", "amxint8"),
}

# IsProcessorFeaturePresent's numbers (winnt.h) for the features Windows reports.
_WINDOWS_FEATURES = {"SSE3": 13, "SSSE3": 36, "AVX": 39, "AVX2": 40, "AVX512": 41}


def features_missing(compiled: Iterable[str], processor: Set[str] | None) -> list[str]:
    """The features in ``compiled`` (llama.cpp's names) that ``processor`` (lowercase OS flags) lacks, sorted.

    ``processor`` ``None`` means unknown: nothing is missing. Features this module has no flag for are not checked.
    """
    if processor is None:
        return []
    return sorted(name for name in compiled if name in _FLAGS and not any(flag in processor for flag in _FLAGS[name]))


@functools.cache
def compiled_features() -> frozenset[str]:
    """The x86 instruction sets llama.cpp was compiled to use (``AVX2``, ``FMA`` …), from its system info."""
    import llama_cpp

    info = llama_cpp.llama_print_system_info().decode("utf-8", "replace")
    return frozenset(name for name, value in re.findall(r"([A-Z0-9_]+) = (\d+)", info) if value != "0")


@functools.cache
def processor_features() -> frozenset[str] | None:
    """The lowercase feature flags this processor announces, or ``None`` when they cannot be read here."""
    if platform.machine().lower() not in ("x86_64", "amd64", "i386", "i686", "x86"):
        return None
    try:
        if sys.platform.startswith("linux"):
            return _linux_flags(Path("/proc/cpuinfo").read_text("utf-8", errors="replace"))
        if sys.platform == "win32":
            return _windows_flags()
        if sys.platform == "darwin":
            return _mac_flags()
    except (OSError, subprocess.SubprocessError, AttributeError, ValueError):
        return None
    return None


def missing_cpu_features() -> list[str]:
    """What llama.cpp was compiled to use and this processor lacks (empty: it can run, or we cannot tell)."""
    return features_missing(compiled_features(), processor_features())


def _linux_flags(cpuinfo: str) -> frozenset[str] | None:
    match = re.search(r"^flags\s*:\s*(.*)$", cpuinfo, re.MULTILINE)
    return frozenset(match.group(1).lower().split()) if match else None


def _windows_flags() -> frozenset[str]:
    import ctypes

    present = ctypes.windll.kernel32.IsProcessorFeaturePresent  # type: ignore[attr-defined]
    reported = {_FLAGS[name][0] for name, number in _WINDOWS_FEATURES.items() if present(number)}
    # Windows does not report the others (F16C, FMA, BMI2, AVX-512's extensions, AMX): assume them present.
    unknown = {flag for name, names in _FLAGS.items() if name not in _WINDOWS_FEATURES for flag in names}
    return frozenset(reported | unknown)


def _mac_flags() -> frozenset[str]:
    flags: set[str] = set()
    for key in ("machdep.cpu.features", "machdep.cpu.leaf7_features", "machdep.cpu.extfeatures"):
        result = subprocess.run(["sysctl", "-n", key], capture_output=True, text=True, timeout=5, check=False)
        flags |= set(result.stdout.lower().split())
    if not flags:
        raise ValueError("sysctl gave no CPU features")
    return frozenset(flags)

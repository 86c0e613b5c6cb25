"""How much RAM this process may use: :func:`memory_status` gives ``available`` and ``total``, within its cgroup's limit
when it has one (v1 or v2; docs/design/models.md, "Memory a process may use").

Pure reads of ``/proc`` and ``/sys``; safe from any thread.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ENV_MEMORY", "MemoryStatus", "cgroup_limit", "memory_status", "system_memory"]

ENV_MEMORY = "STUDYJOBS_MEMORY_MB"
_UNLIMITED = 1 << 60
"""cgroup v1 writes "no limit" as a page-rounded 2^63 − 1; anything above this is no limit."""


@dataclass(frozen=True, slots=True)
class MemoryStatus:
    """Bytes of RAM available now and in all to this process."""

    available: int
    total: int


def system_memory(meminfo: Path = Path("/proc/meminfo")) -> MemoryStatus:
    """The machine's ``MemAvailable`` and ``MemTotal`` (psutil's figures where there is no ``/proc/meminfo``)."""
    try:
        text = meminfo.read_text(encoding="ascii")
    except OSError:
        import psutil  # type: ignore[import-untyped]

        memory = psutil.virtual_memory()
        return MemoryStatus(int(memory.available), int(memory.total))
    values: dict[str, int] = {}
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            values[name] = int(parts[0]) * (1024 if parts[1:] == ["kB"] else 1)
    total = values.get("MemTotal", 0)
    available = values.get("MemAvailable", values.get("MemFree", 0) + values.get("Cached", 0))
    return MemoryStatus(available, total)


def _number(path: Path) -> int | None:
    try:
        text = path.read_text(encoding="ascii").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _inactive_file(stat: Path) -> int:
    try:
        lines = stat.read_text(encoding="ascii").splitlines()
    except OSError:
        return 0
    for line in lines:
        name, _, value = line.partition(" ")
        if name in ("inactive_file", "total_inactive_file") and value.strip().isdigit():
            return int(value)
    return 0


def _own_groups(proc_cgroup: Path) -> tuple[str | None, str | None]:
    """This process's cgroup v2 path and v1 memory path (``None`` where it has none)."""
    v2 = v1 = None
    try:
        lines = proc_cgroup.read_text(encoding="ascii").splitlines()
    except OSError:
        return None, None
    for line in lines:
        number, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if number == "0" and controllers == "":
            v2 = path
        elif "memory" in controllers.split(","):
            v1 = path
    return v2, v1


def _tightest(base: Path, group: str, limit_name: str, usage_name: str) -> tuple[int, int] | None:
    """The lowest limit from ``group`` up to the root, with the headroom under it: ``(limit, limit − usage)``."""
    parts = [part for part in group.strip("/").split("/") if part]
    found: list[tuple[int, int]] = []
    for depth in range(len(parts), -1, -1):
        folder = base.joinpath(*parts[:depth])
        limit = _number(folder / limit_name)
        if limit is None or limit >= _UNLIMITED:
            continue
        usage = _number(folder / usage_name) or 0
        found.append((limit, max(0, limit - usage + _inactive_file(folder / "memory.stat"))))
    if not found:
        return None
    return min(limit for limit, _room in found), min(room for _limit, room in found)


def cgroup_limit(
    proc_cgroup: Path = Path("/proc/self/cgroup"), root: Path = Path("/sys/fs/cgroup")
) -> tuple[int, int] | None:
    """This process's memory cgroup limit and the room left under it, ``(limit, room)``; ``None`` without one.

    A group path that is not under ``root`` (a cgroup namespace shows ``/``) falls back to the mount's own files.
    """
    v2, v1 = _own_groups(proc_cgroup)
    found: list[tuple[int, int]] = []
    if v2 is not None:
        result = _tightest(root, v2, "memory.max", "memory.current")
        if result is not None:
            found.append(result)
    if v1 is not None:
        result = _tightest(root / "memory", v1, "memory.limit_in_bytes", "memory.usage_in_bytes")
        if result is not None:
            found.append(result)
    if not found:
        return None
    return min(limit for limit, _room in found), min(room for _limit, room in found)


def _from_env(env: Mapping[str, str]) -> MemoryStatus | None:
    """The test knob ``STUDYJOBS_MEMORY_MB="<available>[,<total>]"`` (megabytes), ``None`` when unset."""
    text = env.get(ENV_MEMORY, "").strip()
    if not text:
        return None
    try:
        numbers = [int(float(part) * 1_000_000) for part in text.split(",")]
    except ValueError:
        return None
    return MemoryStatus(numbers[0], numbers[1] if len(numbers) > 1 else max(numbers[0], 1))


def memory_status(
    meminfo: Path = Path("/proc/meminfo"),
    proc_cgroup: Path = Path("/proc/self/cgroup"),
    cgroup_root: Path = Path("/sys/fs/cgroup"),
    env: Mapping[str, str] = os.environ,
) -> MemoryStatus:
    """The RAM available now and in all to this process (see the module's rules).

    ``STUDYJOBS_MEMORY_MB`` replaces both figures (a knob for tests of the refusal, never needed by users).
    """
    forced = _from_env(env)
    if forced is not None:
        return forced
    system = system_memory(meminfo)
    limit = cgroup_limit(proc_cgroup, cgroup_root)
    if limit is None:
        return system
    return MemoryStatus(min(system.available, limit[1]), min(system.total, limit[0]))

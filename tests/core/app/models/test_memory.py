"""The RAM available to this process: the system's figures, within its cgroup's limit when it has one."""

from __future__ import annotations

from pathlib import Path

from core.app.models.memory import MemoryStatus, cgroup_limit, memory_status, system_memory

MB = 1_000_000
MIB = 1 << 20


def _files(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="ascii")


def test_this_machine_reports_some_memory_available_within_its_total() -> None:
    status = memory_status(env={})
    assert 0 < status.available <= status.total


def test_meminfo_is_read_in_kibibytes(tmp_path: Path) -> None:
    _files(tmp_path, {"meminfo": "MemTotal:  8000000 kB\nMemFree:  100 kB\nMemAvailable:  3000000 kB\n"})
    assert system_memory(tmp_path / "meminfo") == MemoryStatus(3_000_000 * 1024, 8_000_000 * 1024)


def test_a_cgroup_v2_limit_caps_both_figures_and_its_inactive_file_cache_counts_as_free(tmp_path: Path) -> None:
    _files(
        tmp_path,
        {
            "meminfo": "MemTotal:  24000000 kB\nMemAvailable:  20000000 kB\n",
            "cgroup": "0::/user.slice/app.scope\n",
            "sys/user.slice/memory.max": "max\n",
            "sys/user.slice/app.scope/memory.max": f"{4096 * MIB}\n",
            "sys/user.slice/app.scope/memory.current": f"{3000 * MIB}\n",
            "sys/user.slice/app.scope/memory.stat": f"anon 1\ninactive_file {500 * MIB}\n",
        },
    )
    status = memory_status(tmp_path / "meminfo", tmp_path / "cgroup", tmp_path / "sys", env={})
    assert status == MemoryStatus((4096 - 3000 + 500) * MIB, 4096 * MIB)


def test_the_tightest_limit_on_the_way_to_the_root_wins(tmp_path: Path) -> None:
    _files(
        tmp_path,
        {
            "cgroup": "0::/outer/inner\n",
            "sys/outer/memory.max": f"{1024 * MIB}\n",
            "sys/outer/memory.current": f"{900 * MIB}\n",
            "sys/outer/inner/memory.max": f"{2048 * MIB}\n",
            "sys/outer/inner/memory.current": f"{100 * MIB}\n",
        },
    )
    assert cgroup_limit(tmp_path / "cgroup", tmp_path / "sys") == (1024 * MIB, 124 * MIB)


def test_a_cgroup_v1_memory_limit_counts_and_no_limit_means_none(tmp_path: Path) -> None:
    _files(
        tmp_path,
        {
            "cgroup": "4:memory:/box\n1:cpu:/\n0::/\n",
            "sys/memory/box/memory.limit_in_bytes": f"{2048 * MIB}\n",
            "sys/memory/box/memory.usage_in_bytes": f"{1024 * MIB}\n",
            "sys/memory/box/memory.stat": f"total_inactive_file {24 * MIB}\n",
            "sys/memory/memory.limit_in_bytes": "9223372036854771712\n",
        },
    )
    assert cgroup_limit(tmp_path / "cgroup", tmp_path / "sys") == (2048 * MIB, 1048 * MIB)
    (tmp_path / "sys/memory/box/memory.limit_in_bytes").write_text("9223372036854771712\n", encoding="ascii")
    assert cgroup_limit(tmp_path / "cgroup", tmp_path / "sys") is None


def test_the_test_knob_replaces_both_figures() -> None:
    assert memory_status(env={"STUDYJOBS_MEMORY_MB": "300,8000"}) == MemoryStatus(300 * MB, 8000 * MB)

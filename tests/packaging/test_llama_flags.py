"""Every build of llama.cpp we make uses the same portable CPU flags: ``scripts/install_llama_cpp`` (here, Linux
and macOS releases) and the Windows release job, which cannot run a bash script and repeats them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]


def _release_jobs() -> dict[str, Any]:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "release.yml").read_text("utf-8"))
    return dict(workflow["jobs"])


def _script_x86_flags() -> list[str]:
    script = (ROOT / "scripts" / "install_llama_cpp").read_text("utf-8")
    x86 = script[script.index("x86_64 | amd64)") : script.index(";;")]
    return re.findall(r"-DGGML_\w+=\w+", x86)


def test_the_windows_release_builds_llama_cpp_with_the_flags_of_install_llama_cpp() -> None:
    steps = _release_jobs()["windows"]["steps"]
    (install,) = [step for step in steps if "CMAKE_ARGS" in step.get("env", {})]

    assert install["env"]["CMAKE_ARGS"].split() == _script_x86_flags()
    assert install["env"]["PIP_NO_CACHE_DIR"] == "1"  # a cached native wheel would be taken otherwise


def test_the_portable_flags_turn_off_native_tuning_avx512_and_amx() -> None:
    flags = _script_x86_flags()

    assert "-DGGML_NATIVE=OFF" in flags and "-DGGML_AVX2=ON" in flags
    assert {"-DGGML_AVX512=OFF", "-DGGML_AMX_INT8=OFF"} <= set(flags)


def test_the_linux_and_macos_releases_install_llama_cpp_through_the_script() -> None:
    jobs = _release_jobs()
    for job in ("linux", "macos"):
        runs = [step.get("run", "") for step in jobs[job]["steps"]]
        install = next(run for run in runs if "pip install ." in run)
        assert install.index("scripts/install_llama_cpp") < install.index("pip install ."), job

"""The installed llama.cpp is built for a portable CPU, not for the machine that compiled it.

A ``-march=native`` build kills the worker with SIGILL on a CPU without the builder's instruction sets, and on a
virtual machine that announces AMX without running it (this project's CI machine, 2026-11-30: every prompt of the
bundled model crashed the daemon). ``scripts/install_llama_cpp`` builds for x86-64-v3; the bundles ship that build.
"""

from __future__ import annotations

import platform

import pytest

from daemon.llm.cpu import compiled_features


@pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"), reason="the baseline is x86-64's")
def test_llama_cpp_uses_the_x86_64_v3_baseline_and_nothing_newer() -> None:
    features = compiled_features()

    assert {"AVX", "AVX2", "FMA", "F16C"} <= features
    newer = sorted(name for name in features if name.startswith(("AVX512", "AMX", "AVX_VNNI")))
    assert newer == [], f"llama.cpp was compiled for this machine's CPU ({newer}); run scripts/install_llama_cpp"

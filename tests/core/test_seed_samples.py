"""The seed's own code samples (sections 2–9 of 001), adapted only in their import line and broker, run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLES = Path(__file__).parent / "seed_samples"
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("sample", sorted(p.name for p in SAMPLES.glob("s*_*.py")))
def test_the_seed_sample_runs_unchanged_against_core(sample: str, tmp_path: Path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(SAMPLES)])}
    done = subprocess.run(
        [sys.executable, str(SAMPLES / sample)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr

"""The bundle's --self-test logic, run from source (no build): the same checks the frozen executables run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _self_test(script: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    report = tmp_path / "report.txt"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "STUDYJOBS_SELFTEST_REPORT": str(report)}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    result = subprocess.run(
        [sys.executable, str(ROOT / "packaging" / script), "--self-test"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert report.read_text("utf-8").strip() == result.stdout.strip().splitlines()[-1]
    return result


@pytest.mark.slow
@pytest.mark.timeout(320)
def test_the_worker_self_test_runs_the_model_and_text_recognition_and_writes_a_guide(tmp_path: Path) -> None:
    result = _self_test("entry_worker.py", tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    line = result.stdout.strip()
    assert line.startswith("StudyJobs self-test passed (studyjobs-worker")
    assert "SmolLM2-135M-Instruct.Q4_1.gguf" in line and "prompt tokens" in line
    assert "study guide of photosynthesis.pdf" in line
    assert "text recognition (" in line  # Tesseract read the PDF's first page drawn as a picture


@pytest.mark.slow
@pytest.mark.timeout(320)
def test_the_gui_self_test_loads_qt_and_reads_the_shipped_pdf(tmp_path: Path) -> None:
    result = _self_test("entry_gui.py", tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().startswith("StudyJobs self-test passed (StudyJobs")
    assert "Qt offscreen+svg" in result.stdout and "photosynthesis.pdf read in" in result.stdout


def test_a_failing_check_reports_one_line_and_exit_code_1(tmp_path: Path) -> None:
    code = (
        "def broken():\n    raise bundle_selftest.SelfTestError('the model is gone')\n"
        "sys.exit(bundle_selftest.run_self_test('studyjobs-worker', [broken]))\n"
    )
    result = _with_bundle_selftest(code, tmp_path)
    assert result.returncode == 1
    assert result.stdout.strip().startswith("StudyJobs self-test FAILED (studyjobs-worker")
    assert result.stdout.strip().endswith("the model is gone")


def test_a_check_that_crashes_its_process_is_reported_with_the_signal_and_its_meaning(tmp_path: Path) -> None:
    code = (
        "dies = [sys.executable, '-c', 'import os, signal; os.kill(os.getpid(), signal.SIGILL)']\n"
        "def model():\n    return bundle_selftest.run_isolated(dies, 'the model check')\n"
        "sys.exit(bundle_selftest.run_self_test('studyjobs-worker', [model]))\n"
    )
    result = _with_bundle_selftest(code, tmp_path)
    assert result.returncode == 1
    line = result.stdout.strip()
    assert line.startswith("StudyJobs self-test FAILED (studyjobs-worker")
    assert "the model check crashed its process (SIGILL, an illegal instruction" in line


def test_a_bundle_without_the_trained_data_fails_the_text_recognition_check(tmp_path: Path) -> None:
    code = "sys.exit(bundle_selftest.run_self_test('studyjobs-worker', [bundle_selftest.check_text_recognition]))\n"
    result = _with_bundle_selftest(code, tmp_path, STUDYJOBS_TESSDATA=str(tmp_path))  # a folder with no data
    assert result.returncode == 1
    line = result.stdout.strip()
    assert line.startswith("StudyJobs self-test FAILED (studyjobs-worker")
    assert f"text recognition is missing: tesserocr, or the trained data in {tmp_path}" in line


def _with_bundle_selftest(code: str, tmp_path: Path, **extra_env: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh Python where ``sys`` and ``bundle_selftest`` are imported."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "packaging"), str(ROOT)]), **extra_env}
    return subprocess.run(
        [sys.executable, "-c", "import sys, bundle_selftest\n" + code],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

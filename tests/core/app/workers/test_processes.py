"""Telling a process that is gone from one that runs."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from core.app.workers.processes import process_gone


@pytest.mark.skipif(os.name != "posix", reason="elsewhere the answer is always 'not known'")
def test_a_process_that_ended_is_gone_and_one_that_runs_is_not():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert not process_gone(child.pid)
    finally:
        child.kill()
        child.wait(10)  # reaped: the pid names nothing now

    assert process_gone(child.pid)


def test_this_process_and_impossible_pids_are_never_called_gone():
    assert not process_gone(os.getpid())
    assert not process_gone(0)
    assert not process_gone(-1)

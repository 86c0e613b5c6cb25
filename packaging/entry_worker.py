"""The ``studyjobs-worker`` executable of the bundle: ``studyjobs`` (``daemon.cli.main:main``), or ``--self-test``
(which runs its model check as ``--self-test-model`` in a child process).

``studyjobs-worker daemon --autostart`` is what the login entry runs (``core.app.workers.launch.worker_command``); every
other ``studyjobs`` command works too (``studyjobs-worker list``, ``add``, ``workers`` …).
"""

from __future__ import annotations

import multiprocessing
import sys

from bundle_selftest import MODEL_CHECK_FLAG


def main() -> int:
    """Run the command line, or the bundle's self-test when ``--self-test`` is the first argument."""
    if sys.argv[1:2] == ["--self-test"]:
        from bundle_selftest import check_model, check_text_recognition, run_self_test

        return run_self_test("studyjobs-worker", [check_model, check_text_recognition], guide=True)
    if sys.argv[1:2] == [MODEL_CHECK_FLAG]:  # the self-test's model check, in a process of its own
        from bundle_selftest import run_model_check

        return run_model_check()
    from daemon.cli.main import main as cli_main

    return cli_main(sys.argv[1:])


if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(main())

"""The ``StudyJobs`` executable of the bundle: the window (``gui.app:main``), ``--self-test``, or ``--export-pdf``
(a study guide's Markdown on standard input written as a PDF, for the command line: ``gui.guide.export_pdf``)."""

from __future__ import annotations

import sys


def main() -> int:
    """Run the window, or the bundle's self-test when ``--self-test`` is the first argument."""
    if sys.argv[1:2] == ["--self-test"]:
        from bundle_selftest import check_desktop_libraries, check_qt, run_self_test

        return run_self_test("StudyJobs", [check_desktop_libraries, check_qt])
    if sys.argv[1:2] == ["--export-pdf"]:
        from gui.guide.export_pdf import main as export_pdf

        return export_pdf(sys.argv[2:])
    from gui.app import main as gui_main

    return gui_main()


if __name__ == "__main__":
    sys.exit(main())

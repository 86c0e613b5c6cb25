"""``python -m gui``: start the StudyJobs window."""

import sys

from gui.app import main

sys.exit(main())

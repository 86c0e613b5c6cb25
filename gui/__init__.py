"""StudyJobs desktop app (PySide6 + qasync). It talks to the daemon only through the job store."""

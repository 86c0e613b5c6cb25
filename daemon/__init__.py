"""The StudyJobs daemon: runs jobs from the store (no Qt, no GUI imports)."""

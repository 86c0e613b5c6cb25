"""Adding documents: the dialog, the checks before a job is made, and the question for content added twice."""

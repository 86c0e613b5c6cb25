"""The study-guide writer: plan, outline, sections, the checks every generated text passes, study aids and languages."""

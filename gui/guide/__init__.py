"""The study guide shown in the window: the viewer, rewriting a section, opening and exporting it."""

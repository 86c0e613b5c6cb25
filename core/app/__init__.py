"""StudyJobs' own things on top of the job library: its schema and migrations, settings, logs, the command line,
workers, the ids the daemon and the window share, where outputs are found, the message catalog, the model catalog
and the document pipeline's view.

Imports the library (:mod:`core`) and the backends (:mod:`core.backends`); never Qt, the daemon nor the window.
"""

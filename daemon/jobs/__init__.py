"""The job kinds the daemon runs: ``ingest`` (a file → a document) and ``generate`` (a document → a study guide)."""

"""The reader process: a document read in a process of its own, under memory, CPU and wall-time limits."""

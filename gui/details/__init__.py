"""The selected document's details: one bar per phase, its message, counters and log."""

"""Worker processes as the store sees them: their rows, the switches the window sets, and the command that starts
one."""

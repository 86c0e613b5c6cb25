"""The worker as the window sees it: the status bar's corner, starting and restarting it, pausing the queue, login."""

"""Documents: adding them, their two jobs (reading, then the guide) seen as one thing, and where their text came
from."""

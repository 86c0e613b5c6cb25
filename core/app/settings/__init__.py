"""Settings: the TOML file, the values each setting may take, and the time limits of running jobs."""

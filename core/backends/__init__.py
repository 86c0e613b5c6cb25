"""How the library talks to its two databases: :mod:`core.backends.sqlite` (the one place that opens SQLite and sets
its pragmas), :mod:`core.backends.postgres` (asyncpg and ``LISTEN``), and the compiled-statement code both share
(:mod:`core.backends.compiled_write`, :mod:`core.backends.autocommit`).

Imports nothing of :mod:`core.app`.
"""

"""Alembic migrations of the application database; run them through :mod:`core.app.storage.database`, no
``alembic.ini``.

How to write a revision, and what each one did: docs/design/storage.md ("Migrations", "Schema history").
"""

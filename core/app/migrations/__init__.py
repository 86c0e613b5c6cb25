"""Alembic migrations of the application database (``jobs``, ``documents``, ``study_guides``, ``workers``).

Run them through :mod:`core.app.database` (``open_app_database``, ``upgrade``); no ``alembic.ini`` is needed. To
write a new revision, edit the models in :mod:`core.app.schema` (or :mod:`core.models`), copy the newest file in
``versions/`` to ``NNNN_what_changed.py`` with ``revision = "NNNN"`` and ``down_revision`` the previous one,
and write the operations by hand (SQLite needs ``op.batch_alter_table`` for anything but adding a column). The
test ``tests/core/test_migrations.py`` fails until the migrated schema equals the models again.
"""

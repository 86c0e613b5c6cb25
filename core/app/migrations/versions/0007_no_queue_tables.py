"""The job table is the embedded queue: the SQLite broker's tables and the outbox's triggers go.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02

An embedded database may hold what an earlier embedded daemon made beside the application's tables: the SQLite
broker's ``dramatiq_messages``, ``dramatiq_consumers`` and ``dramatiq_dead_messages``, and the two triggers on
``jobs`` that wrote a queued row's message (``studyjobs_outbox_insert``, ``studyjobs_outbox_requeue``). A queued row
is now its own message (``daemon/brokers/jobs.py``), so they are dropped. Their messages carry nothing a row does not:
every job they named is still queued, running or ended on its row. PostgreSQL never held them. The downgrade drops
nothing back: a daemon of the earlier revision made its tables and triggers itself at its start.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TRIGGERS = ("studyjobs_outbox_insert", "studyjobs_outbox_requeue")
TABLES = ("dramatiq_messages", "dramatiq_consumers", "dramatiq_dead_messages")


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    for trigger in TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    for table in TABLES:
        op.execute(f"DROP TABLE IF EXISTS {table}")


def downgrade() -> None:
    return None

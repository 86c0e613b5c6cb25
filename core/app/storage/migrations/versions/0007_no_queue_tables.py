"""The job table is the embedded queue: the SQLite broker's tables and the outbox's triggers go; the downgrade
restores nothing (docs/design/storage.md, "Schema history").

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
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

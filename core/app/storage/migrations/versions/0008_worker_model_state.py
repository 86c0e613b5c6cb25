"""A worker's row says what its local model is doing: ``workers.model_state`` (``loading``, ``unloaded`` or NULL).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Adds the column, unless a database stamped with an earlier revision already has it (then nothing to do)."""
    if "model_state" in {column["name"] for column in sa.inspect(op.get_bind()).get_columns("workers")}:
        return
    with op.batch_alter_table("workers") as batch:
        batch.add_column(sa.Column("model_state", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("workers") as batch:
        batch.drop_column("model_state")

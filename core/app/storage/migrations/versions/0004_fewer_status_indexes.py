"""Drop the two job indexes that ``status, created_at, id`` already serves (measurements: docs/design/storage.md).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_index("ix_jobs_status_heartbeat", table_name="jobs")
    op.drop_index("ix_jobs_status_run_after", table_name="jobs")


def downgrade() -> None:
    op.create_index("ix_jobs_status_heartbeat", "jobs", ["status", "heartbeat_at"])
    op.create_index("ix_jobs_status_run_after", "jobs", ["status", "run_after"])

"""PostgreSQL: a notification on channel ``studyjobs_jobs`` whenever a job row becomes queued (nothing on SQLite).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CHANNEL = "studyjobs_jobs"


def upgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    op.execute(
        f"""
        CREATE OR REPLACE FUNCTION studyjobs_notify_queued() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('{CHANNEL}', '');
            RETURN NULL;
        END
        $$
        """
    )
    op.execute(
        """
        CREATE TRIGGER jobs_notify_queued AFTER INSERT OR UPDATE OF status ON jobs
        FOR EACH ROW WHEN (NEW.status = 'queued') EXECUTE FUNCTION studyjobs_notify_queued()
        """
    )


def downgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS jobs_notify_queued ON jobs")
    op.execute("DROP FUNCTION IF EXISTS studyjobs_notify_queued()")

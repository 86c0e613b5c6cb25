"""A job's parent, guide sections stored as they are written, restart requests and app-wide switches.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("jobs") as batch:
        batch.add_column(sa.Column("parent_id", sa.Uuid(), nullable=True))
        batch.create_index("ix_jobs_parent_id", ["parent_id"], unique=False)
    _fill_parents()
    with op.batch_alter_table("workers") as batch:
        batch.add_column(sa.Column("restart_requested", sa.String(length=16), nullable=True))
    op.create_table(
        "guide_sections",
        sa.Column("job_id", sa.Uuid(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=500), nullable=False),
        sa.Column("markdown", sa.Text(), nullable=False),
        sa.Column("origin", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("job_id", "position", name=op.f("pk_guide_sections")),
    )
    op.create_table(
        "app_controls",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_app_controls")),
    )


def _fill_parents() -> None:
    """``generate`` rows written before this revision name their ingest job in ``detail``."""
    bind = op.get_bind()
    jobs = sa.table("jobs", sa.column("id", sa.Uuid()), sa.column("detail", sa.JSON()), sa.column("parent_id", sa.Uuid()))
    rows = bind.execute(sa.select(jobs.c.id, jobs.c.detail).where(sa.text("kind = 'generate'"))).all()
    for job_id, detail in rows:
        if isinstance(detail, str):
            detail = json.loads(detail)
        raw = (detail or {}).get("ingest_job_id")
        try:
            parent = uuid.UUID(str(raw))
        except ValueError:
            continue
        bind.execute(sa.update(jobs).where(jobs.c.id == job_id).values(parent_id=parent))


def downgrade() -> None:
    op.drop_table("app_controls")
    op.drop_table("guide_sections")
    with op.batch_alter_table("workers") as batch:
        batch.drop_column("restart_requested")
    with op.batch_alter_table("jobs") as batch:
        batch.drop_index("ix_jobs_parent_id")
        batch.drop_column("parent_id")

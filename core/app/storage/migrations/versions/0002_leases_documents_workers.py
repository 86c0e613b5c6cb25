"""Leases, fencing, retry and screen columns on jobs; documents, study_guides and workers (docs/design/storage.md).

Revision ID: 0002
Revises: 0001
Create Date: 2025-01-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_FILLED = ("title", "message", "detail", "phases", "error_transient")

_JOB_INDEXES = (
    ("ix_jobs_created", ["created_at", "id"]),
    ("ix_jobs_status_created", ["status", "created_at", "id"]),
    ("ix_jobs_kind_created", ["kind", "created_at", "id"]),
    ("ix_jobs_status_heartbeat", ["status", "heartbeat_at"]),
    ("ix_jobs_status_run_after", ["status", "run_after"]),
)


def _stage_columns(stage: str) -> list[sa.Column]:
    return [
        sa.Column(f"status_{stage}", sa.String(length=16), nullable=True),
        sa.Column(f"error_{stage}", sa.Text(), nullable=True),
        sa.Column(f"result_{stage}", sa.Text(), nullable=True),
    ]


def upgrade() -> None:
    # Adding columns needs no table rebuild on SQLite; the defaults fill the existing rows.
    with op.batch_alter_table("jobs") as batch:
        batch.add_column(sa.Column("title", sa.String(length=500), nullable=False, server_default=""))
        batch.add_column(sa.Column("message", sa.Text(), nullable=False, server_default=""))
        batch.add_column(sa.Column("detail", sa.JSON(), nullable=False, server_default=sa.text("'{}'")))
        batch.add_column(sa.Column("phases", sa.JSON(), nullable=False, server_default=sa.text("'[]'")))
        batch.add_column(sa.Column("error_transient", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("worker_id", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("run_after", sa.DateTime(timezone=True), nullable=True))
    op.execute(
        "UPDATE jobs SET heartbeat_at = COALESCE(started_at, updated_at) "
        "WHERE status = 'running' AND heartbeat_at IS NULL"
    )
    # Dropping the defaults rebuilds the table once on SQLite (inside the migration's transaction).
    with op.batch_alter_table("jobs") as batch:
        for name in _FILLED:
            batch.alter_column(name, server_default=None)
        batch.drop_index("ix_jobs_status")
        for name, columns in _JOB_INDEXES:
            batch.create_index(name, columns, unique=False)

    op.create_table(
        "documents",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("source_name", sa.String(length=500), nullable=False),
        sa.Column("source_path", sa.Text(), nullable=False),
        sa.Column("size_bytes", sa.BigInteger(), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("mime", sa.String(length=200), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("language", sa.String(length=16), nullable=True),
        sa.Column("page_count", sa.Integer(), nullable=True),
        sa.Column("char_count", sa.Integer(), nullable=True),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("text_path", sa.Text(), nullable=True),
        *_stage_columns("extract"),
        *_stage_columns("outline"),
        *_stage_columns("write"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_documents")),
    )
    op.create_index(op.f("ix_documents_content_hash"), "documents", ["content_hash"], unique=False)

    op.create_table(
        "study_guides",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("document_id", sa.Uuid(), nullable=True),
        sa.Column("job_id", sa.Uuid(), nullable=False),
        sa.Column("title", sa.String(length=500), nullable=False),
        sa.Column("language", sa.String(length=16), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("markdown", sa.Text(), nullable=True),
        sa.Column("model_name", sa.String(length=200), nullable=False),
        sa.Column("section_count", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.id"],
            name=op.f("fk_study_guides_document_id_documents"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_study_guides")),
        sa.UniqueConstraint("job_id", name=op.f("uq_study_guides_job_id")),
    )
    op.create_index(op.f("ix_study_guides_document_id"), "study_guides", ["document_id"], unique=False)

    op.create_table(
        "workers",
        sa.Column("id", sa.String(length=200), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("version", sa.String(length=64), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("threads", sa.Integer(), nullable=False),
        sa.Column("running", sa.Integer(), nullable=False),
        sa.Column("broker", sa.Text(), nullable=False),
        sa.Column("stopping", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_workers")),
    )
    op.create_index(op.f("ix_workers_last_seen"), "workers", ["last_seen"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_workers_last_seen"), table_name="workers")
    op.drop_table("workers")
    op.drop_index(op.f("ix_study_guides_document_id"), table_name="study_guides")
    op.drop_table("study_guides")
    op.drop_index(op.f("ix_documents_content_hash"), table_name="documents")
    op.drop_table("documents")
    with op.batch_alter_table("jobs") as batch:
        for name, _columns in _JOB_INDEXES:
            batch.drop_index(name)
        batch.create_index("ix_jobs_status", ["status"], unique=False)
        for name in ("run_after", "heartbeat_at", "worker_id", *reversed(_FILLED)):
            batch.drop_column(name)

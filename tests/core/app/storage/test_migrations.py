"""Migrations of the application database, on a real SQLite file and a real PostgreSQL database.

The first revision is the seed's plain jobs table; a database made at it, with rows in it, must come through
every later revision with sane values and keep working with the store. The migrated schema must equal the
models exactly (so forgetting a revision after changing a model fails here), and an upgrade is all-or-nothing.
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta

import pytest
import sqlalchemy as sa

from core.app.storage.database import (
    MigrationError,
    current_revision,
    downgrade,
    head_revision,
    make_app_store,
    open_app_database,
    schema_differences,
    upgrade,
)
from core.app.storage.schema import APP_TABLE_NAMES
from core.db import AsyncDatabaseManager
from core.status import JobStatus
from core.types import UTCDateTime, utcnow

INSERT_SEED_JOB = sa.text(
    "INSERT INTO jobs (id, kind, status, stage, progress, params, payload, result_id, error, attempts, "
    "max_attempts, started_at, finished_at, created_at, updated_at) VALUES (:id, :kind, :status, :stage, "
    ":progress, :params, :payload, NULL, NULL, :attempts, :max_attempts, :started_at, NULL, :created_at, "
    ":updated_at)"
).bindparams(
    sa.bindparam("id", type_=sa.Uuid()),
    sa.bindparam("params", type_=sa.JSON()),
    sa.bindparam("payload", type_=sa.LargeBinary()),
    sa.bindparam("started_at", type_=UTCDateTime()),
    sa.bindparam("created_at", type_=UTCDateTime()),
    sa.bindparam("updated_at", type_=UTCDateTime()),
)


async def insert_seed_job(db: AsyncDatabaseManager, *, status: str = "queued", age: float = 0.0, **values):
    """A row as the seed's code wrote it, before any later column existed."""
    created = utcnow() - timedelta(seconds=age)
    row = {
        "id": uuid.uuid4(),
        "kind": "ingest",
        "status": status,
        "stage": "",
        "progress": 0.0,
        "params": {"filename": "apostila.pdf"},
        "payload": b"%PDF-1.7",
        "attempts": 1 if status == "running" else 0,
        "max_attempts": 3,
        "started_at": created if status == "running" else None,
        "created_at": created,
        "updated_at": created,
    } | values
    async with db.get_session_context() as session:
        await session.execute(INSERT_SEED_JOB, row)
    return row["id"]


async def table_names(db: AsyncDatabaseManager) -> set[str]:
    async with db.engine.connect() as conn:
        return set(await conn.run_sync(lambda c: sa.inspect(c).get_table_names()))


async def column_names(db: AsyncDatabaseManager, table: str) -> set[str]:
    async with db.engine.connect() as conn:
        return {c["name"] for c in await conn.run_sync(lambda c: sa.inspect(c).get_columns(table))}


@pytest.fixture
async def manager(database_url: str):
    """A manager over the fresh, empty database (no tables: the test migrates it)."""
    db = AsyncDatabaseManager(database_url)
    try:
        yield db
    finally:
        await db.dispose()


async def test_a_database_made_at_the_first_revision_upgrades_to_head(manager: AsyncDatabaseManager):
    assert await upgrade(manager, "0001") == "0001"
    queued = await insert_seed_job(manager)
    running = await insert_seed_job(manager, status="running", age=7200, stage="reading", progress=0.4)

    assert await upgrade(manager) == head_revision()

    store = make_app_store(manager)
    job = await store.get(queued)
    assert (job.kind, job.status, job.params) == ("ingest", JobStatus.QUEUED, {"filename": "apostila.pdf"})
    assert (job.title, job.message, job.detail, job.phases) == ("", "", {}, [])
    assert (job.error_transient, job.worker_id, job.heartbeat_at, job.run_after) == (False, None, None, None)
    assert (job.attempts, job.max_attempts) == (0, 3)
    assert job.created_at.tzinfo is not None and job.created_at <= utcnow()

    claimed = await store.claim(queued, worker_id="w1")
    assert claimed is not None and claimed.payload == b"%PDF-1.7" and claimed.attempts == 1
    await store.succeed(queued, attempt=claimed.attempts)
    done = await store.get(queued)
    assert (done.status, done.progress, done.payload) == (JobStatus.DONE, 1.0, None)

    orphan = await store.get(running)
    assert orphan.heartbeat_at == orphan.started_at, "a running row's lease starts at its start time"
    assert await store.reclaim_stale() == 1
    requeued = await store.get(running)
    assert (requeued.status, requeued.progress, requeued.stage) == (JobStatus.QUEUED, 0.0, "")


async def test_upgrading_twice_is_a_no_op(manager: AsyncDatabaseManager):
    await upgrade(manager)
    job = await make_app_store(manager).enqueue("generate", title="Biologia")
    tables = await table_names(manager)

    assert await upgrade(manager) == head_revision()

    assert await table_names(manager) == tables
    assert (await make_app_store(manager).get(job.id)).title == "Biologia"


async def test_the_migrated_schema_matches_the_models_exactly(manager: AsyncDatabaseManager):
    await upgrade(manager, "0001")
    await insert_seed_job(manager)
    await upgrade(manager)

    assert await schema_differences(manager) == []
    assert await table_names(manager) >= APP_TABLE_NAMES


async def test_the_schema_comparison_notices_a_column_the_models_do_not_have(manager: AsyncDatabaseManager):
    await upgrade(manager)
    async with manager.get_session_context() as session:
        await session.execute(sa.text("ALTER TABLE workers ADD COLUMN nickname VARCHAR(20)"))

    differences = await schema_differences(manager)

    assert [d[0] for d in differences] == ["remove_column"]
    assert differences[0][2:4] == ("workers", differences[0][3]) and differences[0][3].name == "nickname"


async def test_open_app_database_on_a_fresh_database_creates_everything(database_url: str):
    db = await open_app_database(database_url)
    try:
        assert await current_revision(db) == head_revision()
        assert await table_names(db) >= APP_TABLE_NAMES
        job = await make_app_store(db).enqueue("ingest")
        assert job.max_attempts == 5
        assert (await make_app_store(db).enqueue("generate")).max_attempts == 3
    finally:
        await db.dispose()


async def test_a_failed_upgrade_changes_nothing(manager: AsyncDatabaseManager):
    await upgrade(manager, "0001")
    job_id = await insert_seed_job(manager)
    async with manager.get_session_context() as session:  # 0002 will fail late, when it creates this table
        await session.execute(sa.text("CREATE TABLE documents (id INTEGER PRIMARY KEY)"))

    with pytest.raises(MigrationError, match="documents"):
        await upgrade(manager)

    assert await current_revision(manager) == "0001"
    assert "title" not in await column_names(manager, "jobs"), "the jobs changes were rolled back too"
    assert await table_names(manager) == {"alembic_version", "jobs", "documents"}
    async with manager.get_session_context() as session:
        assert await session.scalar(sa.text("SELECT count(*) FROM jobs")) == 1
    async with manager.get_session_context() as session:
        await session.execute(sa.text("DROP TABLE documents"))
    await upgrade(manager)
    assert (await make_app_store(manager).get(job_id)).kind == "ingest"


async def test_two_upgraders_at_once_take_turns_and_both_end_at_head(database_url: str):
    results = await asyncio.gather(upgrade(database_url), upgrade(database_url), open_app_database(database_url))
    db = results[2]
    try:
        assert results[:2] == [head_revision(), head_revision()]
        assert await schema_differences(db) == []
    finally:
        await db.dispose()


async def test_a_seed_database_without_migration_history_is_adopted(manager: AsyncDatabaseManager):
    await upgrade(manager, "0001")
    job_id = await insert_seed_job(manager)
    async with manager.get_session_context() as session:  # what the seed's create_all left behind
        await session.execute(sa.text("DROP TABLE alembic_version"))
    assert await current_revision(manager) is None

    assert await upgrade(manager) == head_revision()

    assert await schema_differences(manager) == []
    assert (await make_app_store(manager).get(job_id)).params == {"filename": "apostila.pdf"}


async def test_a_database_made_by_create_tables_is_stamped_at_head(manager: AsyncDatabaseManager):
    await manager.create_tables()

    assert await upgrade(manager) == head_revision()
    assert await schema_differences(manager) == []


async def test_an_unversioned_database_of_unknown_shape_is_refused(manager: AsyncDatabaseManager):
    async with manager.get_session_context() as session:
        await session.execute(sa.text("CREATE TABLE jobs (id INTEGER PRIMARY KEY, name TEXT)"))

    with pytest.raises(MigrationError, match="no migration history"):
        await upgrade(manager)

    assert await table_names(manager) == {"jobs"}
    assert await column_names(manager, "jobs") == {"id", "name"}


async def test_a_database_from_a_newer_version_is_refused_with_a_clear_reason(manager: AsyncDatabaseManager):
    await upgrade(manager)
    async with manager.get_session_context() as session:
        await session.execute(sa.text("UPDATE alembic_version SET version_num = '0099'"))

    with pytest.raises(MigrationError, match=r"revision 0099, made by a newer version of StudyJobs"):
        await open_app_database(manager.url)

    assert await current_revision(manager) == "0099"


async def test_tables_that_are_not_the_applications_are_left_alone(manager: AsyncDatabaseManager):
    async with manager.get_session_context() as session:  # e.g. the embedded broker, in the same SQLite file
        await session.execute(sa.text("CREATE TABLE queue_messages (id INTEGER PRIMARY KEY, body TEXT)"))
        await session.execute(sa.text("INSERT INTO queue_messages (id, body) VALUES (1, 'hello')"))

    await upgrade(manager)

    assert await schema_differences(manager) == []
    async with manager.get_session_context() as session:
        assert await session.scalar(sa.text("SELECT body FROM queue_messages")) == "hello"


async def test_a_downgrade_to_the_first_revision_and_back_keeps_the_jobs(manager: AsyncDatabaseManager):
    await upgrade(manager)
    job = await make_app_store(manager).enqueue("ingest", params={"filename": "a.epub"})

    assert await downgrade(manager, "0001") == "0001"
    assert await table_names(manager) == {"alembic_version", "jobs"}
    assert await upgrade(manager) == head_revision()

    assert (await make_app_store(manager).get(job.id)).params == {"filename": "a.epub"}
    assert await schema_differences(manager) == []


async def test_upgrade_accepts_a_url_and_leaves_nothing_open(database_url: str):
    assert await upgrade(database_url) == head_revision()
    assert await current_revision(database_url) == head_revision()


async def test_generate_jobs_made_before_parents_existed_get_their_ingest_job_as_parent(
    manager: AsyncDatabaseManager,
):
    await upgrade(manager, "0004")
    jobs = sa.table(
        "jobs",
        *(sa.column(name, type_) for name, type_ in (
            ("id", sa.Uuid()), ("kind", sa.String()), ("status", sa.String()), ("title", sa.String()),
            ("stage", sa.String()), ("progress", sa.Float()), ("message", sa.Text()), ("detail", sa.JSON()),
            ("phases", sa.JSON()), ("params", sa.JSON()), ("error_transient", sa.Boolean()),
            ("attempts", sa.Integer()), ("max_attempts", sa.Integer()), ("created_at", UTCDateTime()),
            ("updated_at", UTCDateTime()),
        )),
    )  # fmt: skip
    ingest_id, generate_id = uuid.uuid4(), uuid.uuid4()
    now = utcnow()
    async with manager.engine.begin() as conn:
        for job_id, kind, detail in (
            (ingest_id, "ingest", {}),
            (generate_id, "generate", {"ingest_job_id": str(ingest_id)}),
        ):
            await conn.execute(
                jobs.insert().values(
                    id=job_id, kind=kind, status="done", title="", stage="", progress=1.0, message="",
                    detail=detail, phases=[], params={}, error_transient=False, attempts=1, max_attempts=3,
                    created_at=now, updated_at=now,
                )
            )  # fmt: skip
    await upgrade(manager)
    store = make_app_store(manager)
    assert (await store.get(generate_id)).parent_id == ingest_id
    assert (await store.get(ingest_id)).parent_id is None


async def test_the_embedded_queues_tables_and_triggers_of_an_earlier_daemon_are_dropped(
    manager: AsyncDatabaseManager, backend: str
):
    if backend != "sqlite":
        pytest.skip("only an embedded (SQLite) database ever held them")
    await upgrade(manager, "0006")
    async with manager.get_session_context() as session:
        for statement in (
            "CREATE TABLE dramatiq_messages (id INTEGER PRIMARY KEY, message_id TEXT)",
            "CREATE TABLE dramatiq_consumers (id TEXT PRIMARY KEY)",
            "CREATE TABLE dramatiq_dead_messages (id INTEGER PRIMARY KEY)",
            "CREATE TRIGGER studyjobs_outbox_insert AFTER INSERT ON jobs "
            "BEGIN INSERT INTO dramatiq_messages (message_id) VALUES (NEW.id); END",
            "CREATE TRIGGER studyjobs_outbox_requeue AFTER UPDATE OF status ON jobs "
            "BEGIN INSERT INTO dramatiq_messages (message_id) VALUES (NEW.id); END",
        ):
            await session.execute(sa.text(statement))
    job = await make_app_store(manager).enqueue("ingest")

    assert await upgrade(manager) == head_revision()

    assert not {name for name in await table_names(manager) if name.startswith("dramatiq")}
    async with manager.get_session_context() as session:
        triggers = (await session.execute(sa.text("SELECT name FROM sqlite_master WHERE type = 'trigger'"))).all()
    assert triggers == []
    assert (await make_app_store(manager).get(job.id)).status == "queued"
    assert await schema_differences(manager) == []

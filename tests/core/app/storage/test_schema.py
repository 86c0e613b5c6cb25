"""The application's tables: columns agree with StageMap; constraints hold on both backends."""

from __future__ import annotations

import uuid
from datetime import UTC

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import undefer

from core.app.storage.database import open_app_database
from core.app.storage.schema import (
    APP_TABLE_NAMES,
    DOCUMENT_STAGES,
    AppControl,
    Document,
    GuideSection,
    Job,
    StudyGuide,
    Worker,
)
from core.models import Base, BaseJobModel
from core.stages import StageStatus


def test_every_column_the_document_stage_map_resolves_exists_on_the_model():
    columns = Document.__table__.c
    for stage in DOCUMENT_STAGES.stages:
        status, error, result = DOCUMENT_STAGES.columns(stage)
        assert isinstance(columns[status].type, sa.String) and columns[status].type.length == 16
        assert isinstance(columns[error].type, sa.Text) and isinstance(columns[result].type, sa.Text)
        assert columns[status].nullable and columns[error].nullable and columns[result].nullable
    assert DOCUMENT_STAGES.stages == ("extract", "outline", "write")


def test_every_application_table_is_on_the_one_shared_metadata():
    assert issubclass(Job, BaseJobModel)
    for model in (Job, Document, StudyGuide, Worker, GuideSection, AppControl):
        assert Base.metadata.tables[model.__tablename__] is model.__table__
    assert {"jobs", "documents", "study_guides", "workers", "guide_sections", "app_controls"} == APP_TABLE_NAMES


def test_the_lookups_the_application_makes_are_indexed():
    def indexed(table: sa.Table, column: str) -> bool:
        return any(index.columns.keys()[0] == column for index in table.indexes)

    assert indexed(Document.__table__, "content_hash")
    assert indexed(StudyGuide.__table__, "document_id")
    assert indexed(Worker.__table__, "last_seen")
    assert StudyGuide.__table__.c.job_id.unique


def test_large_texts_are_deferred_so_lists_never_load_them():
    assert Document.__mapper__.attrs["text"].deferred
    assert StudyGuide.__mapper__.attrs["markdown"].deferred


@pytest.fixture
async def app_db(database_url: str):
    db = await open_app_database(database_url)
    try:
        yield db
    finally:
        await db.dispose()


def new_document(**values) -> Document:
    return Document(
        source_name="Introdução à Biologia.pdf",
        source_path="/home/ana/Introdução à Biologia.pdf",
        size_bytes=1_234_567,
        content_hash="ab" * 32,
        mime="application/pdf",
        format="pdf",
        **values,
    )


def new_guide(document: Document | None, **values) -> StudyGuide:
    return StudyGuide(
        document_id=None if document is None else document.id,
        job_id=values.pop("job_id", uuid.uuid4()),
        title="Biologia — guia",
        language="pt",
        path="/home/ana/Documents/StudyJobs/biologia.md",
        markdown="# Biologia\n",
        **values,
    )


async def test_a_document_round_trips_with_its_stages_text_and_aware_timestamps(app_db):
    document = new_document(text="Célula é a unidade…", language="pt", page_count=12, char_count=20)
    DOCUMENT_STAGES.mark(document, "extract", StageStatus.DONE, result="12 pages")
    DOCUMENT_STAGES.mark(document, "outline", StageStatus.RUNNING)
    async with app_db.get_session_context() as session:
        session.add(document)

    async with app_db.get_session_context() as session:
        listed = (await session.scalars(sa.select(Document))).one()
        assert "text" in sa.inspect(listed).unloaded, "a listing must not load the extracted text"
        full = (await session.scalars(sa.select(Document).options(undefer(Document.text)))).one()

    assert full.text == "Célula é a unidade…" and full.source_name == "Introdução à Biologia.pdf"
    assert DOCUMENT_STAGES.snapshot(full) == {
        "extract": {"status": "done", "error": None, "result": "12 pages"},
        "outline": {"status": "running", "error": None, "result": None},
        "write": {"status": None, "error": None, "result": None},
    }
    assert full.created_at.tzinfo == UTC and full.updated_at.tzinfo == UTC
    async with app_db.get_session_context() as session:
        assert await session.scalar(sa.select(Document.id).where(Document.content_hash == "ab" * 32)) == full.id


async def test_a_second_guide_for_the_same_job_is_refused(app_db):
    job_id = uuid.uuid4()
    async with app_db.get_session_context() as session:
        session.add(new_guide(None, job_id=job_id))

    with pytest.raises(IntegrityError):
        async with app_db.get_session_context() as session:
            session.add(new_guide(None, job_id=job_id))

    async with app_db.get_session_context() as session:
        assert await session.scalar(sa.select(sa.func.count()).select_from(StudyGuide)) == 1


async def test_deleting_a_document_keeps_its_guides(app_db):
    document = new_document()
    async with app_db.get_session_context() as session:
        session.add(document)
    guide = new_guide(document, model_name="qwen2.5-3b", section_count=5)
    async with app_db.get_session_context() as session:
        session.add(guide)

    async with app_db.get_session_context() as session:
        await session.execute(sa.delete(Document).where(Document.id == document.id))

    async with app_db.get_session_context() as session:
        kept = (await session.scalars(sa.select(StudyGuide).options(undefer(StudyGuide.markdown)))).one()
    assert (kept.id, kept.document_id, kept.markdown, kept.section_count) == (
        guide.id,
        None,
        "# Biologia\n",
        5,
    )


async def test_a_guide_cannot_point_at_a_document_that_does_not_exist(app_db):
    with pytest.raises(IntegrityError):
        async with app_db.get_session_context() as session:
            session.add(new_guide(new_document(id=uuid.uuid4())))  # that document was never saved

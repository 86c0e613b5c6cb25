"""A study guide as stored: parts saved as written, the guide read back finished or not, and which job it is."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from core.app.documents.pipelines import Pipelines
from core.app.guides.markdown import head_markdown, join_guide, section_body, section_markdown
from core.app.guides.stored import (
    CLOSING_ORIGIN,
    forget_guide_parts,
    guide_job_for,
    guide_wanted,
    read_guide,
    read_guide_parts,
    save_guide_part,
)
from core.app.storage.database import make_app_store, open_app_database
from core.app.storage.schema import Job, StudyGuide
from core.db import AsyncDatabaseManager
from core.store import JobStore


@pytest.fixture
async def app_db(database_url: str) -> AsyncIterator[AsyncDatabaseManager]:
    db = await open_app_database(database_url)
    try:
        yield db
    finally:
        await db.dispose()


@pytest.fixture
def app_store(app_db: AsyncDatabaseManager) -> JobStore[Job]:
    return make_app_store(app_db)


async def _add_guide(db: AsyncDatabaseManager, job_id: uuid.UUID, path: Path, markdown: str | None) -> None:
    async with db.get_session_context() as session:
        session.add(StudyGuide(job_id=job_id, title="Cells", language="en", path=str(path), markdown=markdown,
                               section_count=2))  # fmt: skip


def test_the_parts_joined_are_the_head_and_the_sections_with_a_blank_line_between_them():
    parts = [head_markdown("Cells"), section_markdown("Walls", "Plants have them."), section_markdown("DNA", "")]
    assert join_guide(parts) == "# Cells\n\n## Walls\n\nPlants have them.\n\n## DNA\n\n\n"
    assert head_markdown("Cells", "An overview.") == "# Cells\n\nAn overview."
    assert section_body(parts[1], "Walls") == "Plants have them."
    assert section_body(parts[1], "DNA") is None


async def test_a_guide_being_written_reads_as_the_parts_so_far_and_saving_a_position_again_replaces_it(
    app_db: AsyncDatabaseManager,
):
    job_id = uuid.uuid4()
    assert await read_guide(app_db, job_id) is None
    await save_guide_part(app_db, job_id, 0, "Cells", "# Cells")
    head_only = await read_guide(app_db, job_id)
    assert head_only is not None and (head_only.markdown, head_only.sections, head_only.complete) == (
        "# Cells\n",
        0,
        False,
    )
    await save_guide_part(app_db, job_id, 2, "DNA", "## DNA\n\nold text")
    await save_guide_part(app_db, job_id, 1, "Walls", "## Walls\n\nPlants have them.")
    await save_guide_part(app_db, job_id, 2, "DNA", "## DNA\n\nIt holds genes.")
    text = await read_guide(app_db, job_id)
    assert text is not None
    assert text.markdown == "# Cells\n\n## Walls\n\nPlants have them.\n\n## DNA\n\nIt holds genes.\n"
    assert (text.title, text.sections, text.complete, text.path) == ("Cells", 2, False, None)
    await forget_guide_parts(app_db, job_id, [2, 7])
    assert [p.position for p in await read_guide_parts(app_db, job_id)] == [0, 1]
    assert await read_guide(app_db, uuid.uuid4()) is None  # another job's parts are not this one's


async def test_storing_or_deleting_a_part_is_a_change_of_its_document_that_the_watch_sees(
    app_db: AsyncDatabaseManager, app_store: JobStore[Job]
):
    root = await app_store.enqueue("ingest", title="cells.txt", params={"path": "/nowhere/cells.txt"})
    child = await app_store.enqueue("generate", title="cells.txt", columns={"parent_id": root.id})
    other = await app_store.enqueue("ingest", title="other.txt", params={"path": "/nowhere/other.txt"})
    changes = Pipelines(app_store).watch([root.id, other.id], interval=0.02)
    try:
        assert await anext(changes) == {root.id, other.id}
        before = (await app_store.get(child.id)).updated_at
        await save_guide_part(app_db, child.id, 1, "Walls", "## Walls\n\nPlants have them.")
        assert await asyncio.wait_for(anext(changes), 10) == {root.id}
        assert (await app_store.get(child.id)).updated_at > before
        await forget_guide_parts(app_db, child.id, [1])
        assert await asyncio.wait_for(anext(changes), 10) == {root.id}
        assert await read_guide_parts(app_db, child.id) == []
    finally:
        await changes.aclose()


async def test_the_closing_part_of_a_guide_being_written_is_shown_but_not_counted_as_a_section(
    app_db: AsyncDatabaseManager,
):
    job_id = uuid.uuid4()
    await save_guide_part(app_db, job_id, 0, "Cells", "# Cells")
    await save_guide_part(app_db, job_id, 1, "Walls", "## Walls\n\nPlants have them.")
    await save_guide_part(app_db, job_id, 2, "Glossary", "## Glossary\n\n- **Wall**", CLOSING_ORIGIN)
    text = await read_guide(app_db, job_id)
    assert text is not None and text.markdown.endswith("## Glossary\n\n- **Wall**\n")
    assert (text.sections, text.complete) == (1, False)


async def test_a_finished_guide_reads_as_its_stored_markdown_or_its_file_or_its_parts(
    app_db: AsyncDatabaseManager, tmp_path: Path
):
    stored, from_file, file_gone = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    await save_guide_part(app_db, stored, 0, "Cells", "# Cells")  # parts and the finished guide may differ
    await _add_guide(app_db, stored, tmp_path / "a.md", "# Cells\n\n## Walls\n\nfinal\n")
    (tmp_path / "b.md").write_text("# From the file\n", encoding="utf-8")
    await _add_guide(app_db, from_file, tmp_path / "b.md", None)  # a guide from before the column was filled
    await _add_guide(app_db, file_gone, tmp_path / "gone.md", None)
    await save_guide_part(app_db, file_gone, 0, "Cells", "# Cells")

    text = await read_guide(app_db, stored)
    assert text is not None and text.complete and text.markdown == "# Cells\n\n## Walls\n\nfinal\n"
    assert (text.path, text.sections, text.title) == (tmp_path / "a.md", 2, "Cells")
    old = await read_guide(app_db, from_file)
    assert old is not None and old.complete and old.markdown == "# From the file\n"
    gone = await read_guide(app_db, file_gone)
    assert gone is not None and gone.complete and gone.markdown == "# Cells\n"


async def test_a_document_stands_for_its_newest_done_guide_job_else_its_running_one(
    app_db: AsyncDatabaseManager, app_store: JobStore[Job]
):
    root = await app_store.enqueue("ingest", title="cells.pdf")
    assert await guide_job_for(app_db, root.id) is None
    assert await guide_job_for(app_db, uuid.uuid4()) is None

    async def child(status: str) -> uuid.UUID:
        job = await app_store.enqueue("generate", title="cells.pdf", columns={"parent_id": root.id})
        if status != "queued":
            assert await app_store.claim(job.id) is not None
        if status == "done":
            await app_store.succeed(job.id)
        return job.id

    await child("queued")
    assert await guide_job_for(app_db, root.id) is None
    running = await child("running")
    assert await guide_job_for(app_db, root.id) == running
    first_done = await child("done")
    assert await guide_job_for(app_db, root.id) == first_done
    newer_done = await child("done")
    assert await guide_job_for(app_db, root.id) == newer_done
    assert await guide_job_for(app_db, running) == running  # a generate job stands for itself


async def test_a_document_added_for_its_text_only_is_not_to_have_a_guide(
    app_db: AsyncDatabaseManager, app_store: JobStore[Job]
):
    text_only = await app_store.enqueue("ingest", params={"path": "a.pdf", "only_extract": True})
    with_guide = await app_store.enqueue("ingest", params={"path": "b.pdf", "only_extract": False})
    old_row = await app_store.enqueue("ingest", params={"path": "c.pdf"})
    generate = await app_store.enqueue("generate", params={}, columns={"parent_id": with_guide.id})
    assert not await guide_wanted(app_db, text_only.id)
    assert await guide_wanted(app_db, with_guide.id) and await guide_wanted(app_db, old_row.id)
    assert await guide_wanted(app_db, generate.id)
    assert not await guide_wanted(app_db, uuid.uuid4())

"""A real daemon's ``generate`` job stores its guide part by part (``guide_sections``), as it writes it."""

from __future__ import annotations

import json
import os
import signal
import uuid
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from unittest.mock import ANY

from sqlalchemy import select

from core.app.documents.job_ids import generate_job_id_for
from core.app.guides.rewrite import rewrite_section
from core.app.guides.stored import PLAN_POSITION, StoredPart, read_guide, read_guide_parts
from core.app.messages.sentences import message
from core.app.storage.database import open_app_database
from core.app.storage.schema import GuideSection, Job, StudyGuide
from core.stored_messages import decode
from daemon.guide_writer.extractive import quotes_only_note
from tests.daemon.worker.faults import PORTUGUESE, add, wait_ended
from tests.daemon.worker.workerhome import DaemonHome, run
from tests.waiting import wait_until


@dataclass(frozen=True)
class Look:
    """One look at the job and the parts it has stored."""

    status: str | None
    attempts: int
    parts: tuple[tuple[int, str, datetime], ...]  # position, markdown, created_at
    plan: tuple[str, datetime] | None  # the stored plan and when it was stored


async def _look(home: DaemonHome, job_id: uuid.UUID) -> Look:
    db = await open_app_database(f"sqlite+aiosqlite:///{home.data_dir / 'studyjobs.db'}")
    try:
        async with db.get_session_context() as session:
            job = await session.get(Job, job_id)
            rows = (
                await session.scalars(
                    select(GuideSection).where(GuideSection.job_id == job_id).order_by(GuideSection.position)
                )
            ).all()
            status, attempts = (job.status, job.attempts) if job is not None else (None, 0)
            parts = tuple((r.position, r.markdown, r.created_at) for r in rows if r.position >= 0)
            plan = next(((r.markdown, r.created_at) for r in rows if r.position == PLAN_POSITION), None)
            return Look(status, attempts, parts, plan)
    finally:
        await db.dispose()


async def _final(home: DaemonHome, job_id: uuid.UUID) -> tuple[StudyGuide, list[StoredPart], Job]:
    db = await open_app_database(f"sqlite+aiosqlite:///{home.data_dir / 'studyjobs.db'}")
    try:
        async with db.get_session_context() as session:
            guide = (await session.scalars(select(StudyGuide).where(StudyGuide.job_id == job_id))).one()
            markdown = await session.scalar(select(StudyGuide.markdown).where(StudyGuide.job_id == job_id))
            job = await session.get(Job, job_id)
        assert job is not None
        guide.markdown = markdown
        text = await read_guide(db, job_id)
        assert text is not None and text.complete and text.markdown == markdown
        return guide, await read_guide_parts(db, job_id), job
    finally:
        await db.dispose()


def _add_long_document(home: DaemonHome, tmp_path: Path, repeat: int) -> uuid.UUID:
    source = tmp_path / "longo.txt"
    source.write_text("\n\n".join([PORTUGUESE] * repeat), encoding="utf-8")
    (ingest,) = add(home, source)
    return generate_job_id_for(ingest)


def test_a_real_generate_job_stores_each_section_while_it_writes_and_the_guide_is_those_parts_joined(
    home: DaemonHome, tmp_path: Path
):
    home.start()
    generate = _add_long_document(home, tmp_path, repeat=30)
    looks: list[Look] = []

    def ended() -> bool:
        looks.append(run(_look(home, generate)))
        return looks[-1].status in ("done", "failed", "cancelled")

    wait_until(ended, timeout=180, interval=0.05, what="the generate job to end")
    guide, parts, job = run(_final(home, generate))
    assert job.status == "done", job.error

    assert guide.section_count > 1
    assert [p.position for p in parts] == list(range(guide.section_count + 2))  # head, sections, coverage
    assert parts[-1].title == "Glossário" and "\n\n## Cobertura\n\n" in parts[-1].markdown  # the closing part
    assert parts[0].title == "longo" and parts[0].markdown.startswith("# longo\n\nEste guia cobre ")
    # The tiny model's alphabet fails the check: each section is made of quotes, and the job says so.
    assert all(p.markdown.startswith(f"## {p.title}\n\n") and p.origin == "quotes" for p in parts[1:-1])
    assert len(job.detail["notes"]) == guide.section_count
    for number, note in enumerate(job.detail["notes"], start=1):  # each note says which check the text failed
        stored = decode(note)
        assert stored is not None and stored.code == "section_from_quotes" and "format" in stored.values
        assert message("section_from_quotes", "en", **stored.values) != message(
            "section_from_quotes", "en", number=number, title=stored.values["title"]
        )
    joined = "\n\n".join(p.markdown for p in parts) + "\n"
    assert guide.markdown == joined == Path(guide.path).read_text(encoding="utf-8")
    # every part was stored during the sections phase, in order, before the export began
    phases = {p["name"]: p for p in job.phases}
    stored = [created for _position, _markdown, created in looks[-1].parts]
    assert stored == sorted(stored)
    assert datetime.fromisoformat(phases["sections"]["started_at"]) <= stored[0]
    assert stored[-1] <= datetime.fromisoformat(phases["export"]["started_at"])
    # the plan was stored before the first section, and the details show its size
    plan = looks[-1].plan
    assert plan is not None and plan[1] <= stored[1]
    assert json.loads(plan[0])["sections"] == [[p.title, ANY] for p in parts[1:-1]]
    assert job.detail["plan_sections"] == guide.section_count and job.detail["plan_tokens"] > 0
    assert job.detail["plan_from_chapters"] is False  # a text file has no chapters: the model planned it
    # what a screen saw while the job ran: a prefix of the final parts, growing
    seen = [tuple(p[0] for p in look.parts) for look in looks if look.status == "running"]
    assert all(s == tuple(range(len(s))) for s in seen), seen
    assert [len(s) for s in seen] == sorted(len(s) for s in seen)
    assert any(1 < len(s) <= guide.section_count for s in seen), "never saw a guide half written"


def test_a_model_that_writes_no_summaries_gets_a_guide_of_key_passages_and_the_job_says_why_once(
    home: DaemonHome, tmp_path: Path
):
    home.settings["model"]["summaries"] = False  # as the catalog says of the bundled demo model
    home.write_settings()
    home.start()
    generate = _add_long_document(home, tmp_path, repeat=6)
    wait_until(
        lambda: run(_look(home, generate)).status in ("done", "failed", "cancelled"), timeout=180, what="the job"
    )
    guide, parts, job = run(_final(home, generate))
    assert job.status == "done", job.error

    sections = parts[1:-1]
    assert sections and all(p.origin == "quotes" for p in sections)
    assert all(p.markdown.startswith(f"## {p.title}\n\n### Trechos principais\n\n> ") for p in sections)
    assert "### Resumo" not in guide.markdown and "o texto do modelo" not in guide.markdown
    assert quotes_only_note("pt") in parts[0].markdown
    (note,) = (decode(n) for n in job.detail["notes"])
    assert note is not None and note.code == "sections_quoted"
    assert "too small to write summaries" in message(note.code, "en", **note.values)
    assert [p["name"] for p in job.phases] == ["load_model", "outline", "sections", "export"]


def test_a_new_daemon_after_a_kill_keeps_the_sections_already_written_and_writes_only_the_rest(
    home: DaemonHome, tmp_path: Path
):
    home.settings["stale_after"] = 600.0  # the job comes back because its process is gone, not by the lease
    home.write_settings()
    daemon = home.start()
    generate = _add_long_document(home, tmp_path, repeat=80)

    def two_sections_written() -> bool:
        look = run(_look(home, generate))
        return look.status == "running" and len(look.parts) >= 3

    wait_until(two_sections_written, timeout=180, interval=0.05, what="two sections stored")
    os.kill(daemon.pid, signal.SIGKILL)
    daemon.wait(10)
    before = run(_look(home, generate))
    home.start()
    wait_ended(home, [generate], timeout=240)
    guide, parts, job = run(_final(home, generate))

    assert job.status == "done" and job.attempts == 2, job.error
    assert len(before.parts) < len(parts) == guide.section_count + 2
    after = {position: (markdown, created) for position, markdown, created in run(_look(home, generate)).parts}
    for position, markdown, created in before.parts[1:]:
        assert after[position] == (markdown, created), f"section {position} was written again"
    assert before.plan is not None and run(_look(home, generate)).plan == before.plan, "the plan was made again"
    assert guide.markdown == "\n\n".join(p.markdown for p in parts) + "\n"


async def _ask_rewrite(home: DaemonHome, job_id: uuid.UUID, position: int) -> uuid.UUID | None:
    db = await open_app_database(f"sqlite+aiosqlite:///{home.data_dir / 'studyjobs.db'}")
    try:
        return await rewrite_section(db, job_id, position)
    finally:
        await db.dispose()


def test_a_user_asks_for_one_section_again_and_only_that_section_is_written(home: DaemonHome, tmp_path: Path):
    home.settings["model"]["context"] = 4096  # a context this size splits the document into more than two sections
    home.write_settings()
    home.start()
    generate = _add_long_document(home, tmp_path, repeat=30)
    wait_ended(home, [generate], timeout=180)
    guide, parts, job = run(_final(home, generate))
    assert job.status == "done" and guide.section_count > 2, job.error
    original = run(_look(home, generate))

    again = run(_ask_rewrite(home, generate, 2))
    assert again is not None
    wait_ended(home, [again], timeout=180)
    new_guide, new_parts, new_job = run(_final(home, again))

    assert new_job.status == "done", new_job.error
    assert new_job.parent_id == job.parent_id and new_job.params["rewrite_position"] == 2
    adopted = run(_look(home, again)).plan
    assert adopted is not None and original.plan is not None and adopted[0] == original.plan[0]
    assert [p.title for p in new_parts] == [p.title for p in parts]
    kept = [p.markdown for p in new_parts if p.position != 2]
    assert kept == [p.markdown for p in parts if p.position != 2]  # every other section as it was
    # only section 2 was asked of the model: the last section count the job wrote is 2, not the last section
    assert (new_job.detail["sections_done"], new_job.detail["sections_total"]) == (2, guide.section_count)
    assert new_guide.id != guide.id and new_guide.section_count == guide.section_count
    assert run(_ask_rewrite(home, generate, guide.section_count + 1)) is None  # the coverage table is no section

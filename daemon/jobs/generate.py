"""``generate``: one document → one study guide (phases ``load_model``, ``outline``, ``sections``, ``export``).

Idempotent: one guide row per job, its file named after the job id; a retried attempt reuses the stored sections
of its outline. Runs on the job's event loop; local inference runs in the model's own thread and stops through
the job's ``threading.Event``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
import uuid
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import undefer

from core.app.documents.counters import OUTLINE, SECTIONS
from core.app.documents.structure import DocumentStructure, page_ranges
from core.app.storage.files import write_atomically
from core.app.storage.schema import DOCUMENT_STAGES, Document, StudyGuide
from core.app.timing.document_time import plan_for
from core.app.timing.guide_estimate import GenerateEstimate
from core.app.timing.speeds import Speeds
from core.progress import PhasePlan
from core.stages import StageStatus
from core.tracker import ProgressTracker
from daemon.guide_writer.checks import CHECK_CODES
from daemon.guide_writer.matter import left_out_pages
from daemon.guide_writer.prompts import Language, detect_language, supported_language
from daemon.guide_writer.writer import GuidePlan, GuideProgress, GuideWriter
from daemon.guide_writer.writer import StudyGuide as WrittenGuide
from daemon.jobs.context import JobContext, UserFacingError
from daemon.jobs.estimates import generate_estimate, prepare_text, remember
from daemon.jobs.failures import is_disk_full
from daemon.jobs.guide_parts import GuideParts
from daemon.plans import quoting_plan

log = logging.getLogger(__name__)

__all__ = ["QUOTE_REASONS", "guide_file_name", "run_generate"]

REWRITE_TEMPERATURE = 0.7
"""Sampling temperature when a user asks for one section again: another wording than the greedy one."""

_UNSAFE = re.compile(r"[^\w\- ]+", re.UNICODE)


def guide_file_name(title: str, job_id: uuid.UUID) -> str:
    """A file name that is safe on every OS and the same for every attempt of one job."""
    stem = _UNSAFE.sub("", Path(title).stem).strip()[:60] or "study-guide"
    return f"{stem} - {job_id.hex[:8]}.md"


async def run_generate(ctx: JobContext) -> uuid.UUID:
    """Write the study guide of ``params["document_id"]``; returns the guide's id."""
    store = ctx.runtime.store
    existing = await _existing_guide(ctx)
    if existing is not None:
        return existing  # an earlier attempt finished the work but not the row
    document = await _load_document(ctx)
    text = document.text or ""
    language = _guide_language(ctx.job.params.get("language"), document.language, text)
    structure = DocumentStructure.from_json(document.structure)
    made = await generate_estimate(ctx.runtime)
    estimate, key = (made[0], made[2]) if made is not None else (None, None)
    if estimate is not None:
        await ctx.in_thread(prepare_text, estimate, text, structure)  # the passages cut: 0.07 s for 560 kB
    summaries = ctx.runtime.summaries  # the bundled demo model quotes key passages instead
    tracker = _tracker(ctx, len(text), estimate, summaries)
    await _mark(ctx, document.id, ("outline",), StageStatus.RUNNING)

    loading = _load_model(ctx, estimate, text, tracker)
    generator = await tracker.run("load_model", loading, stop_event=ctx.stop_event, message=ctx.text("loading_model"))
    parts = GuideParts(store.db, ctx.job.id)  # the plan, then each section, stored as soon as it is made
    rewriting = await _adopt_for_rewrite(ctx, parts)
    writer = GuideWriter(generator, temperature=REWRITE_TEMPERATURE if rewriting else 0.0, summaries=summaries)
    started = time.monotonic()
    # A line or two per guide (not per short job): the job's own log in the window is not empty for a success.
    log.info(
        "writing the study guide of %s (%d characters) with %s", document.source_name, len(text), _model(generator)
    )
    report = _progress(ctx, tracker, estimate)
    planning = _plan(ctx, writer, parts, (text, language, structure), tracker, estimate, report)
    plan = await tracker.run(
        "outline", planning, size=len(text), stop_event=ctx.stop_event, message=ctx.text("outlining")
    )
    await _mark(ctx, document.id, ("outline",), StageStatus.DONE, result=json.dumps([t for t, _ in plan.sections]))
    await _mark(ctx, document.id, ("write",), StageStatus.RUNNING)
    title = Path(document.source_name).stem
    writing = _finished(
        writer.write_sections(
            plan,
            title=title,
            stop_event=ctx.stop_event,
            on_progress=report,
            on_part=parts.save,
            written=await parts.reusable(plan),
        ),
        estimate,
    )
    guide = await tracker.run("sections", writing, size=len(text), stop_event=ctx.stop_event)
    _note_quoted_sections(ctx, tracker, guide, plan, summaries)
    exporting = _export(ctx, document, guide, generator)
    guide_id = await tracker.run("export", exporting, message=ctx.text("exporting"))
    log.info("study guide written: %d section(s) in %.1f s", len(guide.sections), time.monotonic() - started)
    await _mark(ctx, document.id, ("write",), StageStatus.DONE, result=str(guide_id))
    await store.report_progress(ctx.job.id, 1.0, attempt=ctx.job.attempts)
    if estimate is not None:
        try:
            remember(ctx.runtime, key, estimate)
        except Exception:  # the speeds help the next estimate; the guide is written whatever happens here
            log.exception("job %s: the model's speeds could not be remembered", ctx.job.id)
    return guide_id


async def _adopt_for_rewrite(ctx: JobContext, parts: GuideParts) -> bool:
    """For a job asked to rewrite one section of another job's guide (``params["rewrite_of"]``, the job, and
    ``params["rewrite_position"]``, the 1-based section): take that guide's plan and its other sections, so only
    that section is written. ``False`` for an ordinary job, or when that guide has no stored plan (then the whole
    guide is written)."""
    source, position = ctx.job.params.get("rewrite_of"), ctx.job.params.get("rewrite_position")
    if not source or not isinstance(position, int) or position < 1:
        return False
    try:
        source_id = uuid.UUID(str(source))
    except ValueError:
        return False
    adopted = await parts.adopt(source_id, skip=position)
    if adopted:
        log.info("rewriting section %d of the guide of job %s", position, source_id)
    return adopted


async def _plan(
    ctx: JobContext,
    writer: GuideWriter,
    parts: GuideParts,
    source: tuple[str, Language, DocumentStructure],
    tracker: ProgressTracker,
    estimate: GenerateEstimate | None,
    report: Any,
) -> GuidePlan:
    """The plan an earlier attempt stored for this text, else a new one, stored before any section is written;
    the plan's size and expected time go to the job's details."""
    text, language, structure = source
    stored = await parts.stored_plan()
    plan = None if stored is None else await writer.restore(text, stored, language=language, structure=structure)
    if plan is not None:
        log.info("continuing from the stored plan: %d section(s)", len(plan.sections))
    else:
        plan = await writer.outline(
            text, language=language, structure=structure, stop_event=ctx.stop_event, on_progress=report
        )
        await parts.save_plan(plan)
    if estimate is not None:
        estimate.outlined([sum(len(plan.passages[n - 1]) for n in numbers) for _title, numbers in plan.sections])
    ctx.job.detail.update(_plan_detail(plan, estimate))
    await tracker.report("outline", done=1.0, detail=ctx.job.detail)  # the last part's message stays
    return plan


def _plan_detail(plan: GuidePlan, estimate: GenerateEstimate | None) -> dict[str, Any]:
    """What the job's details show of the plan: source tokens, sections (steps), expected seconds, and whether
    the sections are the document's chapters."""
    seconds = estimate.remaining("outline", 0.0, 1.0) if estimate is not None else None
    return {
        "plan_tokens": plan.tokens,
        "plan_sections": len(plan.sections),
        "plan_seconds": round(seconds) if seconds is not None else None,
        "plan_from_chapters": plan.from_chapters,
    }


def _guide_language(chosen: Any, document_language: str | None, text: str) -> Language:
    """The job's language (``params["language"]``, picked by the user), else the document's, else the one its
    text is in; English for a language guides are not written in."""
    for candidate in (chosen, document_language):
        language = supported_language(str(candidate)) if candidate else None
        if language is not None:
            return language
    return detect_language(text)


QUOTE_REASONS = ("echoed_prompt", "first_person", "chatter", "question", "ungrounded", *(
    code for code in CHECK_CODES if code != "echoed_prompt"))  # fmt: skip
"""The failed checks the job's details name, as ``section_from_quotes``'s variants (``format``): a text that failed
several is named by the first of them in this order. Most telling first: a text that echoes its instructions was
not written from its passages at all, nor one that narrates, chats or asks (:mod:`daemon.guide_writer.voice`), one its
passages do not support states what the source does not say, and
the faults of the writing follow in :data:`~daemon.guide_writer.checks.CHECK_CODES`'s order."""


def _quote_reason(problems: tuple[str, ...]) -> str | None:
    return next((reason for reason in QUOTE_REASONS if reason in problems), None)


def _note_quoted_sections(
    ctx: JobContext, tracker: ProgressTracker, guide: WrittenGuide, plan: GuidePlan, summaries: bool
) -> None:
    """Say in the job's details (``detail["notes"]``) which pages were left out as front or back matter
    (``pages_left_out``, by reason), which sections were made of quotes, and why (the check the model's last text
    failed; ``sections_quoted`` once when the model writes no summaries, ``summaries`` false)."""
    used = {p for _t, numbers in plan.sections for n in numbers for p in (plan.pages[n - 1] if plan.pages else ())}
    notes = [
        ctx.text("pages_left_out", pages=page_ranges(pages), format=reason)
        for reason, pages in left_out_pages(plan.left_out, plan.pages, used)
    ]
    if not summaries:  # every section quotes its passages by the model's design, not because a text failed
        notes.append(ctx.text("sections_quoted"))
    for number, section in enumerate(guide.sections, start=1):
        if section.origin != "quotes" or not summaries:
            continue
        reason = _quote_reason(section.problems)
        values: dict[str, Any] = {"number": number, "title": section.title}
        if reason is not None:
            values["format"] = reason
        notes.append(ctx.text("section_from_quotes", **values))
        log.info(
            "section %d (%s) written from quotes: the model's text failed the check (%s)",
            number, section.title, ", ".join(section.problems) or "unknown",
        )  # fmt: skip
    if notes:
        tracker.note(notes=notes)  # written with the export phase's first count


def _model(generator: Any) -> str:
    """The model's name as the guide records it (a local model's file name, or the server's model name)."""
    name = str(getattr(generator, "model_name", "") or getattr(generator, "model_path", "") or "")
    return Path(name).name if name else "the model"


async def _finished(writing: Awaitable[WrittenGuide], estimate: GenerateEstimate | None) -> WrittenGuide:
    """``writing``'s guide, with its last step counted as ended before the tracker writes the phase's end."""
    guide = await writing
    if estimate is not None:
        estimate.finish()
    return guide


def _tracker(ctx: JobContext, chars: int, estimate: GenerateEstimate | None, summaries: bool) -> ProgressTracker:
    """The job's tracker, with ``estimate``'s time left. Its bar gives each phase the seconds the estimate expects
    of it (the same speeds as the time left: the model's file, its measured speeds, this document's tokens); with no
    estimate, the calibrated plan (for a writer without ``summaries``, sections take no room) laid out for ``chars``
    characters of text."""
    speeds = estimate.speeds() if estimate is not None else None
    if estimate is None or speeds is None:
        phases = plan_for("generate") if summaries else quoting_plan(plan_for("generate"))
        return ctx.tracker(
            phases, {"outline": chars, "sections": chars}, estimate.remaining if estimate else _no_estimate
        )
    return ctx.tracker(_expected_plan(estimate, speeds), None, estimate.remaining)


def _expected_plan(estimate: GenerateEstimate, speeds: Speeds) -> PhasePlan:
    """The job's phases, each with the seconds ``estimate`` expects of it at ``speeds``."""
    return PhasePlan.from_seconds({name: estimate.phase_seconds(name, speeds) for name in plan_for("generate").names})


def _no_estimate(_phase: str, _elapsed: float, _done: float | None) -> float | None:
    return None


def _progress(ctx: JobContext, tracker: ProgressTracker, estimate: GenerateEstimate | None, every: float = 0.5) -> Any:
    """The writer's ``on_progress`` (called on the loop, per token) → the estimate, and a throttled real count on
    the row."""
    last_time = [0.0]
    writes: set[asyncio.Task[bool]] = set()  # the loop keeps only weak references to tasks
    last_step = [""]

    def report(progress: GuideProgress) -> None:
        now = time.monotonic()
        if estimate is not None:
            estimate.on_progress(progress, now)
        if progress.phase == "terms":  # the search's pace, for the time left; the tracker keeps writing the row
            return
        key = f"{progress.phase}:{progress.step}"
        if now - last_time[0] < every and key == last_step[0]:
            return
        last_time[0], last_step[0] = now, key
        done = _phase_done(progress, estimate)
        if progress.phase == "outline":
            phase, text = "outline", ctx.text("outlining_part", current=progress.step, total=progress.steps)
            detail = OUTLINE.values(progress.step, progress.steps)
        else:
            phase, text = "sections", ctx.text("writing_section", current=progress.step, total=progress.steps)
            detail = SECTIONS.values(progress.step, progress.steps)
        detail = {**ctx.job.detail, **detail, "tokens": progress.tokens, "token_budget": progress.token_budget}
        write = ctx.loop.create_task(tracker.report(phase, done=done, message=text, detail=detail))
        writes.add(write)
        write.add_done_callback(writes.discard)

    return report


def _phase_done(progress: GuideProgress, estimate: GenerateEstimate | None) -> float:
    """The share of the running phase done at ``progress`` (the writer's latest report, already given to
    ``estimate``): the estimate's figure (:meth:`GenerateEstimate.phase_done`), which counts the second try a
    section may need, so the bar never reaches the phase's end while the model still writes. Without an estimate,
    the running try's tokens over its budget, never more than half a step (a second try may follow)."""
    done = estimate.phase_done() if estimate is not None else None
    if done is not None:
        return done
    within = min(progress.tokens / progress.token_budget, 1.0) if progress.token_budget else 0.0
    return (progress.step - 1 + 0.5 * within) / max(progress.steps, 1)


async def _load_model(ctx: JobContext, estimate: GenerateEstimate | None, text: str, tracker: ProgressTracker) -> Any:
    """The ``load_model`` phase: the model, loaded; the estimate learns the load's time and the text's tokens, and
    the bar lays the phases after it out again with them (the characters per token vary by text: 2.2 to 4.8)."""
    generator = await ctx.runtime.generator()
    loader = getattr(generator, "load", None)
    began = time.monotonic()
    if loader is not None:
        await loader()  # a local model is read into memory once per daemon
    if estimate is not None:
        estimate.model_loaded(time.monotonic() - began)
        estimate.prepare(tokens=await generator.count_tokens(text))
        speeds = estimate.speeds()
        if speeds is not None:
            tracker.replan(_expected_plan(estimate, speeds))
    return generator


async def _existing_guide(ctx: JobContext) -> uuid.UUID | None:
    async with ctx.runtime.store.db.get_session_context() as session:
        found: uuid.UUID | None = await session.scalar(select(StudyGuide.id).where(StudyGuide.job_id == ctx.job.id))
        return found


async def _load_document(ctx: JobContext) -> Document:
    raw = ctx.job.params.get("document_id")
    try:
        document_id = uuid.UUID(str(raw))
    except ValueError:
        raise UserFacingError("document_missing") from None
    async with ctx.runtime.store.db.get_session_context() as session:
        stmt = (
            select(Document)
            .where(Document.id == document_id)
            .options(undefer(Document.text), undefer(Document.structure))
        )
        document = (await session.scalars(stmt)).first()
    if document is None:
        raise UserFacingError("document_missing")
    if not (document.text or "").strip():
        raise UserFacingError("no_text")
    return document


async def _mark(
    ctx: JobContext, document_id: uuid.UUID, stages: tuple[str, ...], status: StageStatus, result: str | None = None
) -> None:
    async with ctx.runtime.store.db.get_session_context() as session:
        document = await session.get(Document, document_id)
        if document is None:
            return
        for stage in stages:
            if result is None:
                DOCUMENT_STAGES.mark(document, stage, status)
            else:
                DOCUMENT_STAGES.mark(document, stage, status, result=result)


async def _export(ctx: JobContext, document: Document, guide: WrittenGuide, generator: Any) -> uuid.UUID:
    folder = Path(ctx.runtime.settings.output_dir)
    path = folder / guide_file_name(document.source_name, ctx.job.id)
    try:
        await ctx.in_thread(write_atomically, path, guide.markdown)
    except OSError as error:
        if is_disk_full(error):
            raise UserFacingError("disk_full_output", folder=str(folder)) from error
        raise UserFacingError("output_unwritable", folder=str(folder), reason=error.strerror or str(error)) from error
    model_name = str(getattr(generator, "model_name", "") or getattr(generator, "model_path", "") or "")
    row = StudyGuide(
        id=uuid.uuid4(),
        document_id=document.id,
        job_id=ctx.job.id,
        title=guide.title,
        language=guide.language,
        path=str(path),
        markdown=guide.markdown,
        model_name=Path(model_name).name if model_name else "",
        section_count=len(guide.sections),
    )
    try:
        async with ctx.runtime.store.db.get_session_context() as session:
            session.add(row)
    except IntegrityError:
        existing = await _existing_guide(ctx)
        if existing is None:
            raise
        return existing
    return row.id

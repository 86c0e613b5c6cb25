"""``ingest``: one file → one ``documents`` row (phases ``read``, ``clean``, ``save``), then its ``generate`` job.

Idempotent: the document's id and the follow-up job's id derive from the job's id. A file changed since it was
added is read as it is now and the job says so (``file_changed``). Runs on the job's event loop; the read runs on
a worker thread.
"""

from __future__ import annotations

import logging
import re
import threading
import uuid
from collections.abc import Callable
from pathlib import Path

from core.app.documents.counters import PAGES, PARTS
from core.app.documents.formats import ADDED_KEY, changed_since_added, document_format
from core.app.documents.job_ids import document_id_for, generate_job_id_for
from core.app.documents.pipelines import queue_guide
from core.app.documents.structure import DocumentStructure
from core.app.storage.schema import DOCUMENT_STAGES, Document
from core.app.timing.document_time import plan_for, reader_family
from core.app.timing.guide_estimate import GenerateEstimate
from core.progress import EXPECTED_SECONDS, FOLLOW_UP_SECONDS
from core.stages import StageStatus
from core.tracker import ProgressTracker
from daemon.jobs.context import JobContext, UserFacingError
from daemon.jobs.estimates import chapters_of, generate_estimate, prepare_text
from daemon.jobs.recognising import Recognising
from daemon.plans import with_wait
from daemon.readers import ExtractedDocument
from daemon.readers.cleanup import to_nfc
from daemon.readers.sandbox.isolated import default_pool, read_isolated

__all__ = ["clean_text", "run_ingest"]

log = logging.getLogger(__name__)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_BLANKS = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)+")
_PLAIN_FORMATS = frozenset({"text", "markdown", "html"})
_PDF_CHARS_PER_BYTE = 0.27
_PDF_CHARS_PER_PAGE = 1900  # the median of the calibration's PDFs (resources/plans/ingest-pdf.json: 690–2440)
_COUNTED_CHARS = 50_000
_COUNTED_SHARE = {"pdf": 0.9, "text": 0.4}
"""Reader family → the share of the read phase its count covers, as the job sees it. After a PDF's last page its
reader finds the bookmarks or the headings by font, makes the paragraphs and sends the text over the pipe: 5–16 %
of the read of the held-out PDFs (R-FAQ, R-ints, R-admin, R-intro). A text file's parts are all counted after
18–59 % of its read (median about 40 %, 20–240 kB): the headings, the paragraphs and the pipe come after them. With
the whole count on the whole phase, the bar reached the read's end while that work was still to come, and the time
left said none was left. Other formats count their whole read."""


def clean_text(text: str) -> str:
    """Normalise Unicode (NFC), drop stray control characters, fold runs of blank lines; keep indentation.

    The readers already return clean paragraphs; this is the last, cheap pass before the text is stored (the NFC
    pass only runs when the text holds a combining mark).
    """
    text = to_nfc(text)
    text = _CONTROL.sub("", text)
    return _BLANKS.sub("\n\n", text).strip()


async def run_ingest(ctx: JobContext) -> uuid.UUID:
    """Read the file named in ``params["path"]``, save it as a document, and queue its study guide.

    The file is read in a reader process under limits (:mod:`daemon.readers.sandbox.isolated`): a file that crashes it,
    exhausts its memory or time, or gives too much text fails this job with a plain message; the worker goes on.

    When a guide is wanted, the row's ``detail["follow_up_seconds"]`` says how long its ``generate`` job is
    expected to take (guessed from a text file's size or a PDF's page count, then from the text; a PDF has no
    figure until its reader has counted its pages), and that job is enqueued with the same
    figure as ``detail["expected_seconds"]`` (see :mod:`core.progress`).
    """
    path = Path(str(ctx.job.params.get("path", "")))
    if changed_since_added(path, ctx.job.params.get(ADDED_KEY)):
        await _note_file_changed(ctx, path)
    kind = document_format(path)
    guessed = _expected_chars(path, kind)
    wait = default_pool().start_wait()  # the read waits for a reader process that is still starting
    recognising = Recognising()
    plan = with_wait(plan_for("ingest", reader_family(kind)), "read", wait)
    tracker = ctx.tracker(plan, sizes={"read": guessed}, estimate=recognising.estimate)
    recognising.tracker = tracker
    wants_guide = not ctx.job.params.get("only_extract", False)
    made = await generate_estimate(ctx.runtime) if wants_guide else None
    follow_up: GenerateEstimate | None = made[0] if made is not None else None
    pages = kind == "pdf"
    if wants_guide:
        if follow_up is not None and guessed and not pages:
            follow_up.prepare(chars=guessed)
        tracker.note(**{FOLLOW_UP_SECONDS: _expected(follow_up) if not pages else None})
    extracted = await _read(ctx, tracker, path, kind, follow_up, recognising)
    cleaning = ctx.in_thread(clean_text, extracted.text)
    text = await tracker.run("clean", cleaning, size=extracted.char_count, message=ctx.text("cleaning"))
    if not text:
        raise UserFacingError("no_text")
    if follow_up is not None:
        structure = DocumentStructure.from_json(extracted.structure)
        if len(text) <= _COUNTED_CHARS:
            prepare_text(follow_up, text, structure)
        else:  # counting a book's passages would take a noticeable part of reading it (36 ms for 560 kB)
            chapters = await ctx.in_thread(chapters_of, text, structure)  # off the loop: 0.07 s for 560 kB
            follow_up.prepare(chars=len(text), chapters=chapters)
        tracker.note(**{FOLLOW_UP_SECONDS: _expected(follow_up)})
    saving = _save(ctx, path, extracted, text, wants_guide)
    document_id = await tracker.run("save", saving, size=len(text), message=ctx.text("saving"))
    if wants_guide:
        await _queue_guide(ctx, path, document_id, follow_up)
    return document_id


async def _note_file_changed(ctx: JobContext, path: Path) -> None:
    """Mark the job's file as changed since it was added (``detail["file_changed"]``, the done message)."""
    log.info("%s changed after it was added: reading its new content", path.name)
    ctx.job.detail = {**ctx.job.detail, "file_changed": True}
    await ctx.runtime.store.report_progress(ctx.job.id, 0.0, detail=ctx.job.detail, attempt=ctx.job.attempts)
    ctx.done_message = ctx.text("file_changed")


async def _read(
    ctx: JobContext,
    tracker: ProgressTracker,
    path: Path,
    kind: str | None,
    follow_up: GenerateEstimate | None,
    recognising: Recognising,
) -> ExtractedDocument:
    """The read phase: the file's text from a reader process, pages (PDF) or parts counted on the bar; a PDF's
    page total gives ``follow_up`` its first figure (:func:`_on_page_total`); pages recognised from pictures
    are counted and timed by ``recognising``."""
    pages = kind == "pdf"
    share = _COUNTED_SHARE.get(reader_family(kind) or "", 1.0)
    counter = ctx.counter(
        tracker, "read", "reading_page" if pages else "reading_part", PAGES if pages else PARTS, every=0.02, share=share
    )
    counter = recognising.wrap(ctx, counter, share=share)
    if pages and follow_up is not None:
        counter = _on_page_total(ctx, tracker, follow_up, counter)
    language = ctx.job.params.get("language")
    reading = ctx.in_thread(
        read_isolated,
        path,
        on_progress=counter,
        stop_event=ctx.stop_event,
        on_recognising=recognising.note,
        language=language if isinstance(language, str) and language else None,
    )
    extracted: ExtractedDocument = await tracker.run(
        "read", reading, stop_event=ctx.stop_event, message=ctx.text("reading")
    )
    return extracted


async def _queue_guide(ctx: JobContext, path: Path, document_id: uuid.UUID, follow_up: GenerateEstimate | None) -> None:
    """Enqueue the document's ``generate`` job (its id derived from this job's) and send its message."""
    generate = await queue_guide(
        ctx.runtime.store,
        ctx.job.id,
        job_id=generate_job_id_for(ctx.job.id),
        title=ctx.job.title or path.name,
        params=_guide_params(ctx, document_id),
        detail={
            "document_id": str(document_id),
            "ingest_job_id": str(ctx.job.id),
            EXPECTED_SECONDS: _expected(follow_up),
        },
    )
    try:
        ctx.runtime.send("generate", generate.id)
    except Exception:  # the broker is unreachable: the row is queued, and the sweep sends its message later
        log.warning("could not send generate job %s to the broker; the sweep will", generate.id, exc_info=True)


def _expected(estimate: GenerateEstimate | None) -> float | None:
    """The follow-up job's expected seconds, rounded; ``None`` without a basis."""
    seconds = estimate.expected_seconds() if estimate is not None else None
    return None if seconds is None else round(seconds, 1)


def _on_page_total(
    ctx: JobContext, tracker: ProgressTracker, follow_up: GenerateEstimate, counter: Callable[[int, int], None]
) -> Callable[[int, int], None]:
    """``counter``, and at the reader's first count of a PDF (its page total) the follow-up's expected seconds
    from the text those pages will give (:func:`_expected_chars`). Until then the follow-up has no figure (the
    screen says "estimating…"): a PDF's size says little about its text (fonts and images), its pages do."""
    told = threading.Event()

    def pages_known(total: int) -> None:
        follow_up.prepare(chars=_expected_chars(None, "pdf", pages=total))
        tracker.note(**{FOLLOW_UP_SECONDS: _expected(follow_up)})

    def report(done: int, total: int) -> None:
        if total > 0 and not told.is_set():
            told.set()
            ctx.loop.call_soon_threadsafe(pages_known, total)
        counter(done, total)

    return report


def _expected_chars(path: Path | None, kind: str | None, *, pages: int | None = None) -> int | None:
    """The text a file will give, guessed before reading it (``None`` when there is no guess).

    A PDF with its page count known: 1,900 characters a page (the calibration's PDFs gave 690–2,440, median
    1,914). Otherwise from the file's size: plain text formats give about one character per byte; a PDF of our
    corpus gave 0.12–0.55 characters per byte (median 0.27, ``resources/plans/ingest.json``), a small PDF far less
    (its fonts weigh more than its text): good enough to size the reading bar, not to estimate the guide.
    """
    if kind == "pdf" and pages:
        return pages * _PDF_CHARS_PER_PAGE
    if path is None:
        return None
    ratio = 1.0 if kind in _PLAIN_FORMATS else _PDF_CHARS_PER_BYTE if kind == "pdf" else None
    if ratio is None:
        return None
    try:
        return round(path.stat().st_size * ratio)
    except OSError:
        return None


async def _save(ctx: JobContext, path: Path, extracted: ExtractedDocument, text: str, wants_guide: bool) -> uuid.UUID:
    document_id = document_id_for(ctx.job.id)
    async with ctx.runtime.store.db.get_session_context() as session:
        document = await session.get(Document, document_id)
        if document is None:
            document = Document(id=document_id)
            session.add(document)
        document.source_name = path.name
        document.source_path = str(path)
        document.size_bytes = extracted.size_bytes
        document.content_hash = extracted.sha256
        document.format = extracted.format
        document.language = extracted.language
        document.page_count = extracted.page_count
        document.char_count = len(text)
        document.text = text
        document.structure = extracted.structure
        DOCUMENT_STAGES.mark(document, "extract", StageStatus.DONE, result=str(len(text)))
        if wants_guide:
            for stage in ("outline", "write"):
                DOCUMENT_STAGES.mark(document, stage, StageStatus.PENDING)
    return document_id


def _guide_params(ctx: JobContext, document_id: uuid.UUID) -> dict[str, str]:
    """The ``generate`` job's parameters: the document, and the guide's language when the user picked one."""
    params = {"document_id": str(document_id)}
    language = ctx.job.params.get("language")
    if isinstance(language, str) and language:
        params["language"] = language
    return params

"""The worker daemon end to end, embedded mode: real daemon processes, real documents, the tiny real model."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import uuid
from pathlib import Path

from sqlalchemy import func, select

from core.app.documents.job_ids import generate_job_id_for
from core.app.exit_codes import EXIT_ALREADY_RUNNING
from core.app.messages.sentences import message, render
from core.app.storage.database import make_app_store, open_app_database
from core.app.storage.schema import Document, StudyGuide
from core.stored_messages import decode
from tests.daemon.worker.faults import PORTUGUESE, add, cancel
from tests.daemon.worker.workerhome import DaemonHome, run
from tests.waiting import wait_until


async def _snapshot(home: DaemonHome) -> dict:
    db = await open_app_database(f"sqlite+aiosqlite:///{home.data_dir / 'studyjobs.db'}")
    try:
        store = make_app_store(db)
        jobs = await store.list_recent(limit=200)
        async with db.get_session_context() as session:
            guides = (await session.scalars(select(StudyGuide))).all()
            documents = (await session.scalars(select(Document))).all()
            guide_count = await session.scalar(select(func.count()).select_from(StudyGuide))
        return {"jobs": {j.id: j for j in jobs}, "guides": guides, "documents": documents, "guide_count": guide_count}
    finally:
        await db.dispose()


def snapshot(home: DaemonHome) -> dict:
    return run(_snapshot(home))


def wait_ended(home: DaemonHome, job_ids: list[uuid.UUID], timeout: float = 120) -> dict:
    def ended() -> dict | None:
        state = snapshot(home)
        jobs = state["jobs"]
        if all(j in jobs and jobs[j].status in ("done", "failed", "cancelled") for j in job_ids):
            return state
        return None

    return wait_until(ended, timeout=timeout, interval=0.2, what=f"jobs {job_ids} to end")  # type: ignore[return-value]


def start_long_generate(
    home: DaemonHome, tmp_path: Path, *, repeat: int, n_threads: int | None = None
) -> tuple[subprocess.Popen[str], uuid.UUID]:
    """Start a daemon, add a document of ``repeat`` paragraphs and wait until its generate job runs."""
    if n_threads is not None:
        home.settings["model"]["n_threads"] = n_threads
        home.write_settings()
    source = tmp_path / "longo.txt"
    source.write_text("\n\n".join([PORTUGUESE] * repeat), encoding="utf-8")
    daemon = home.start()
    (ingest,) = add(home, source)
    generate = generate_job_id_for(ingest)
    wait_until(
        lambda: (j := snapshot(home)["jobs"].get(generate)) is not None and j.status == "running",
        what="generate",
        timeout=60.0,
    )
    return daemon, generate


def test_a_text_document_becomes_a_study_guide_through_both_jobs(home: DaemonHome, tmp_path: Path):
    source = tmp_path / "fotossintese.txt"
    source.write_text(PORTUGUESE, encoding="utf-8")
    home.start()
    (ingest,) = add(home, source)
    generate = generate_job_id_for(ingest)
    state = wait_ended(home, [ingest, generate])
    ingest_job, generate_job = state["jobs"][ingest], state["jobs"][generate]
    assert (ingest_job.status, generate_job.status) == ("done", "done"), (ingest_job.error, generate_job.error)
    assert (ingest_job.parent_id, generate_job.parent_id) == (None, ingest)  # one document: the root and its child
    assert [p["name"] for p in ingest_job.phases] == ["read", "clean", "save"]
    assert [p["name"] for p in generate_job.phases] == ["load_model", "outline", "sections", "export"]
    assert all(p.get("finished_at") for p in generate_job.phases)
    (document,) = state["documents"]
    assert document.language == "pt" and document.status_extract == "done" and document.status_write == "done"
    (guide,) = state["guides"]
    assert guide.job_id == generate and generate_job.result_id == guide.id
    markdown = Path(guide.path).read_text(encoding="utf-8")
    assert markdown.startswith("# fotossintese") and "## " in markdown


def test_extraction_only_makes_no_study_guide(home: DaemonHome, tmp_path: Path):
    source = tmp_path / "notes.md"
    source.write_text("# Notes\n\nPhotosynthesis turns light into chemical energy in plants.\n", encoding="utf-8")
    home.start()
    (ingest,) = add(home, source, only_extract=True)
    state = wait_ended(home, [ingest])
    assert state["jobs"][ingest].status == "done"
    assert generate_job_id_for(ingest) not in state["jobs"]
    assert state["guide_count"] == 0


def test_bad_files_fail_with_a_plain_message_and_no_retry_and_a_good_file_still_succeeds(
    home: DaemonHome, tmp_path: Path
):
    empty = tmp_path / "vazio.pdf"
    empty.write_bytes(b"")
    fake = tmp_path / "falso.pdf"
    fake.write_text("isto não é um PDF", encoding="utf-8")
    broken = tmp_path / "quebrado.docx"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    good = tmp_path / "bom.txt"
    good.write_text(PORTUGUESE, encoding="utf-8")
    daemon = home.start()
    bad_ids = add(home, empty, fake, broken)
    (good_id,) = add(home, good, only_extract=True)
    state = wait_ended(home, [*bad_ids, good_id])
    for job_id in bad_ids:
        job = state["jobs"][job_id]
        assert job.status == "failed" and job.attempts == 1 and not job.error_transient
        shown = render(job.error, "pt_BR")
        assert decode(job.error) is not None and "Traceback" not in shown and len(shown) < 300
    assert state["jobs"][good_id].status == "done"
    assert daemon.poll() is None, "the daemon died"


def test_a_second_daemon_on_the_same_data_folder_exits_with_a_message(home: DaemonHome):
    first = home.start()
    wait_until(
        lambda: json.loads(home.cli("workers", "--json").stdout or "[]"), what="the first worker row", timeout=60.0
    )
    second = home.start()
    assert second.wait(30) == EXIT_ALREADY_RUNNING
    assert "already running" in (second.stdout.read() if second.stdout else "")
    quiet = home.start("--autostart")
    assert quiet.wait(30) == 0
    assert first.poll() is None


def test_sigterm_hands_the_running_job_back_and_exits_within_ten_seconds(home: DaemonHome, tmp_path: Path):
    daemon, generate = start_long_generate(home, tmp_path, repeat=300, n_threads=1)
    started = time.monotonic()
    daemon.send_signal(signal.SIGTERM)
    assert daemon.wait(15) == 0
    assert time.monotonic() - started < 10
    job = snapshot(home)["jobs"][generate]
    assert (job.status, job.attempts) == ("queued", 0)
    assert json.loads(home.cli("workers", "--json").stdout) == []


def test_sigterm_leaves_every_job_waiting_behind_the_running_one_queued_for_the_next_daemon_at_once(
    home: DaemonHome, tmp_path: Path
):
    daemon, generate = start_long_generate(home, tmp_path, repeat=300, n_threads=1)
    notes = []
    for i in range(40):  # one worker thread: they wait behind the guide, and the daemon holds up to 32 of them
        notes.append(tmp_path / f"nota-{i}.txt")
        notes[-1].write_text(f"Nota {i}: a fotossíntese transforma luz em energia química.", encoding="utf-8")
    waiting = add(home, *notes, only_extract=True)

    daemon.send_signal(signal.SIGTERM)
    assert daemon.wait(15) == 0

    jobs = snapshot(home)["jobs"]
    assert {jobs[j].status for j in [generate, *waiting]} == {"queued"}
    assert {jobs[j].attempts for j in [generate, *waiting]} == {0}
    cancel(home, generate)  # the notes need not wait for the guide again
    started = time.monotonic()
    home.start()
    state = wait_ended(home, waiting)
    assert {(state["jobs"][j].status, state["jobs"][j].attempts) for j in waiting} == {("done", 1)}
    assert time.monotonic() - started < 60, "no job waits for a lease to expire or for a sweep"


def test_kill_9_mid_job_and_a_new_daemon_finishes_it_once_without_waiting_for_the_lease(
    home: DaemonHome, tmp_path: Path
):
    home.settings["stale_after"] = 600.0  # only knowing that the process is gone can bring the job back in time
    home.write_settings()
    daemon, generate = start_long_generate(home, tmp_path, repeat=80)
    os.kill(daemon.pid, signal.SIGKILL)
    daemon.wait(10)
    home.start()

    def second_attempt():
        job = snapshot(home)["jobs"][generate]
        return job if job.attempts == 2 else None

    again = wait_until(second_attempt, timeout=45, what="the second attempt")  # the lease alone: 10 minutes
    assert decode(again.error).code == "worker_crashed"  # type: ignore[attr-defined,union-attr]
    assert render(again.error, "pt_BR") == message("worker_crashed", "pt_BR")  # type: ignore[attr-defined]
    state = wait_ended(home, [generate], timeout=180)
    job = state["jobs"][generate]
    assert job.status == "done" and job.attempts == 2
    assert state["guide_count"] == 1


def test_cancel_during_generation_stops_it_and_the_next_job_runs(home: DaemonHome, tmp_path: Path):
    source = tmp_path / "longo.txt"
    source.write_text("\n\n".join([PORTUGUESE] * 300), encoding="utf-8")
    nxt = tmp_path / "curto.txt"
    nxt.write_text(PORTUGUESE, encoding="utf-8")
    home.start()
    (ingest,) = add(home, source)
    generate = generate_job_id_for(ingest)
    wait_until(
        lambda: (j := snapshot(home)["jobs"].get(generate)) is not None and j.stage in ("outline", "sections"),
        what="the model phases",
        timeout=60.0,
    )
    assert home.cli("cancel", str(generate)).returncode == 0
    (second,) = add(home, nxt, only_extract=True)
    state = wait_ended(home, [generate, second])
    assert state["jobs"][generate].status == "cancelled"
    assert state["jobs"][second].status == "done"
    assert state["guide_count"] == 0


def test_add_refuses_missing_and_unsupported_files_and_names_a_fifo_a_device_or_a_folder_before_making_any_job(
    home: DaemonHome, tmp_path: Path
):
    picture = tmp_path / "foto.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n")
    good = tmp_path / "bom.txt"
    good.write_text(PORTUGUESE, encoding="utf-8")
    refused = home.cli("add", "--no-start", str(good), str(picture), str(tmp_path / "sumiu.pdf"))
    assert refused.returncode == 2
    assert "foto.png" in refused.stderr and "sumiu.pdf" in refused.stderr
    os.mkfifo(fifo := tmp_path / "cano.txt")
    (folder := tmp_path / "pasta.pdf").mkdir()
    odd = home.cli("add", "--no-start", str(fifo), "/dev/null", str(folder), timeout=30)
    assert odd.returncode == 2
    assert odd.stderr.splitlines() == [  # the settings' language is pt_BR
        message("add_pipe", "pt_BR", path=str(fifo)),
        message("add_device", "pt_BR", path="/dev/null"),
        message("add_folder", "pt_BR", path=str(folder)),
    ]
    assert json.loads(home.cli("list", "--json").stdout) == []


def test_add_wait_follows_the_document_as_one_bar_over_both_jobs_and_exits_zero(home: DaemonHome, tmp_path: Path):
    source = tmp_path / "fotossintese.txt"
    source.write_text(PORTUGUESE, encoding="utf-8")
    home.start()
    done = home.cli("add", "--no-start", "--wait", str(source), timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    assert '{"code"' not in done.stdout  # messages are shown as sentences, never as their stored codes
    lines = done.stdout.splitlines()
    document = uuid.UUID(lines[0])
    heads = [line for line in lines if line.startswith("fotossintese.txt — ")]
    assert heads and all(h.startswith("fotossintese.txt — study guide: ") for h in heads), heads
    assert "running" in " ".join(heads) and "done" in heads[-1] and "100.0%" in heads[-1]
    percents = [float(h.split("] ")[1].split("%")[0]) for h in heads]
    assert percents == sorted(percents), percents  # one bar that only moves forward, across both jobs
    last_phases = lines[lines.index(heads[-1]) + 1 : lines.index(heads[-1]) + 8]
    assert [p.split()[0] for p in last_phases] == [
        "read",
        "clean",
        "save",
        "load_model",
        "outline",
        "sections",
        "export",
    ]
    assert all(p.endswith("100.0%  done") for p in last_phases), last_phases
    assert lines[-1] == f"Study guide written: see `studyjobs show {document}`"
    shown = home.cli("show", str(document))
    assert shown.returncode == 0 and shown.stdout.count("part ") == 2 and "phase generate  sections" in shown.stdout


def test_add_wait_says_why_a_document_failed_in_the_language_of_the_settings(home: DaemonHome, tmp_path: Path):
    fake = tmp_path / "falso.pdf"
    fake.write_text("isto não é um PDF", encoding="utf-8")
    home.start()
    failed = home.cli("add", "--no-start", "--wait", "--only-extract", str(fake), timeout=120)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert message("not_a_pdf", "pt_BR") in failed.stdout and '{"code"' not in failed.stdout
    home.settings["language"] = "en"
    home.write_settings()
    (shown,) = json.loads(home.cli("list", "--json").stdout)
    assert (shown["error"], shown["error_code"]) == (message("not_a_pdf", "en"), "not_a_pdf")

"""The ``studyjobs`` command line over the store: real processes, a real data folder."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from core.app.settings.config import load_settings
from core.app.storage.database import make_app_store, open_app_database


def studyjobs(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "STUDYJOBS_DATA_DIR": str(data_dir)}
    env.pop("STUDYJOBS_DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-m", "daemon.cli.documents", *args], env=env, capture_output=True, text=True, timeout=120
    )


async def _documents(data_dir: Path) -> tuple[uuid.UUID, uuid.UUID, uuid.UUID]:
    """A document writing its guide (ingest done, generate running) and one whose reading failed."""
    settings = load_settings(env={"STUDYJOBS_DATA_DIR": str(data_dir)})
    db = await open_app_database(settings.database_url)
    try:
        store = make_app_store(db)
        ingest = await store.enqueue("ingest", title="Apostila.pdf", params={"path": "/docs/Apostila.pdf"})
        claimed = await store.claim(ingest.id)
        read = [{"name": "read", "start": 0.0, "end": 1.0, "seconds": 2.0}]
        await store.report_progress(ingest.id, 1.0, stage="read", phases=read, detail={"follow_up_seconds": 6.0})
        generate = await store.enqueue("generate", title="Apostila.pdf", columns={"parent_id": ingest.id})
        await store.succeed(ingest.id, attempt=claimed.attempts)
        running = await store.claim(generate.id)
        write = [{"name": "outline", "start": 0.0, "end": 0.5, "seconds": 3.0},
                 {"name": "sections", "start": 0.5, "end": 1.0, "seconds": 3.0}]  # fmt: skip
        await store.report_progress(
            generate.id, 0.6, stage="sections", phases=write, message="Escrevendo a seção 1 de 5…",
            attempt=running.attempts,
        )  # fmt: skip
        failed = await store.enqueue("ingest", title="Notas.docx", params={"path": "/docs/Notas.docx"})
        got = await store.claim(failed.id)
        await store.fail(failed.id, "O arquivo está danificado.", attempt=got.attempts)
        return ingest.id, generate.id, failed.id
    finally:
        await db.dispose()


def test_status_creates_the_database_in_the_data_folder_and_reports_it(tmp_path: Path):
    done = studyjobs(tmp_path, "status", "--json")
    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout)
    assert info["jobs"] == {"queued": 0, "running": 0, "done": 0, "failed": 0, "cancelled": 0}
    assert (tmp_path / "studyjobs.db").exists()


def test_list_show_cancel_and_retry_speak_of_documents_one_line_each(tmp_path: Path):
    document, generate, failed = asyncio.run(_documents(tmp_path))
    listed = json.loads(studyjobs(tmp_path, "--json", "list").stdout)
    assert [(d["id"], d["kind"], d["status"]) for d in listed] == [
        (str(failed), "study_guide", "failed"),
        (str(document), "study_guide", "running"),
    ]
    assert listed[1]["progress"] == pytest.approx(0.25 + 0.6 * 0.75)  # reading is 2 s of 8, writing 60 % done
    human = studyjobs(tmp_path, "list").stdout.splitlines()
    assert len(human) == 2
    assert "Notas.docx" in human[0] and "O arquivo está danificado." in human[0]
    assert "Apostila.pdf" in human[1] and "study guide" in human[1] and "Escrevendo a seção 1 de 5…" in human[1]
    shown = studyjobs(tmp_path, "show", str(document)).stdout
    assert shown.count("\npart ") == 2 and str(generate) in shown
    phases = [line.split()[1:4] for line in shown.splitlines() if line.startswith("  phase ")]
    assert phases == [["ingest", "read", "done"], ["generate", "outline", "done"], ["generate", "sections", "running"]]
    assert studyjobs(tmp_path, "cancel", str(document)).returncode == 0
    after = json.loads(studyjobs(tmp_path, "show", str(document), "--json").stdout)
    assert after["status"] == "cancelled"
    assert [p["status"] for p in after["parts"]] == ["done", "cancelled"]  # the part that ran was stopped
    again = studyjobs(tmp_path, "cancel", str(document))
    assert again.returncode == 1 and "Nothing to cancel" in again.stderr
    assert studyjobs(tmp_path, "retry", str(document)).returncode == 0
    assert [p["status"] for p in json.loads(studyjobs(tmp_path, "show", str(document), "--json").stdout)["parts"]] == [
        "done",
        "queued",
    ]
    assert studyjobs(tmp_path, "retry", str(failed)).returncode == 0
    assert json.loads(studyjobs(tmp_path, "show", str(failed), "--json").stdout)["status"] == "queued"


def test_a_document_and_each_of_its_parts_show_state_message_and_times_with_the_same_fields(tmp_path: Path):
    document, generate, failed = asyncio.run(_documents(tmp_path))
    shared = ["status", "stage", "progress", "message", "message_code", "message_values", "error", "error_code",
              "error_values", "counters", "attempts", "max_attempts", "run_after", "created_at", "started_at",
              "finished_at", "eta_seconds"]  # fmt: skip
    running = json.loads(studyjobs(tmp_path, "show", str(document), "--json").stdout)
    broken = json.loads(studyjobs(tmp_path, "show", str(failed), "--json").stdout)
    for shown in (running, *running["parts"], broken, *broken["parts"]):
        keys = list(shown)
        assert keys[keys.index("status") : keys.index("eta_seconds") + 1] == shared, shown["id"]
    writing = running["parts"][1]
    assert writing["id"] == str(generate) and writing["message"] == running["message"] == "Escrevendo a seção 1 de 5…"
    assert (writing["status"], writing["attempts"]) == (running["status"], running["attempts"]) == ("running", 1)
    assert broken["error"] == broken["parts"][0]["error"] == "O arquivo está danificado."
    assert broken["parts"][0]["finished_at"] is not None and broken["finished_at"] is not None


def test_an_unknown_job_and_bad_settings_give_clear_errors_and_exit_codes(tmp_path: Path):
    missing = studyjobs(tmp_path, "show", str(uuid.uuid4()))
    assert missing.returncode == 1 and "No job with id" in missing.stderr
    (tmp_path / "settings.toml").write_text('database_url = "mysql://x/y"\n', encoding="utf-8")
    bad = studyjobs(tmp_path, "status")
    assert bad.returncode == 2 and "database_url" in bad.stderr


def test_a_console_that_cannot_show_a_title_gets_it_replaced_instead_of_a_crash(tmp_path: Path):
    """A Windows console or pipe in cp1252 has no Greek or CJK letters and no bar blocks: the command still works."""

    async def seed() -> None:
        db = await open_app_database(load_settings(env={"STUDYJOBS_DATA_DIR": str(tmp_path)}).database_url)
        try:
            await make_app_store(db).enqueue("ingest", title="Ωμέγα 学习.pdf", params={"path": "/docs/o.pdf"})
        finally:
            await db.dispose()

    asyncio.run(seed())
    env = {**os.environ, "STUDYJOBS_DATA_DIR": str(tmp_path), "PYTHONIOENCODING": "cp1252"}
    env.pop("STUDYJOBS_DATABASE_URL", None)
    shown = subprocess.run(
        [sys.executable, "-m", "daemon.cli.documents", "list"], env=env, capture_output=True, timeout=120, check=False
    )
    assert shown.returncode == 0, shown.stderr.decode("cp1252", "replace")
    assert b"?????" in shown.stdout and b"Traceback" not in shown.stderr

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

from core.appdb import open_app_database
from core.config import load_settings
from core.schema import Job
from core.store import JobStore


def studyjobs(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "STUDYJOBS_DATA_DIR": str(data_dir)}
    env.pop("STUDYJOBS_DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-m", "core.cli", *args], env=env, capture_output=True, text=True, timeout=120
    )


async def _enqueue(data_dir: Path) -> tuple[uuid.UUID, uuid.UUID]:
    settings = load_settings(env={"STUDYJOBS_DATA_DIR": str(data_dir)})
    db = await open_app_database(settings.database_url)
    try:
        store = JobStore(db, model=Job)
        running = await store.enqueue("ingest", title="Apostila.pdf")
        await store.claim(running.id)
        await store.report_progress(running.id, 0.3, stage="read", message="Lendo página 3 de 10…")
        failed = await store.enqueue("generate", title="Notas.docx")
        await store.claim(failed.id)
        await store.fail(failed.id, "O modelo não foi encontrado.")
        return running.id, failed.id
    finally:
        await db.dispose()


def test_status_creates_the_database_in_the_data_folder_and_reports_it(tmp_path: Path):
    done = studyjobs(tmp_path, "status", "--json")
    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout)
    assert info["jobs"] == {"queued": 0, "running": 0, "done": 0, "failed": 0, "cancelled": 0}
    assert (tmp_path / "studyjobs.db").exists()


def test_list_show_cancel_and_retry_work_on_real_jobs(tmp_path: Path):
    running, failed = asyncio.run(_enqueue(tmp_path))
    listed = json.loads(studyjobs(tmp_path, "--json", "list").stdout)
    assert [j["id"] for j in listed] == [str(failed), str(running)]
    shown = json.loads(studyjobs(tmp_path, "show", str(running), "--json").stdout)
    assert shown["message"] == "Lendo página 3 de 10…" and shown["progress"] == pytest.approx(0.3)
    human = studyjobs(tmp_path, "list").stdout
    assert "O modelo não foi encontrado." in human and "Apostila.pdf" in human
    assert studyjobs(tmp_path, "cancel", str(running)).returncode == 0
    again = studyjobs(tmp_path, "cancel", str(running))
    assert again.returncode == 1 and "Nothing to cancel" in again.stderr
    assert studyjobs(tmp_path, "retry", str(failed)).returncode == 0
    assert json.loads(studyjobs(tmp_path, "show", str(failed), "--json").stdout)["status"] == "queued"


def test_an_unknown_job_and_bad_settings_give_clear_errors_and_exit_codes(tmp_path: Path):
    missing = studyjobs(tmp_path, "show", str(uuid.uuid4()))
    assert missing.returncode == 1 and "No job with id" in missing.stderr
    (tmp_path / "settings.toml").write_text('database_url = "mysql://x/y"\n', encoding="utf-8")
    bad = studyjobs(tmp_path, "status")
    assert bad.returncode == 2 and "database_url" in bad.stderr

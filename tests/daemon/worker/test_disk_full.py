"""A disk that really fills (a tmpfs of a few MB): under the output folder while a guide is written, under the
database while a document is saved. The job fails with a plain message, nothing half-written is left, the database
stays whole and the worker keeps running: once space is freed, the next job succeeds."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from core.app.documents.job_ids import document_id_for, generate_job_id_for
from core.app.messages.sentences import render
from core.stored_messages import encode
from tests.daemon.worker.faults import PORTUGUESE, add, state, wait_ended, write_documents
from tests.daemon.worker.smalldisk import fill, free_bytes, small_disk
from tests.daemon.worker.workerhome import DaemonHome
from tests.waiting import wait_until

FAST = {"STUDYJOBS_BACKOFF": "0.5,0.5", "STUDYJOBS_REDISPATCH_AFTER": "2"}


def _worker_up(home: DaemonHome) -> None:
    wait_until(
        lambda: '"alive": true' in home.cli("workers", "--json").stdout, timeout=60, what="the worker to register"
    )


def test_a_full_output_disk_fails_the_guide_plainly_leaves_no_partial_file_and_the_worker_goes_on(
    home: DaemonHome, tmp_path: Path
):
    with small_disk(home.output_dir, 2) as disk:
        filler = fill(disk)
        assert free_bytes(disk) == 0
        daemon = home.start(**FAST)
        (document,) = write_documents(tmp_path / "docs", 1)
        (ingest,) = add(home, document)
        generate = generate_job_id_for(ingest)
        final = wait_ended(home, [ingest, generate], timeout=120)
        row = final.jobs[generate]
        assert (row.status, row.attempts) == ("failed", 1), row.error
        assert row.error == encode("disk_full_output", folder=str(disk))
        assert "está cheio" in render(row.error, "pt_BR") and "is full" in render(row.error, "en")
        assert sorted(p.name for p in disk.iterdir()) == ["filler.bin"]  # no guide, no temporary part
        assert not final.guides_of(generate)
        assert daemon.poll() is None, "the daemon died"

        filler.unlink()
        (again,) = add(home, document)
        final = wait_ended(home, [again, generate_job_id_for(again)], timeout=120)
        assert final.jobs[generate_job_id_for(again)].status == "done"
        assert [p.suffix for p in disk.iterdir()] == [".md"]


def test_a_full_database_disk_fails_the_job_plainly_keeps_the_database_whole_and_the_worker_goes_on(
    home: DaemonHome, tmp_path: Path
):
    with small_disk(tmp_path / "database-disk", 12) as disk:
        database = disk / "studyjobs.db"
        home.settings["database_url"] = f"sqlite+aiosqlite:///{database}"
        home.write_settings()
        daemon = home.start(**FAST)
        _worker_up(home)
        big = tmp_path / "docs" / "grande.txt"
        big.parent.mkdir()
        big.write_text("\n\n".join(f"{i}. {PORTUGUESE}" for i in range(6000)), encoding="utf-8")  # ~4 MB of text
        filler = fill(disk, leave=768 * 1024)
        (ingest,) = add(home, big, only_extract=True)
        final = wait_ended(home, [ingest], timeout=120)
        row = final.jobs[ingest]
        assert (row.status, row.attempts, row.error) == ("failed", 1, encode("disk_full_database"))
        assert "disco" in render(row.error, "pt_BR")
        assert document_id_for(ingest) not in {d.id for d in final.documents}  # the save was rolled back whole
        with contextlib.closing(sqlite3.connect(database)) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert daemon.poll() is None, "the daemon died"

        filler.unlink()
        (small,) = write_documents(tmp_path / "more", 1)
        (after,) = add(home, small, only_extract=True)
        assert wait_ended(home, [after], timeout=120).jobs[after].status == "done"
        assert document_id_for(after) in {d.id for d in state(home).documents}

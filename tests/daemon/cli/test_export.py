"""``studyjobs export ID --format …``: real processes on a real app database with a stored guide, each file read."""

from __future__ import annotations

import asyncio
import csv
import json
import os
import subprocess
import sys
import uuid
import zipfile
from pathlib import Path

import docx
import pypdfium2

from core.app.settings.config import load_settings
from core.app.storage.database import make_app_store, open_app_database
from tests.guideexports import QUESTIONS, TERMS, guide_markdown, store_guide

ROOT = Path(__file__).resolve().parents[3]


def studyjobs(data_dir: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``studyjobs ARGS`` from this source tree (whatever the current folder) on the data folder ``data_dir``."""
    path = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    env = {**os.environ, "STUDYJOBS_DATA_DIR": str(data_dir), "PYTHONPATH": path}
    env.pop("STUDYJOBS_DATABASE_URL", None)
    env.pop("QT_QPA_PLATFORM", None)  # the command starts Qt offscreen itself
    return subprocess.run(
        [sys.executable, "-m", "daemon.cli.main", *args], env=env, capture_output=True, text=True, timeout=300, cwd=cwd
    )


async def _guides(data_dir: Path) -> tuple[uuid.UUID, uuid.UUID]:
    """A document with a finished guide and one whose guide is still being written, in the app's database."""
    settings = load_settings(env={"STUDYJOBS_DATA_DIR": str(data_dir)})
    db = await open_app_database(settings.database_url)
    try:
        store = make_app_store(db)
        finished, _job = await store_guide(store, db, settings.output_dir)
        writing, _job = await store_guide(store, db, settings.output_dir, finished=False, title="Draft")
        return finished, writing
    finally:
        await db.dispose()


def test_export_writes_each_format_from_the_document_id_that_list_shows(tmp_path: Path):
    data, out = tmp_path / "data", tmp_path / "out"
    out.mkdir()
    document, _writing = asyncio.run(_guides(data))
    assert str(document) in studyjobs(data, "list").stdout
    written: dict[str, Path] = {}
    for format_name in ("docx", "pdf", "anki", "csv"):
        done = studyjobs(data, "export", str(document), "--format", format_name, "--output", str(out))
        assert done.returncode == 0, done.stderr
        written[format_name] = Path(done.stdout.strip())
    assert {p.name for p in written.values()} == {f"Photosynthesis.{s}" for s in ("docx", "pdf", "apkg", "csv")}
    word = docx.Document(str(written["docx"]))
    assert {"Light reactions", "Calvin cycle"} <= {p.text for p in word.paragraphs if p.style.name == "Heading 1"}
    assert set(TERMS) <= {r.text for p in word.paragraphs for r in p.runs if r.bold}
    pdf = pypdfium2.PdfDocument(str(written["pdf"]))
    try:
        assert len(pdf) > 0
        text = "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()
    assert "Photosynthesis" in text and "Chlorophyll" in text and "Which enzyme fixes carbon dioxide?" in text
    assert "Sources: pp. 16–18" in text and "**" not in text  # Markdown rendered, not printed
    with zipfile.ZipFile(written["anki"]) as archive:
        assert {"collection.anki2", "media"} <= set(archive.namelist())
    with written["csv"].open(encoding="utf-8-sig", newline="") as file:
        assert len(list(csv.reader(file))) == 1 + len(TERMS) + len(QUESTIONS)


def test_export_defaults_to_markdown_in_the_current_folder_and_takes_a_file_name(tmp_path: Path):
    data, here = tmp_path / "data", tmp_path / "here"
    here.mkdir()
    document, _writing = asyncio.run(_guides(data))
    done = studyjobs(data, "export", str(document), cwd=here)
    assert done.returncode == 0, done.stderr
    assert (here / "Photosynthesis.md").read_text(encoding="utf-8") == guide_markdown()
    named = studyjobs(data, "export", str(document), "--format", "pdf", "--output", str(here / "mine.pdf"), "--json")
    assert named.returncode == 0, named.stderr
    assert json.loads(named.stdout) == {"id": str(document), "format": "pdf", "path": str(here / "mine.pdf")}
    assert (here / "mine.pdf").read_bytes().startswith(b"%PDF")


def test_export_refuses_an_unfinished_guide_an_unknown_id_and_a_folder_that_is_not_there(tmp_path: Path):
    data = tmp_path / "data"
    document, writing = asyncio.run(_guides(data))
    unfinished = studyjobs(data, "export", str(writing), "--output", str(tmp_path))
    assert unfinished.returncode == 1 and "still being written" in unfinished.stderr
    unknown = studyjobs(data, "export", str(uuid.uuid4()))
    assert unknown.returncode == 1 and "No job with id" in unknown.stderr
    for format_name in ("docx", "pdf"):
        nowhere = studyjobs(
            data, "export", str(document), "--format", format_name, "--output", str(tmp_path / "no" / "g.x")
        )
        assert nowhere.returncode == 1 and "could not be written" in nowhere.stderr
    assert studyjobs(data, "export", str(document), "--format", "odt").returncode == 2


def test_export_takes_o_for_output_and_makes_files_with_the_users_normal_permissions(tmp_path: Path):
    data = tmp_path / "data"
    document, _writing = asyncio.run(_guides(data))
    old = os.umask(0o027)
    try:
        done = studyjobs(data, "export", str(document), "--format", "csv", "-o", str(tmp_path / "cards.csv"))
    finally:
        os.umask(old)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "cards.csv").stat().st_mode & 0o777 == 0o640, "0o666 less the umask, as any file the user makes"

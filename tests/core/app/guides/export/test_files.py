"""A finished guide, as stored, written as Markdown, Word, an Anki deck and CSV — each file opened and read back."""

from __future__ import annotations

import csv
import json
import sqlite3
import zipfile
from collections.abc import AsyncIterator
from pathlib import Path

import docx
import pytest

from core.app.guides.export.service import default_file_name, load_export, write_export
from core.app.guides.export.table import COLUMNS
from core.app.storage.database import make_app_store, open_app_database
from core.db import AsyncDatabaseManager
from tests.guideexports import QUESTIONS, SECTIONS, TERMS, guide_markdown, store_guide


@pytest.fixture
async def app_db(database_url: str) -> AsyncIterator[AsyncDatabaseManager]:
    db = await open_app_database(database_url)
    try:
        yield db
    finally:
        await db.dispose()


def anki_notes(path: Path, folder: Path) -> tuple[list[tuple[int, str, list[str], str]], dict[str, str]]:
    """The notes of an ``.apkg`` (id, guid, fields, tags) and its decks (id → name), read with sqlite3."""
    with zipfile.ZipFile(path) as archive:
        name = next(n for n in ("collection.anki21", "collection.anki2") if n in archive.namelist())
        archive.extract(name, folder)
    connection = sqlite3.connect(folder / name)
    try:
        rows = connection.execute("SELECT id, guid, flds, tags FROM notes ORDER BY id")
        notes = [(i, g, f.split("\x1f"), t.strip()) for i, g, f, t in rows]
        decks = json.loads(connection.execute("SELECT decks FROM col").fetchone()[0])
    finally:
        connection.close()
    return notes, {key: value["name"] for key, value in decks.items()}


async def test_a_stored_guide_is_found_by_its_document_id_and_by_its_guide_job_id(app_db, tmp_path):
    document, guide_job = await store_guide(make_app_store(app_db), app_db, tmp_path)
    by_document = await load_export(app_db, document)
    by_guide = await load_export(app_db, guide_job)
    assert by_document == by_guide
    assert by_document is not None and by_document.complete
    assert by_document.markdown == guide_markdown() and by_document.title == "Photosynthesis"
    assert (by_document.document_key, by_document.guide_key) == (str(document), str(guide_job))
    unfinished, _job = await store_guide(make_app_store(app_db), app_db, tmp_path, finished=False, title="Draft")
    draft = await load_export(app_db, unfinished)
    assert draft is not None and not draft.complete and "## Light reactions" in draft.markdown


async def test_the_word_file_has_the_guide_s_headings_lists_bold_terms_and_sources(app_db, tmp_path):
    document, _job = await store_guide(make_app_store(app_db), app_db, tmp_path)
    guide = await load_export(app_db, document)
    assert guide is not None
    path = tmp_path / default_file_name(guide.title, "docx")
    write_export(guide, "docx", path)
    word = docx.Document(str(path))
    styled = [(p.style.name, p.text) for p in word.paragraphs]
    assert ("Title", "Photosynthesis") in styled
    assert [t for s, t in styled if s == "Heading 1"] == ["Light reactions", "Calvin cycle", "Glossary", "Coverage"]
    assert [t for s, t in styled if s == "Heading 2"] == ["Key terms", "Review questions"] * 2
    assert ("List Bullet", "Chlorophyll: the green pigment that absorbs light (p. 12).") in styled
    assert ("List Number", "Q: What does chlorophyll absorb?\nA: Mostly red and blue light. (p. 12)") in styled
    assert ("Normal", "Sources: p. 12–15") in styled and ("Quote", next(t for s, t in styled if s == "Quote")) in styled
    bold = {r.text for p in word.paragraphs for r in p.runs if r.bold}
    assert set(TERMS) <= bold
    assert any(r.italic and r.text == "Sources: p. 12–15" for p in word.paragraphs for r in p.runs)
    table = word.tables[0]
    assert [c.text for c in table.rows[0].cells] == ["Pages", "Section", "Note"] and len(table.rows) == 4
    assert word.core_properties.title == "Photosynthesis"


async def test_the_anki_deck_holds_a_note_per_term_and_question_and_a_new_export_keeps_their_ids(app_db, tmp_path):
    document, _job = await store_guide(make_app_store(app_db), app_db, tmp_path)
    guide = await load_export(app_db, document)
    assert guide is not None
    first, second = tmp_path / "first.apkg", tmp_path / "second.apkg"
    write_export(guide, "anki", first)
    write_export(guide, "anki", second)
    notes, decks = anki_notes(first, tmp_path / "a")
    again, decks_again = anki_notes(second, tmp_path / "b")
    assert len(notes) == len(TERMS) + len(QUESTIONS)
    assert sorted(f[0] for _i, _g, f, t in notes if t == "term") == sorted(TERMS)
    assert sorted(f[0] for _i, _g, f, t in notes if t == "question") == sorted(QUESTIONS)
    fields = {f[0]: f for _i, _g, f, _t in notes}
    assert fields["Where do the light reactions happen?"] == [
        "Where do the light reactions happen?", "In the thylakoid membranes.", "13", "Light reactions",
    ]  # fmt: skip
    assert fields["RuBisCO"][2:] == ["16–18", "Calvin cycle"]
    # a re-import updates the same notes: the same ids and guids for the same cards
    assert {(i, g, f[0]) for i, g, f, _t in notes} == {(i, g, f[0]) for i, g, f, _t in again}
    assert len({g for _i, g, _f, _t in notes}) == len({i for i, _g, _f, _t in notes}) == len(notes)
    assert decks == decks_again and "Photosynthesis" in decks.values()
    other_document, _other = await store_guide(make_app_store(app_db), app_db, tmp_path / "other")
    other = await load_export(app_db, other_document)
    assert other is not None
    write_export(other, "anki", tmp_path / "other.apkg")
    other_notes, other_decks = anki_notes(tmp_path / "other.apkg", tmp_path / "c")
    assert not {g for _i, g, _f, _t in notes} & {g for _i, g, _f, _t in other_notes}  # another document
    assert not {i for i, _g, _f, _t in notes} & {i for i, _g, _f, _t in other_notes}
    assert set(other_decks) - {"1"} != set(decks) - {"1"}  # another document: another deck (1 is Anki's default)


async def test_a_guide_written_again_updates_the_notes_of_its_unchanged_cards(app_db, tmp_path):
    store = make_app_store(app_db)
    document, _first = await store_guide(store, app_db, tmp_path)
    light, calvin = SECTIONS
    rewritten = (calvin[0], calvin[1].replace("Which enzyme fixes carbon dioxide?", "What does RuBisCO do?"))
    _same, second = await store_guide(store, app_db, tmp_path, root_id=document, sections=[light, rewritten])
    newest = await load_export(app_db, document)
    assert newest is not None and newest.guide_key == str(second)  # the newest finished guide is exported
    before, after = await load_export(app_db, _first), newest
    assert before is not None
    write_export(before, "anki", tmp_path / "before.apkg")
    write_export(after, "anki", tmp_path / "after.apkg")
    old, old_decks = anki_notes(tmp_path / "before.apkg", tmp_path / "a")
    new, new_decks = anki_notes(tmp_path / "after.apkg", tmp_path / "b")
    old_ids = {f[0]: (i, g) for i, g, f, _t in old}
    new_ids = {f[0]: (i, g) for i, g, f, _t in new}
    assert old_decks == new_decks
    assert {front for front in new_ids if new_ids[front] == old_ids.get(front)} == set(new_ids) - {
        "What does RuBisCO do?"
    }
    assert new_ids["What does RuBisCO do?"] not in old_ids.values()


async def test_the_csv_has_a_row_per_term_and_question_with_page_and_section(app_db, tmp_path):
    document, _job = await store_guide(make_app_store(app_db), app_db, tmp_path)
    guide = await load_export(app_db, document)
    assert guide is not None
    path = tmp_path / "cards.csv"
    write_export(guide, "csv", path)
    with path.open(encoding="utf-8-sig", newline="") as file:
        rows = list(csv.reader(file))
    assert tuple(rows[0]) == COLUMNS
    assert rows[1] == ["term", "Chlorophyll", "the green pigment that absorbs light.", "12", "Light reactions"]
    assert [r[1] for r in rows[1:] if r[0] == "question"] == QUESTIONS
    assert len(rows) == 1 + len(TERMS) + len(QUESTIONS)


async def test_markdown_is_the_stored_guide_and_a_failed_write_leaves_no_file(app_db, tmp_path):
    document, _job = await store_guide(make_app_store(app_db), app_db, tmp_path)
    guide = await load_export(app_db, document)
    assert guide is not None
    write_export(guide, "md", tmp_path / "guide.md")
    assert (tmp_path / "guide.md").read_text(encoding="utf-8") == guide_markdown()
    with pytest.raises(OSError):
        write_export(guide, "docx", tmp_path / "missing" / "guide.docx")
    blocker = tmp_path / "taken.docx"
    blocker.mkdir()
    with pytest.raises(OSError):
        write_export(guide, "docx", blocker)
    assert blocker.is_dir() and not list(tmp_path.glob(".taken.docx.*"))
    with pytest.raises(ValueError):
        write_export(guide, "pdf", tmp_path / "guide.pdf")
    assert default_file_name('a/b: "c"?', "anki") == "a b c.apkg"

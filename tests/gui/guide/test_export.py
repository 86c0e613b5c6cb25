"""The guide viewer's "Export…": a format chosen in a non-modal dialog, a file chosen, the file written as stored.

The guide is stored the way the worker stores it (``tests/guideexports.py``); each file is opened and read back
(python-docx, pypdfium2, sqlite3 through the ``.apkg``'s zip, csv).
"""

from __future__ import annotations

import csv
import sqlite3
import zipfile
from pathlib import Path

import docx
import pypdfium2
from PySide6.QtWidgets import QFileDialog

from gui.guide.export_dialog import ExportDialog
from gui.guide.export_pdf import write_pdf
from tests.gui.guide.test_viewer import show_finished_guide
from tests.guideexports import QUESTIONS, TERMS, guide_markdown, store_guide


def pdf_text(path: Path) -> tuple[int, str]:
    pdf = pypdfium2.PdfDocument(str(path))
    try:
        return len(pdf), "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()


def open_export_dialog(window, root, run, wait_until) -> ExportDialog:
    viewer = window.guide_viewer

    run(show_finished_guide(window, root, wait_until))
    assert viewer.export_button.isEnabled()
    viewer.export_button.click()
    dialog = viewer.export_dialog
    assert isinstance(dialog, ExportDialog) and dialog.isVisible() and not dialog.isModal()
    assert dialog.guide_label.text() == "Photosynthesis"
    return dialog


def export_through(dialog: ExportDialog, format_name: str, target: Path, run, wait_until) -> None:
    """Choose ``format_name``, press the dialog's button and pick ``target`` in its file dialog; wait for the file."""
    dialog.choose_format(format_name)
    dialog.export_button.click()
    files = dialog.file_dialog
    assert isinstance(files, QFileDialog) and files.isVisible()  # opened with open(), never exec()
    assert files.selectedFiles()[0].endswith(target.suffix)
    files.selectFile(str(target))
    files.accept()
    run(wait_until(lambda: dialog.result.text() == f"Saved to {target}.", what=f"the {format_name} written"))


def test_the_viewer_exports_the_stored_guide_as_word_and_as_pdf_in_the_chosen_files(
    make_window, store, app_db, settings, run, wait_until, tmp_path
):
    window = make_window()
    root, _job = run(store_guide(store, app_db, settings.output_dir))
    dialog = open_export_dialog(window, root, run, wait_until)
    assert [dialog.format_box.itemData(i) for i in range(dialog.format_box.count())] == [
        "md", "docx", "pdf", "anki", "csv",
    ]  # fmt: skip
    word_file, pdf_file = tmp_path / "mine.docx", tmp_path / "mine.pdf"
    export_through(dialog, "docx", word_file, run, wait_until)
    word = docx.Document(str(word_file))
    assert [p.text for p in word.paragraphs if p.style.name == "Title"] == ["Photosynthesis"]
    assert set(TERMS) <= {r.text for p in word.paragraphs for r in p.runs if r.bold}
    export_through(dialog, "pdf", pdf_file, run, wait_until)
    pages, text = pdf_text(pdf_file)
    assert pages > 0 and "Light reactions" in text and "Where do the light reactions happen?" in text


def test_the_viewer_exports_anki_and_csv_and_says_when_a_file_cannot_be_written(
    make_window, store, app_db, settings, run, wait_until, tmp_path
):
    window = make_window()
    root, _job = run(store_guide(store, app_db, settings.output_dir))
    dialog = open_export_dialog(window, root, run, wait_until)
    deck, table = tmp_path / "cards.apkg", tmp_path / "cards.csv"
    export_through(dialog, "anki", deck, run, wait_until)
    with zipfile.ZipFile(deck) as archive:
        archive.extract("collection.anki2", tmp_path)
    connection = sqlite3.connect(tmp_path / "collection.anki2")
    try:
        rows = connection.execute("SELECT n.flds FROM notes n JOIN cards c ON c.nid = n.id ORDER BY c.due")
        fronts = [row[0].split("\x1f")[0] for row in rows]
    finally:
        connection.close()
    assert fronts == [*TERMS[:2], *QUESTIONS[:2], TERMS[2], QUESTIONS[2], TERMS[3]]
    export_through(dialog, "csv", table, run, wait_until)
    with table.open(encoding="utf-8-sig", newline="") as file:
        assert len(list(csv.reader(file))) == 1 + len(TERMS) + len(QUESTIONS)
    nowhere = tmp_path / "missing" / "guide.docx"
    task = dialog.export_to(nowhere, "docx")
    assert task is not None
    assert run(task) is False
    assert dialog.result.text().startswith(f"The file {nowhere} could not be written:")
    assert dialog.export_button.isEnabled()


def test_an_unfinished_guide_cannot_be_exported_yet(make_window, store, app_db, settings, run, wait_until):
    window = make_window()
    root, _job = run(store_guide(store, app_db, settings.output_dir, finished=False))
    viewer = window.guide_viewer

    async def scenario() -> None:
        await wait_until(lambda: window.select_job(root), what="the document in the table")
        window.details_tabs.show_guide()
        await wait_until(lambda: viewer.guide is not None, what="the sections shown")

    run(scenario())
    assert not viewer.guide.complete
    assert not viewer.export_button.isEnabled() and viewer.export() is None


def test_a_long_guide_becomes_a_pdf_of_several_pages_with_its_words(qapp, tmp_path):
    long_guide = guide_markdown() + "\n".join(f"\n## Part {n}\n\nParagraph number {n} of the guide." for n in range(80))
    path = tmp_path / "long.pdf"
    write_pdf(long_guide, path, "Photosynthesis")
    pages, text = pdf_text(path)
    assert pages > 2
    assert "Paragraph number 79 of the guide." in text and "Chlorophyll" in text

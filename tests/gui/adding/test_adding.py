"""Adding documents: drag-and-drop, the choice of guide or text, and unsupported files refused before any job."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from core.app.documents.formats import added_params


def _drop(window, paths: list[Path]) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    pos = QPointF(window.rect().center())
    actions = Qt.DropAction.CopyAction
    enter = QDragEnterEvent(pos.toPoint(), actions, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    drop = QDropEvent(pos, actions, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, drop)


def test_dropping_a_supported_and_an_unsupported_file(window, store, tmp_path, run, wait_until):
    good = tmp_path / "Resumo de Física.pdf"
    good.write_bytes(b"%PDF-1.4 test")
    bad = tmp_path / "planilha.xlsx"
    bad.write_bytes(b"PK")
    _drop(window, [good, bad])
    assert window.notice is not None and window.notice.isVisible()
    assert "planilha.xlsx" in window.notice.text()
    assert "Resumo de Física.pdf" not in window.notice.text()
    dialog = window.add_dialog
    assert dialog is not None and dialog.isVisible()
    assert [dialog.list.item(i).text() for i in range(dialog.list.count())] == [good.name]
    dialog.extract.setChecked(True)
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()

    async def jobs():
        return await wait_until(lambda: store.list_recent(limit=10), what="the job")

    made = run(jobs())
    assert len(made) == 1
    assert made[0].kind == "ingest" and made[0].title == good.name
    assert made[0].params == {"path": str(good.absolute()), "only_extract": True, "added": added_params(good)}

    async def in_table() -> None:
        await wait_until(lambda: window.model.row_of(made[0].id) is not None, what="the row in the table")

    run(in_table())


def test_dropping_only_unsupported_files_makes_no_job(window, store, tmp_path, run):
    bad = tmp_path / "foto.png"
    bad.write_bytes(b"\x89PNG")
    folder = tmp_path / "pasta"
    folder.mkdir()
    _drop(window, [bad, folder])
    assert window.notice is not None and "foto.png" in window.notice.text() and "pasta" in window.notice.text()
    assert window.add_dialog is None
    assert run(store.count()) == 0


def test_cancelling_the_add_dialog_makes_no_job(window, store, tmp_path, run):
    good = tmp_path / "notas.txt"
    good.write_text("texto", encoding="utf-8")
    dialog = window.add_files([str(good)])
    assert dialog is not None and not dialog.only_extract
    dialog.reject()
    assert run(store.count()) == 0


def test_a_language_picked_in_the_add_dialog_goes_with_the_job(window, store, tmp_path, run, wait_until):
    good = tmp_path / "Resumo.pdf"
    good.write_bytes(b"%PDF-1.4 test")
    dialog = window.add_files([str(good)])
    assert dialog is not None and dialog.guide_language == ""  # the document's own language by default
    dialog.language.setCurrentIndex(dialog.language.findData("fr"))
    assert dialog.language.currentText() == "Français"
    dialog.extract.setChecked(True)
    assert not dialog.language.isEnabled()  # no guide, no language to pick
    dialog.guide.setChecked(True)
    assert dialog.language.isEnabled()
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()

    async def jobs():
        return await wait_until(lambda: store.list_recent(limit=10), what="the job")

    (made,) = run(jobs())
    assert made.params == {"path": str(good.absolute()), "only_extract": False, "added": added_params(good),
                           "language": "fr"}  # fmt: skip

"""Managing documents in the window: several at once, the whole queue, writing a guide again, content added twice,
and one notification per document."""

from __future__ import annotations

import hashlib
import uuid
from pathlib import Path

from PySide6.QtGui import QIcon

from core.app.storage.schema import Document, Job, StudyGuide
from gui.tray import Tray


async def _document(store, title: str, root: str, child: str | None = None) -> tuple[uuid.UUID, uuid.UUID | None]:
    """A document whose root ends ``root`` and, when given, whose guide job (made while the root ran) ends ``child``."""
    ingest = await store.enqueue("ingest", title=title, params={"path": f"/docs/{title}"})
    claimed = await store.claim(ingest.id)
    child_id = None
    if child is not None:
        made = await store.enqueue("generate", title=title, columns={"parent_id": ingest.id})
        child_id = made.id
    if root == "done":
        await store.succeed(ingest.id, attempt=claimed.attempts)
    elif root == "failed":
        await store.fail(ingest.id, "O arquivo está danificado.", attempt=claimed.attempts)
    if child_id is not None and child != "queued":
        got = await store.claim(child_id)
        if child == "done":
            await store.succeed(child_id, attempt=got.attempts)
        elif child == "failed":
            await store.fail(child_id, "O modelo parou.", attempt=got.attempts)
    return ingest.id, child_id


async def _statuses(store) -> dict[uuid.UUID, str]:
    return {j.id: j.status for j in await store.list_recent(limit=100)}


def test_cancel_retry_and_remove_act_on_every_selected_document(window, store, run, wait_until):
    async def scenario() -> None:
        reading, _ = await _document(store, "Lendo.pdf", "running")
        writing, child = await _document(store, "Escrevendo.pdf", "done", "queued")
        failed, _ = await _document(store, "Falhou.pdf", "failed")
        await wait_until(lambda: window.model.rowCount() == 3, what="three documents, three rows")
        assert await store.count() == 4
        window.view.selectAll()
        await wait_until(
            lambda: window.cancel_action.isEnabled() and window.retry_action.isEnabled(),
            what="Cancel and Retry enabled",
        )
        assert {r.id for r in window.selected_rows()} == {reading, writing, failed}
        window.cancel_action.trigger()
        await wait_until(lambda: {r.status for r in window.model.rows} == {"cancelled", "failed"}, what="cancel")
        assert await _statuses(store) == {reading: "cancelled", writing: "done", child: "cancelled", failed: "failed"}
        window.retry_action.trigger()
        await wait_until(lambda: {r.status for r in window.model.rows} == {"queued"}, what="retried")
        assert await _statuses(store) == {reading: "queued", writing: "done", child: "queued", failed: "queued"}
        assert not window.remove_action.isEnabled()
        window.cancel_action.trigger()
        await wait_until(lambda: window.remove_action.isEnabled(), what="remove enabled once all ended")
        window.remove_action.trigger()
        await wait_until(lambda: window.model.rowCount() == 0, what="every selected document removed")
        assert await store.count() == 0

    run(scenario())


def test_cancel_all_and_retry_all_failed_reach_documents_that_are_not_selected(window, store, run, wait_until):
    async def scenario() -> None:
        waiting, _ = await _document(store, "Fila.pdf", "done", "queued")
        failed, child = await _document(store, "Guia.pdf", "done", "failed")
        finished, _ = await _document(store, "Pronto.pdf", "done", "done")
        await wait_until(lambda: window.model.rowCount() == 3, what="three rows")
        assert window.cancel_all_action.isEnabled() and window.retry_failed_action.isEnabled()
        window.cancel_all_action.trigger()
        await wait_until(
            lambda: window.model.rows[window.model.row_of(waiting)].status == "cancelled",
            what="the waiting row cancelled",
        )
        window.retry_failed_action.trigger()
        await wait_until(
            lambda: window.model.rows[window.model.row_of(failed)].status == "queued",
            what="the failed row queued again",
        )
        assert (await store.get(child)).status == "queued"
        assert window.model.rows[window.model.row_of(waiting)].status == "cancelled"
        assert window.model.rows[window.model.row_of(finished)].status == "done"

    run(scenario())


async def _guide(app_db, job_id: uuid.UUID, path: Path) -> None:
    """The guide row a generate job writes just before it is done (its file is written by the test)."""
    async with app_db.get_session_context() as session:
        session.add(StudyGuide(job_id=job_id, title="Guia", language="pt", path=str(path), markdown="# Guia\n"))


def test_write_again_keeps_the_old_guide_until_the_new_one_is_done(window, store, app_db, tmp_path, run, wait_until):
    for name in ("primeiro.md", "segundo.md"):
        (tmp_path / name).write_text("# Guia\n", encoding="utf-8")

    async def scenario() -> None:
        document, first = await _document(store, "Biologia.pdf", "done", "queued")
        got = await store.claim(first)
        await _guide(app_db, first, tmp_path / "primeiro.md")
        await store.succeed(first, attempt=got.attempts)
        await wait_until(lambda: window.select_job(document), what="the document")
        await wait_until(lambda: window.output_path == tmp_path / "primeiro.md", what="the first guide")
        await wait_until(lambda: window.write_again_action.isEnabled(), what="write again for a finished guide")
        window.write_again_action.trigger()
        await wait_until(lambda: window.details.job.status == "queued", what="writing again")
        second = window.details.job.guide_job_id
        assert second not in (None, first)
        assert (await store.get(second)).parent_id == document
        assert not window.write_again_action.isEnabled()
        assert window.output_path == tmp_path / "primeiro.md" and window.open_action.isEnabled()
        claimed = await store.claim(second)
        await wait_until(lambda: window.details.job.status == "running", what="the new guide being written")
        await _guide(app_db, second, tmp_path / "segundo.md")
        assert window.output_path == tmp_path / "primeiro.md"  # the new guide's job is not done yet
        await store.succeed(second, attempt=claimed.attempts)
        await wait_until(lambda: window.output_path == tmp_path / "segundo.md", what="the new guide")
        assert window.model.rowCount() == 1

    run(scenario())


def test_adding_content_that_was_added_before_asks_first_without_blocking(
    window, store, app_db, tmp_path, run, wait_until
):
    seen = tmp_path / "apostila (cópia).txt"
    seen.write_text("Fotossíntese é o processo…", encoding="utf-8")
    fresh = tmp_path / "novo.txt"
    fresh.write_text("Outro texto.", encoding="utf-8")

    async def known() -> None:
        async with app_db.get_session_context() as session:
            digest = hashlib.sha256(seen.read_bytes()).hexdigest()
            session.add(Document(source_name="apostila.txt", source_path="/old/apostila.txt", content_hash=digest))

    async def answer(button: str) -> list[Job]:
        before = {j.id for j in await store.list_recent(limit=50)}
        previous = window.adder.duplicate_dialog
        dialog = window.add_files([str(seen), str(fresh)])
        dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
        question = await wait_until(
            lambda: window.adder.duplicate_dialog is not previous and window.adder.duplicate_dialog,
            what="the question",
        )
        assert question.isVisible() and not question.isModal()
        assert [question.list.item(i).text() for i in range(question.list.count())] == [
            "apostila (cópia).txt (apostila.txt)"
        ]
        getattr(question, button).click()
        return await wait_until(
            lambda: _new_jobs(store, before, 2 if button == "again" else 1), what=f"the jobs after {button}"
        )

    run(known())
    skipped = run(answer("skip"))
    assert [j.title for j in skipped] == ["novo.txt"]
    added = run(answer("again"))
    assert sorted(j.title for j in added) == ["apostila (cópia).txt", "novo.txt"]


async def _new_jobs(store, before: set[uuid.UUID], count: int) -> list[Job] | None:
    jobs = [j for j in await store.list_recent(limit=50) if j.id not in before]
    return jobs if len(jobs) == count else None


def test_a_document_is_announced_once_when_its_guide_is_done_not_when_its_reading_is(
    make_window, store, run, wait_until
):
    tray = Tray(QIcon(), notifications=True)
    window = make_window(tray=tray)
    try:

        async def scenario() -> None:
            document, _ = await _document(store, "Química.pdf", "running")
            await wait_until(lambda: window.model.row_of(document) is not None, what="the row")
            made = await store.enqueue("generate", title="Química.pdf", columns={"parent_id": document})
            ingest = await store.get(document)
            await store.succeed(document, attempt=ingest.attempts)
            await wait_until(lambda: window.model.rows[0].status == "queued", what="waiting for its guide")
            got = await store.claim(made.id)
            await wait_until(lambda: window.model.rows[0].status == "running", what="writing")
            assert tray.sent == []
            await store.succeed(made.id, attempt=got.attempts)
            await wait_until(lambda: window.model.rows[0].status == "done", what="done")
            await wait_until(lambda: tray.sent, what="the notification")

        run(scenario())
        assert tray.sent == [("Finished: Química.pdf", "The job is done.")]
    finally:
        tray.close()


def test_a_documents_kind_says_study_guide_or_text_only(window, store, run, wait_until):
    async def scenario() -> None:
        await store.enqueue("ingest", title="Guia.pdf", params={"path": "/docs/Guia.pdf"})
        await store.enqueue("ingest", title="Texto.pdf", params={"path": "/docs/Texto.pdf", "only_extract": True})
        await wait_until(lambda: window.model.rowCount() == 2, what="two rows")

    run(scenario())
    kinds = {window.model.data(window.model.index(i, 0)): window.model.data(window.model.index(i, 1)) for i in (0, 1)}
    assert kinds == {"Guia.pdf": "Study guide", "Texto.pdf": "Text only"}

"""One ``download_model`` job per file, and removing a model frees both its file and any partial download."""

from __future__ import annotations

from pathlib import Path

from core.app.documents.pipelines import Pipelines
from core.app.models.catalog import load_catalog
from core.app.models.downloads import (
    DOWNLOAD_KIND,
    download_job_id,
    enqueue_download,
    installed_path,
    models_dir,
    partial_path,
    remove_model_files,
)
from core.app.storage.database import APP_MAX_ATTEMPTS, make_app_store, open_app_database


async def test_queueing_a_model_twice_follows_the_one_job_of_its_file(database_url: str) -> None:
    model = next(model for model in load_catalog() if not model.bundled)
    db = await open_app_database(database_url)
    try:
        store = make_app_store(db)
        first = await enqueue_download(store, model)
        second = await enqueue_download(store, model)
        assert first.id == second.id == download_job_id(model.repo, model.revision, model.filename)
        assert first.kind == DOWNLOAD_KIND and first.max_attempts == APP_MAX_ATTEMPTS[DOWNLOAD_KIND]
        assert first.params["repo"] == model.repo and first.params["sha256"] is None
        assert len(await store.list_recent(limit=10)) == 1
        documents = Pipelines(store)
        assert await documents.count() == 0 and not await documents.list_recent()  # a download is not a document
    finally:
        await db.dispose()


def test_other_files_or_revisions_get_other_jobs() -> None:
    base = download_job_id("owner/repo", "main", "a.gguf")
    assert base != download_job_id("owner/repo", "main", "b.gguf")
    assert base != download_job_id("owner/repo", "0123abc", "a.gguf")
    assert base != download_job_id("owner/other", "main", "a.gguf")


def test_removing_a_model_deletes_its_file_and_its_partial_download_and_says_what_was_freed(tmp_path: Path) -> None:
    folder = models_dir(tmp_path)
    target = installed_path(folder, "owner/repo", "model.gguf")
    part = partial_path(folder, "owner/repo", "main", "model.gguf")
    for path, size in ((target, 300), (part, 200), (part.with_suffix(".json"), 10)):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x" * size)
    assert remove_model_files(tmp_path, "owner/repo", "main", "model.gguf") == 510
    assert not target.exists() and not part.exists() and not part.with_suffix(".json").exists()
    assert remove_model_files(tmp_path, "owner/repo", "main", "model.gguf") == 0

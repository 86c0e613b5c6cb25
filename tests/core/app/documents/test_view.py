"""The time left shown for a document: one function for the window, the CLI and the benchmark."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from core.app.documents.parts import PartSnapshot
from core.app.documents.view import document_view
from core.app.timing.document_time import document_time_left
from core.progress import ETA_AT, ETA_SECONDS, EXPECTED_SECONDS, FOLLOW_UP_SECONDS


def _part(kind: str, status: str, detail: dict[str, Any], **columns: Any) -> PartSnapshot:
    now = datetime.now(UTC)
    values: dict[str, Any] = {
        "id": uuid.uuid4(), "kind": kind, "status": status, "title": "apostila.pdf", "stage": "", "progress": 0.0,
        "message": "", "detail": detail, "phases": [], "params": {}, "result_id": None, "error": None,
        "error_transient": False, "attempts": 1, "max_attempts": 3, "run_after": None, "started_at": None,
        "finished_at": None, "created_at": now, "updated_at": now, "parent_id": None,
    }  # fmt: skip
    return PartSnapshot.of({**values, **columns})


def test_a_document_shows_its_ingest_time_left_plus_its_guide_then_the_guides_own():
    now = datetime.now(UTC)
    stamp = {ETA_AT: now.isoformat()}
    reading = _part("ingest", "running", {ETA_SECONDS: 2.0, FOLLOW_UP_SECONDS: 60.0, **stamp})
    assert document_time_left(reading, None, now) == pytest.approx(62.0)
    no_basis = _part("ingest", "running", {ETA_SECONDS: 2.0, FOLLOW_UP_SECONDS: None, **stamp})
    assert document_time_left(no_basis, None, now) is None
    text_only = _part("ingest", "running", {ETA_SECONDS: 2.0, **stamp}, params={"only_extract": True})
    assert document_time_left(text_only, None, now) == pytest.approx(2.0)
    read = _part("ingest", "done", {FOLLOW_UP_SECONDS: 60.0})
    assert document_time_left(read, None, now) == pytest.approx(60.0)  # the guide's job is not made yet
    waiting = _part("generate", "queued", {EXPECTED_SECONDS: 58.0})
    assert document_time_left(read, waiting, now) == pytest.approx(58.0)
    starting = _part("generate", "running", {EXPECTED_SECONDS: 58.0}, started_at=now)  # before its first write
    assert document_time_left(read, starting, now + timedelta(seconds=1)) == pytest.approx(57.0)
    writing = _part("generate", "running", {ETA_SECONDS: 40.0, EXPECTED_SECONDS: 58.0, **stamp}, started_at=now)
    assert document_time_left(read, writing, now + timedelta(seconds=10)) == pytest.approx(30.0)
    no_figure = _part("generate", "running", {ETA_SECONDS: None, EXPECTED_SECONDS: 58.0, **stamp}, started_at=now)
    assert document_time_left(read, no_figure, now) is None  # "estimating…"
    assert document_time_left(read, _part("generate", "done", {}), now) is None


def test_the_view_a_screen_shows_carries_the_same_time_left():
    now = datetime.now(UTC)
    reading = _part("ingest", "running", {ETA_SECONDS: 2.0, FOLLOW_UP_SECONDS: 60.0, ETA_AT: now.isoformat()})
    view = document_view(reading, None)
    assert view.eta == pytest.approx(document_time_left(reading, None, view.seen_at))

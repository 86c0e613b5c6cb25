"""StageMap: several stages' status, error and result columns on one record."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from core import StageMap, StageStatus


def record(stages: StageMap) -> SimpleNamespace:
    values = {}
    for stage in stages.stages:
        for column in stages.columns(stage):
            values[column] = None
    return SimpleNamespace(**values)


def test_columns_resolve_from_the_prefix_and_templates():
    stages = StageMap(["transcription", "summary", "suggestions"], prefix="doc_")
    assert stages.columns("summary") == ("doc_status_summary", "doc_error_summary", "doc_result_summary")
    custom = StageMap(
        ["a"], status_template="{stage}_state", error_template="{stage}_err", result_template="{stage}_out"
    )
    assert custom.columns("a") == ("a_state", "a_err", "a_out")


def test_two_stages_resolving_to_one_column_are_refused_at_construction():
    with pytest.raises(ValueError, match="both resolve"):
        StageMap(["a", "b"], status_template="status", error_template="error_{stage}")
    with pytest.raises(ValueError):
        StageMap(["a", "a"])
    with pytest.raises(ValueError):
        StageMap([])
    with pytest.raises(ValueError, match="both resolve"):
        StageMap(["x"], status_template="col_{stage}", error_template="col_{stage}")


def test_mark_and_owns_track_who_holds_the_stage():
    stages = StageMap(["summary"], prefix="doc_")
    doc = record(stages)
    assert stages.status(doc, "summary") is None
    stages.mark(doc, "summary", StageStatus.RUNNING)
    assert stages.owns(doc, "summary", StageStatus.RUNNING)
    stages.mark(doc, "summary", StageStatus.DONE, result="o resumo")
    assert doc.doc_status_summary == "done" and doc.doc_result_summary == "o resumo"
    assert not stages.owns(doc, "summary", StageStatus.RUNNING)


def test_marking_without_a_result_keeps_the_previous_result():
    stages = StageMap(["summary"])
    doc = record(stages)
    stages.mark(doc, "summary", StageStatus.DONE, result="bom resumo")
    stages.mark(doc, "summary", StageStatus.RUNNING)
    stages.mark(doc, "summary", StageStatus.CANCELLED)
    assert doc.result_summary == "bom resumo"
    stages.mark(doc, "summary", StageStatus.FAILED, error="O modelo não respondeu.")
    assert doc.error_summary == "O modelo não respondeu." and doc.result_summary == "bom resumo"


def test_cancel_is_partial_on_purpose():
    stages = StageMap(["extract", "outline", "write"])
    doc = record(stages)
    stages.mark(doc, "extract", StageStatus.DONE, result="texto")
    stages.mark(doc, "outline", StageStatus.RUNNING)
    stages.mark(doc, "write", StageStatus.PENDING)
    cancelled, ignored = stages.cancel(doc)
    assert cancelled == ["outline", "write"] and ignored == ["extract"]
    assert stages.status(doc, "extract") == StageStatus.DONE
    assert stages.cancel(doc) == ([], ["extract", "outline", "write"])


def test_snapshot_shows_every_stage():
    stages = StageMap(["extract", "write"])
    doc = record(stages)
    stages.mark(doc, "extract", StageStatus.FAILED, error="PDF protegido por senha.")
    assert stages.snapshot(doc) == {
        "extract": {"status": "failed", "error": "PDF protegido por senha.", "result": None},
        "write": {"status": None, "error": None, "result": None},
    }


def test_an_unknown_stage_is_a_clear_error():
    with pytest.raises(KeyError, match="unknown stage"):
        StageMap(["a"]).columns("b")

"""The shipped phase plans: one per job kind, and per reader family where reading speeds differ."""

from __future__ import annotations

import pytest

from core.app.documents.formats import SUPPORTED_SUFFIXES
from core.app.timing.document_time import PLANS_DIR, READER_FAMILIES, plan_for, reader_family, shipped_plan
from core.progress import PhasePlan
from daemon.plans import quoting_plan, with_wait


def test_every_reader_family_ships_its_own_calibrated_plan() -> None:
    for family in READER_FAMILIES:
        path = PLANS_DIR / f"ingest-{family}.json"
        assert path.is_file(), f"bench/calibrate.py did not write {path.name}"
        assert plan_for("ingest", family).names == ("read", "clean", "save")


@pytest.mark.parametrize("document_format", sorted(set(SUPPORTED_SUFFIXES.values())))
def test_every_supported_format_gets_a_plan_with_the_ingest_phases(document_format: str) -> None:
    plan = plan_for("ingest", reader_family(document_format))
    assert plan.names == ("read", "clean", "save")


def test_formats_without_a_family_take_the_plan_fitted_over_every_format() -> None:
    assert reader_family("docx") is None and reader_family("epub") is None
    assert plan_for("ingest", None).phases == plan_for("ingest").phases
    assert plan_for("ingest", "no-such-family").phases == PhasePlan.load(PLANS_DIR / "ingest.json").phases


def test_plain_text_is_expected_to_read_much_faster_than_a_pdf_of_the_same_length() -> None:
    chars = 100_000
    text = plan_for("ingest", "text").expected_seconds("read", chars)
    pdf = plan_for("ingest", "pdf").expected_seconds("read", chars)
    assert text * 5 < pdf, (text, pdf)


def test_a_text_file_gives_saving_a_visible_share_of_its_bar() -> None:
    """One read rate for every format left a text file's save (a fixed few ms) under 3 % of the bar."""
    sized = plan_for("ingest", "text").sized({"read": 100_000})
    start, end = sized.span("save")
    assert end - start > 0.05


def test_the_plan_of_a_writer_without_summaries_gives_the_sections_no_room_and_the_outline_the_bar():
    measured = plan_for("generate")
    quoting = quoting_plan(measured)
    assert quoting.names == measured.names
    start, end = quoting.span("sections")
    assert end - start < 0.01, "quoting the passages takes milliseconds"
    assert quoting.expected_seconds("outline") == measured.expected_seconds("outline")
    assert quoting.span("outline")[1] - quoting.span("outline")[0] > 0.9


def test_a_wait_before_reading_gives_the_read_phase_that_much_more_time_and_room_on_the_bar() -> None:
    plan = plan_for("ingest", "pdf")
    waiting = with_wait(plan, "read", 0.5)
    assert waiting.expected_seconds("read", 90_000) == pytest.approx(plan.expected_seconds("read", 90_000) + 0.5)
    assert waiting.expected_seconds("save") == plan.expected_seconds("save")
    assert waiting.span("read")[1] > plan.span("read")[1]
    assert with_wait(plan, "read", 0.0) is plan


def test_the_screens_and_the_worker_read_the_same_shipped_plan_of_each_kind() -> None:
    for kind in ("ingest", "generate"):
        assert shipped_plan(kind) == tuple((p.name, p.weight) for p in plan_for(kind).phases)
        assert shipped_plan(kind) and all(seconds > 0 for _name, seconds in shipped_plan(kind))
    assert shipped_plan("download_model") == ()

"""The counts in a job's ``detail``: one set of keys for the worker and the screens, older keys still read."""

from __future__ import annotations

from core.app.documents.counters import OUTLINE, PAGES, PARTS, SECTIONS, counter_text, counts


def test_a_count_is_written_under_its_two_keys() -> None:
    assert PAGES.values(12, 40) == {"pages_done": 12, "pages_total": 40}
    assert PARTS.values(1, 3) == {"parts_done": 1, "parts_total": 3}
    assert OUTLINE.values(1, 2) == {"outline_done": 1, "outline_total": 2}
    assert SECTIONS.values(2, 5) == {"sections_done": 2, "sections_total": 5}


def test_pages_and_sections_read_in_both_languages() -> None:
    detail = {**PAGES.values(12, 40), **SECTIONS.values(2, 5), "document_id": "x"}
    assert counter_text(detail, "en") == "page 12 of 40 · section 2 of 5"
    assert counter_text(detail, "pt_BR") == "página 12 de 40 · seção 2 de 5"


def test_parts_of_a_document_without_pages_and_the_plan_in_parts() -> None:
    assert counter_text(PARTS.values(3, 9), "en") == "part 3 of 9"
    assert counter_text(OUTLINE.values(1, 2), "pt_BR") == "planejamento: parte 1 de 2"


def test_the_plan_count_gives_way_to_the_section_count_once_writing_starts() -> None:
    assert counter_text({**OUTLINE.values(2, 2), **SECTIONS.values(1, 4)}, "en") == "section 1 of 4"


def test_keys_written_by_older_versions_are_still_read() -> None:
    old_ingest = {"done": 4, "total": 8, "read_done": 4, "read_total": 8}
    old_generate = {"current_section": 2, "total_sections": 5, "outline_part": 1, "outline_parts": 1}
    assert counter_text(old_ingest, "en") == "part 4 of 8"
    assert counter_text(old_generate, "en") == "section 2 of 5"
    assert counter_text({"outline_part": 1, "outline_parts": 3}, "en") == "planning part 1 of 3"


def test_no_counts_no_words_and_nonsense_is_ignored() -> None:
    assert counter_text({}, "en") == "" and counter_text(None, "pt_BR") == ""
    assert counts({"pages_total": 0, "sections_total": "five", "parts_total": True}) == []
    assert counter_text({"pages_done": 50, "pages_total": 40}, "en") == "page 40 of 40"
    assert counter_text({"pages_done": None, "pages_total": 40.0}, "en") == "page 0 of 40"

"""A document's structure as JSON: what a reader process sends is written again by our own writer."""

from __future__ import annotations

import json

import pytest

from core.app.documents.structure import Chapter, DocumentStructure

WRITTEN = DocumentStructure(((1, 1), (1, 2), (3, 3)), 3, (Chapter("Água", 0, 1), Chapter("Chuva", 2, 2))).to_json()


def test_a_structure_in_its_written_shape_is_written_again_unchanged() -> None:
    assert DocumentStructure.rewritten(WRITTEN) == WRITTEN
    reordered = json.dumps({"chapters": [["Água", 0, 1]], "page_count": 3, "pages": [[1, 2]]})
    assert DocumentStructure.rewritten(reordered) == '{"pages":[[1,2]],"page_count":3,"chapters":[["Água",0,1]]}'


@pytest.mark.parametrize(
    "sent",
    [
        None,
        "",
        "not json",
        "[]",
        '{"pages":[[1,true]],"page_count":3,"chapters":[]}',
        '{"pages":[[1,2.0]],"page_count":3,"chapters":[]}',
        '{"pages":[["1",2]],"page_count":3,"chapters":[]}',
        '{"pages":[[1,2,3]],"page_count":3,"chapters":[]}',
        '{"pages":[[1,2]],"page_count":3.0,"chapters":[]}',
        '{"pages":[[1,2]],"page_count":3,"chapters":[["a",0,1,4]]}',
        '{"pages":[[1,2]],"page_count":null,"chapters":[[5,0,1]]}',
        '{"pages":[[1,2]],"page_count":3,"chapters":[],"extra":1}',
        '{"pages":[[1,2]],"chapters":[]}',
    ],
)
def test_any_other_text_is_written_as_reading_and_writing_it_again_gives(sent: str | None) -> None:
    assert DocumentStructure.rewritten(sent) == DocumentStructure.from_json(sent).to_json()

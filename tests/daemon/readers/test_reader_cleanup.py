"""The text clean-up shared by the readers: NFC normalization line by line equals normalizing the whole text."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from daemon.readers.cleanup import to_nfc
from daemon.readers.nfc_table import (
    NFC_CHANGEABLE_ASTRAL,
    NFC_CHANGEABLE_BMP,
    UNICODE_VERSION,
    changeable_code_points,
    character_class,
)

# Letters that take accents, combining marks (Latin, overlay, Hangul jamo, kana voicing, Arabic marks out of
# order), singletons (Å sign, a compatibility ideograph), exclusions and line breaks: what NFC may change or move.
PIECES = st.sampled_from(
    [
        *("a", "e", "o", "s", "=", " ", "\n", "\r\n", "é", "ç", "か", "\u0301", "\u0300", "\u0327", "\u0338"),
        *("\u0323", "\u0315", "\u0316", "\u1100", "\u1161", "\u11a8", "\u3099", "\u093c", "\u20d7", "\u0958"),
        *("\u064e", "\u0651", "\u212b", "\uf900", "\u0344", "\U0001d15e", "\U0001d165", "\U0001f600"),
    ]
)


@given(st.lists(PIECES, max_size=60).map("".join))
@settings(max_examples=2000, deadline=None)
def test_normalizing_only_the_lines_that_need_it_gives_the_nfc_of_the_whole_text(text: str):
    assert to_nfc(text) == unicodedata.normalize("NFC", text)


@given(st.text(max_size=200))
@settings(max_examples=500, deadline=None)
def test_any_text_comes_out_in_nfc(text: str):
    assert to_nfc(text) == unicodedata.normalize("NFC", text)


def test_the_tables_match_this_pythons_unicode_database():
    points = changeable_code_points()
    bmp = character_class({p for p in points if p <= 0xFFFF})
    astral = character_class({p for p in points if p > 0xFFFF})
    expected = (unicodedata.unidata_version, bmp, astral)
    assert expected == (UNICODE_VERSION, NFC_CHANGEABLE_BMP, NFC_CHANGEABLE_ASTRAL), (
        "regenerate them: python daemon/readers/nfc_table.py"
    )


def test_text_without_combining_marks_is_returned_as_it_is():
    text = "Fotossíntese: a luz vira energia química.\nSeção 2"
    assert to_nfc(text) is text

"""The text clean-up shared by the readers: NFC normalization piece by piece equals normalizing the whole text."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from daemon.readers.cleanup import compose_spacing_accents, remove_invisibles, to_nfc

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
def test_marks_letters_and_line_breaks_in_any_order_come_out_as_the_nfc_of_the_whole_text(text: str):
    assert to_nfc(text) == unicodedata.normalize("NFC", text)


# Long lines, so that texts run past the size of the pieces to_nfc checks one at a time (4,096 characters).
LONG_PIECES = st.sampled_from(["a" * 3000, "é" * 2500 + "\n", "x\u0301" * 900, "\n" + "か" * 4100])


@given(st.lists(st.one_of(PIECES, LONG_PIECES), max_size=40).map("".join))
@settings(max_examples=300, deadline=None)
def test_a_long_text_checked_piece_by_piece_comes_out_as_the_nfc_of_the_whole(text: str):
    assert to_nfc(text) == unicodedata.normalize("NFC", text)


def test_a_long_text_already_in_nfc_is_returned_as_it_is():
    text = ("Seção sobre fotossíntese e energia química.\n" * 500) + "かな\n" * 100
    assert to_nfc(text) is text


def test_a_combining_mark_far_into_a_long_text_is_composed():
    text = "Introdução\n" * 1000 + "Sec\u0327a\u0303o 2\n" + "fim\n" * 1000
    assert to_nfc(text) == text.replace("Sec\u0327a\u0303o", "Seção")


@given(st.text(max_size=200))
@settings(max_examples=500, deadline=None)
def test_any_text_comes_out_in_nfc(text: str):
    assert to_nfc(text) == unicodedata.normalize("NFC", text)


def test_text_without_combining_marks_is_returned_as_it_is():
    text = "Fotossíntese: a luz vira energia química.\nSeção 2"
    assert to_nfc(text) is text


def test_invisible_characters_go_spaces_become_plain_and_ligatures_are_spelled_out():
    raw = "\ufeffo\u00a0e\ufb01m\u200b da \ufb02or\x07,\tnum\u00adero\n\u2003x"
    assert remove_invisibles(raw) == "o efim da flor,\tnumero\n x"


def test_the_spacing_accents_of_old_tex_fonts_are_composed_with_the_letter_after_them():
    # as PDFium reads tutorialbeamer.pdf (OT1 fonts: each accent a glyph of its own, before its letter)
    read = "Introdu¸c˜ao: Beamer ´e uma classe dispon´ıvel para apresenta¸c˜oes dinˆamicas; a seq¨uˆencia `a l´ıngua"
    assert compose_spacing_accents(read) == (
        "Introdução: Beamer é uma classe disponível para apresentações dinâmicas; a seqüência à língua"
    )
    assert compose_spacing_accents("´Agua, ˜A, ¸C") == "Água, Ã, Ç"
    assert compose_spacing_accents("it´s the user´s file") == "it´s the user´s file"  # a typed apostrophe
    assert compose_spacing_accents("see `ls` and ˜/.profile") == "see `ls` and ˜/.profile"  # no accent composed
    plain = "Fotossíntese: a luz vira energia química."
    assert compose_spacing_accents(plain) is plain

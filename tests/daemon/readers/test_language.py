"""The language detector: Portuguese and English, close languages not mislabelled, None when unsure."""

from __future__ import annotations

import pytest

from daemon.readers.language import MIN_WORDS, STOPWORDS, detect_language, normalize_language_tag
from tests.daemon.readers.samples import ENGLISH, PORTUGUESE

SAMPLES = {
    "pt": PORTUGUESE[2],
    "en": ENGLISH[1],
    "es": "El ciclo del agua describe el camino que recorre el agua entre los océanos, la atmósfera y los "
    "continentes. No tiene principio ni fin: la misma agua que hoy está en un río ya fue nube y lluvia.",
    "fr": "Le cycle de l'eau décrit le chemin que parcourt l'eau entre les océans, l'atmosphère et les "
    "continents. Il n'a ni début ni fin : la même eau qui est aujourd'hui dans une rivière a déjà été nuage.",
    "de": "Der Wasserkreislauf beschreibt den Weg, den das Wasser zwischen den Ozeanen, der Atmosphäre und den "
    "Kontinenten zurücklegt. Er hat weder Anfang noch Ende, und das Wasser ist immer in Bewegung.",
    "it": "Il ciclo dell'acqua descrive il percorso che l'acqua compie tra gli oceani, l'atmosfera e i "
    "continenti. Non ha né inizio né fine: la stessa acqua che oggi è in un fiume è già stata nuvola.",
    "ja": "水の循環とは、海、大気、陸地の間を水が移動する道筋のことです。始まりも終わりもありません。",
    "ko": "물의 순환은 바다와 대기와 육지 사이를 물이 이동하는 길입니다. 시작도 끝도 없습니다.",
}


@pytest.mark.parametrize("language", SAMPLES)
def test_a_paragraph_is_recognised(language: str) -> None:
    assert detect_language(SAMPLES[language]) == language


def test_portuguese_and_spanish_share_no_counted_word() -> None:
    assert not STOPWORDS["pt"] & STOPWORDS["es"]
    assert {"não", "uma", "também"} <= STOPWORDS["pt"]
    assert {"y", "el", "muy"} <= STOPWORDS["es"]


def test_too_little_text_or_no_clear_winner_gives_none() -> None:
    assert detect_language("") is None
    assert detect_language("O ciclo da água") is None
    assert detect_language(" ".join(["x1 y2 z3"] * MIN_WORDS)) is None
    assert detect_language("lorem ipsum dolor sit amet " * 20) is None
    assert detect_language("12345 67890 " * 50) is None


def test_a_long_document_is_sampled_and_still_recognised() -> None:
    book = "\n\n".join(PORTUGUESE * 400)
    assert len(book) > 300_000
    assert detect_language(book) == "pt"


def test_language_tags_are_reduced_to_their_two_letters() -> None:
    assert normalize_language_tag("pt-BR") == "pt"
    assert normalize_language_tag("en_US") == "en"
    assert normalize_language_tag("por") == "pt"
    assert normalize_language_tag("") is None
    assert normalize_language_tag(None) is None
    assert normalize_language_tag("und-x-private") is None

"""Whether a generated text and a section title stay with their passages — on real sentences, and on a real
tiny GGUF that writes a fluent text its passages do not support."""

from __future__ import annotations

from pathlib import Path

from daemon.guide_writer.grounding import checked_titles, extractive_title, grounding, title_problems
from daemon.guide_writer.writer import GuideWriter
from daemon.llm.llamacpp import LlamaCppGenerator
from daemon.llm.sampling import BUNDLED_SAMPLING
from devkit.tiny_gguf import expected_phrase_reply, write_tiny_model

ENGLISH = (
    "Photosynthesis is the process by which green plants, algae and some bacteria convert light energy into "
    "chemical energy. Light is captured by chlorophyll and used to turn water and carbon dioxide into glucose "
    "and oxygen. The process takes place mainly in the chloroplasts of leaf cells."
)
PORTUGUESE = (
    "A fotossíntese é o processo pelo qual as plantas verdes, as algas e algumas bactérias transformam a "
    "energia da luz em energia química. A luz é captada pela clorofila e usada para transformar água e gás "
    "carbônico em glicose e oxigênio. O processo acontece principalmente nos cloroplastos das células das folhas."
)
# Fluent English on the passage's subject, but what it says of summer days and animals is not in the passage.
INVENTED = [
    "Green",
    " plants",
    " capture",
    " sunlight",
    " with",
    " chlorophyll,",
    " then",
    " store",
    " that",
    " power",
    " as",
    " sugar.",
    " Their",
    " leaves",
    " also",
    " release",
    " oxygen",
    " into",
    " the",
    " surrounding",
    " air",
    " during",
    " bright",
    " summer",
    " days,",
    " which",
    " animals",
    " breathe.",
]


def test_a_summary_in_other_words_is_grounded_in_its_passage() -> None:
    english = (
        "Photosynthesis turns light energy into chemical energy in green plants, algae and some bacteria. "
        "Chlorophyll captures the light, which is used to make glucose and oxygen from water and carbon dioxide. "
        "It happens mostly in the chloroplasts of the leaf cells."
    )
    portuguese = (
        "A fotossíntese transforma a energia da luz em energia química nas plantas verdes, algas e bactérias. "
        "A clorofila capta a luz, usada para produzir glicose e oxigênio a partir de água e gás carbônico, "
        "sobretudo nos cloroplastos das folhas."
    )
    assert grounding(english, [ENGLISH], "en").ok
    found = grounding(portuguese, [PORTUGUESE], "pt")
    assert found.ok and found.share >= 0.8 and found.new_numbers == ()


def test_a_text_that_says_what_its_passage_does_not_is_ungrounded() -> None:
    invented = grounding("".join(INVENTED), [ENGLISH], "en")
    assert not invented.ok and invented.share < 0.5
    history = (
        "A fotossíntese foi descoberta em 1779 por Jan Ingenhousz, na Holanda, e em 1845 Mayer explicou a "
        "conversão da energia solar. Hoje sabemos que as mitocôndrias também respiram durante a noite."
    )
    found = grounding(history, [PORTUGUESE], "pt")
    assert not found.ok and found.new_numbers == ("1779", "1845")
    assert grounding("A fotossíntese usa luz.", [PORTUGUESE], "pt").ok  # too few words to judge


def test_a_title_must_be_dictionary_words_related_to_its_passages() -> None:
    assert title_problems("Lorem Ipsum", [ENGLISH], "en") == ("unknown_words", "unrelated")
    assert title_problems("Lorem Ipsum", [PORTUGUESE], "pt") == ("unknown_words", "unrelated")
    assert title_problems("Introduction to Quantum Computing", [ENGLISH], "en") == ("unrelated",)
    assert title_problems("Part 1", [ENGLISH], "en") == ("unrelated",)
    assert title_problems("", [ENGLISH], "en") == ("empty",)
    assert title_problems("Chlorophyll and light", [ENGLISH], "en") == ()
    assert title_problems("Fotossíntese nas plantas", [PORTUGUESE], "pt") == ()
    assert title_problems("A energia da luz", [PORTUGUESE], "pt") == ()


def test_a_title_from_the_passages_is_their_heading_else_their_most_frequent_words() -> None:
    heading = "2.1 Classes de documentos\n\nO LaTeX tem classes de documentos. As classes definem o formato."
    assert extractive_title([heading], "pt") == "Classes de documentos"
    assert extractive_title([PORTUGUESE], "pt") == "Processo e energia"
    assert extractive_title([ENGLISH], "en") == "Process, light and energy"
    sections = checked_titles([("Lorem Ipsum", [1]), ("A energia da luz", [2])], [heading, PORTUGUESE], "pt")
    assert sections == [("Classes de documentos", [1]), ("A energia da luz", [2])]


async def test_a_fluent_text_its_passages_do_not_support_is_asked_twice_then_quoted_with_the_reason(
    tmp_path: Path,
) -> None:
    model = write_tiny_model(tmp_path / "inventing.gguf", phrase=INVENTED)
    generator = LlamaCppGenerator(model, n_ctx=2048, n_threads=1, sampling=BUNDLED_SAMPLING)
    guide = await GuideWriter(generator, section_tokens=len(INVENTED), outline_tokens=300).write(ENGLISH)
    (section,) = guide.sections
    assert section.model_text == expected_phrase_reply(INVENTED, len(INVENTED))
    assert section.origin == "quotes" and section.problems == ("ungrounded",)

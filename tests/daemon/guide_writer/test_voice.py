"""Before a summary is kept, each of its sentences must be supported by the pages it cites, and it must speak as a
summary: no first-person narration, no questions to nobody, no chatter. The texts below are real: the rambling one is
the summary of a hidden manual that an earlier check kept; the others are what the bundled SmolLM2-135M-Instruct
(Q4_1, temperature 0, no repetition penalty) wrote when asked to summarise the passages here."""

from __future__ import annotations

from pathlib import Path

from daemon.guide_writer.grounding import grounding, sentence_support
from daemon.guide_writer.guard import SectionGuard
from daemon.guide_writer.voice import voice_problems
from daemon.guide_writer.writer import GuideWriter
from daemon.llm.llamacpp import LlamaCppGenerator
from daemon.llm.sampling import BUNDLED_SAMPLING
from devkit.tiny_gguf import expected_phrase_reply, write_tiny_model

PHOTOSYNTHESIS = (
    "Photosynthesis is the process by which green plants, algae and some bacteria convert light energy into "
    "chemical energy. Light is captured by chlorophyll and used to turn water and carbon dioxide into glucose "
    "and oxygen. The process takes place mainly in the chloroplasts of leaf cells."
)
MITOCHONDRIA = (
    "The mitochondrion is the organelle where cellular respiration takes place. It breaks down glucose with oxygen "
    "and stores the energy released in molecules of ATP. Cells that need much energy, such as muscle cells, have "
    "many mitochondria."
)
QEMU_RAMBLING = (
    "…let me create some files….(I have done things already) Here I am running my own build process through "
    "commands inside QEMU itself…"
)
"""The summary kept today of a manual's section, with summaries forced on (the issue's quote)."""
SMOLLM2_INVENTS_A_SENTENCE = (
    "Photosynthesis is a vital process that sustains life on Earth. It involves the conversion of light energy into "
    "chemical energy, which can be used to produce glucose and oxygen through photosynthesis in plants' cells "
    "(chloroplasts)."
)
"""Its second sentence is the passage's; its first is not: the text as a whole passes the share of content words."""
SMOLLM2_INVENTS_MITOCHONDRIA = (
    "Photosynthesis is a vital process that involves plants, algae and bacteria converting light energy into "
    "chemical energy. This conversion of carbon dioxide from the air to glucose using chlorophyll occurs in "
    "chloroplasts within cells where they are found on their thinnest membranes called mitochondria (for "
    "eukaryotic organisms)."
)
SMOLLM2_CHATS = (
    "Here's a revised version of the passage with some suggested edits:\n"
    "Photosynthesis is indeed one such process that involves green plants, algae and certain bacteria converting "
    "light energy into chemical energy."
)
SMOLLM2_ACCEPTED = (
    "The mitochondrion is the organelle where cellular respiration takes place. It breaks down glucose with oxygen "
    "and stores energy in molecules of ATP, which cells use for muscle contraction to power their bodily functions "
    "efficiently"
)
WRITTEN_IN_OTHER_WORDS = (
    "Photosynthesis turns light energy into chemical energy in green plants, algae and some bacteria. "
    "Chlorophyll captures the light, which is used to make glucose and oxygen from water and carbon dioxide."
)
TOO_FREE = "It happens mostly in the chloroplasts of the cells of leaves."
"""True to the passage, but three of its five content words are its own: the check errs towards the quotes."""
PORTUGUESE = (
    "A fotossíntese é o processo pelo qual as plantas verdes, as algas e algumas bactérias transformam a "
    "energia da luz em energia química. A luz é captada pela clorofila e usada para transformar água e gás "
    "carbônico em glicose e oxigênio."
)


def _guard(language: str = "en") -> SectionGuard:
    return SectionGuard(generator=None, language=language)  # type: ignore[arg-type]  # check() asks no model


def test_the_qemu_rambling_is_rejected_as_first_person_narration() -> None:
    assert "first_person" in voice_problems(QEMU_RAMBLING, "en")
    verdict = _guard().check(QEMU_RAMBLING, ["QEMU runs a guest system; the build uses the host's compiler."])
    assert not verdict.ok and "first_person" in verdict.problems


def test_a_summary_with_one_sentence_its_pages_do_not_support_is_rejected_though_the_whole_text_passes() -> None:
    assert grounding(SMOLLM2_INVENTS_A_SENTENCE, [PHOTOSYNTHESIS], "en").ok  # the measure over the whole text
    support = sentence_support(SMOLLM2_INVENTS_A_SENTENCE, [PHOTOSYNTHESIS], "en")
    assert [s.ok for s in support] == [False, True]
    assert "ungrounded" in _guard().check(SMOLLM2_INVENTS_A_SENTENCE, [PHOTOSYNTHESIS]).problems
    invented = sentence_support(SMOLLM2_INVENTS_MITOCHONDRIA, [PHOTOSYNTHESIS], "en")
    assert [s.ok for s in invented] == [True, False]


def test_chatter_and_questions_to_nobody_are_rejected_in_english_and_portuguese() -> None:
    assert voice_problems(SMOLLM2_CHATS, "en") == ("chatter",)
    assert voice_problems("Photosynthesis makes glucose. But where does the oxygen go?", "en") == ("question",)
    assert voice_problems("Claro! Aqui está o resumo: a fotossíntese produz glicose.", "pt") == ("chatter",)
    assert voice_problems("Vou explicar a fotossíntese para você.", "pt") == ("first_person",)
    assert voice_problems("Espero que ajude. A luz é captada pela clorofila.", "pt") == ("chatter",)


def test_summaries_that_stay_with_their_pages_in_the_third_person_are_kept() -> None:
    for text, source, language in (
        (SMOLLM2_ACCEPTED, MITOCHONDRIA, "en"),
        (WRITTEN_IN_OTHER_WORDS, PHOTOSYNTHESIS, "en"),
        (
            "A fotossíntese transforma a energia da luz em energia química nas plantas verdes, nas algas e em "
            "algumas bactérias. A clorofila capta a luz, usada para transformar água e gás carbônico em glicose.",
            PORTUGUESE,
            "pt",
        ),
    ):
        verdict = _guard(language).check(text, [source])
        assert verdict.ok, (text, verdict.problems)
    assert voice_problems("World War I ended in 1918. Part I describes the treaty.", "en") == ()  # numerals


def test_a_short_sentence_in_words_of_its_own_is_not_supported_so_the_check_errs_towards_the_quotes() -> None:
    (free,) = sentence_support(TOO_FREE, [PHOTOSYNTHESIS], "en")
    assert not free.ok and free.grounding.supported == 2 and free.grounding.content_words == 5


def test_a_sentence_is_checked_against_the_pages_it_cites() -> None:
    pages = ["4", "5"]
    text = "Chlorophyll captures light to make glucose and oxygen (p. 5). Mitochondria break down glucose (p. 4)."
    support = sentence_support(text, [MITOCHONDRIA, PHOTOSYNTHESIS], "en", pages)
    assert [s.pages for s in support] == [("5",), ("4",)] and all(s.ok for s in support)
    crossed = "Chlorophyll captures light to make glucose and oxygen (p. 4)."
    (wrong,) = sentence_support(crossed, [MITOCHONDRIA, PHOTOSYNTHESIS], "en", pages)
    assert not wrong.ok  # page 4 is the mitochondria's page


FIRST_PERSON_PHRASE = [
    "Photosynthesis",
    " converts",
    " light",
    " energy",
    " into",
    " chemical",
    " energy.",
    " Here",
    " I",
    " am",
    " running",
    " my",
    " own",
    " build",
    " process.",
]


async def test_a_section_whose_model_narrates_keeps_its_quotes_with_the_reason(tmp_path: Path) -> None:
    model = write_tiny_model(tmp_path / "narrating.gguf", phrase=FIRST_PERSON_PHRASE)
    generator = LlamaCppGenerator(model, n_ctx=2048, n_threads=1, sampling=BUNDLED_SAMPLING)
    guide = await GuideWriter(generator, section_tokens=len(FIRST_PERSON_PHRASE), outline_tokens=300).write(
        PHOTOSYNTHESIS
    )
    (section,) = guide.sections
    assert section.model_text == expected_phrase_reply(FIRST_PERSON_PHRASE, len(FIRST_PERSON_PHRASE))
    assert section.origin == "quotes" and "first_person" in section.problems
    assert "chlorophyll" in section.body and "build process" not in section.body

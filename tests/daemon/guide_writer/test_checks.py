"""The check of generated texts, the second try and the fallback made of quotes — on real sentences and real
models (the tiny deterministic GGUF, one variant that repeats a phrase, and the bundled SmolLM2)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from core.app.settings.config import ModelSettings, SettingsError
from daemon.guide_writer.checks import (
    DICTIONARY_LANGUAGES,
    TextChecker,
    echoed_words,
    longest_copy,
    normalize_sentence,
    split_sentences,
    word_tokens,
)
from daemon.guide_writer.extractive import QUOTES_NOTE, quoted_section, rank_sentences
from daemon.guide_writer.guard import guide_sentence_keys
from daemon.guide_writer.prompts import LANGUAGES, PROMPTS, supported_language
from daemon.guide_writer.writer import GuideWriter
from daemon.llm.base import TextGenerator
from daemon.llm.llamacpp import LlamaCppGenerator
from daemon.llm.models import create_generator
from daemon.llm.sampling import BUNDLED_SAMPLING, retry_sampling, sampling_from
from daemon.readers import read_document
from daemon.readers.language import detect_language as detect_text_language
from devkit.recording import RecordingGenerator
from devkit.tiny_gguf import expected_phrase_reply, write_tiny_model
from tests.daemon.corpus import fetch_corpus

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
# What SmolLM2-135M wrote for a LaTeX cheat sheet in Portuguese at temperature 0.2 (invented words, Spanish).
SMOLLM_GARBLED = (
    'Ao abrir o documente, acesse esta seção "18" do guia de especfície. Criará um exemplario para fazer alguma '
    "diferençao e atribujaros as opcoes encontradas na formadais em tamanho da textura parem com elenclásico que é "
    "amazacro. Vai à mesmo nalizando os linhas inviadores uma mensagere externamentela. Exemplara vamos lá."
)
REPEATING = ["Plants", " make", " sugar", " from", " light,", " water", " and", " air. "]
# A fluent text that says what ``ENGLISH`` says, in other words: it passes every check (each token once: the tiny
# model's successor of a token is one token).
FLUENT = [
    "Green",
    " plants,",
    " algae",
    " and",
    " some",
    " bacteria",
    " turn",
    " light",
    " into",
    " chemical",
    " energy.",
    " Chlorophyll",
    " captures",
    " sunlight,",
    " which",
    " makes",
    " glucose",
    " plus",
    " oxygen",
    " from",
    " water",
    " with",
    " carbon",
    " dioxide,",
    " mostly",
    " inside",
    " chloroplasts",
    " of",
    " leaf",
    " cells.",
]


def test_clean_english_and_portuguese_paragraphs_pass() -> None:
    written_en = (
        "Green plants turn the energy of light into food. Chlorophyll in their leaves captures the light, and the "
        "plant uses it to join water with carbon dioxide. The result is glucose, a sugar, and oxygen, which the "
        "leaves release into the air."
    )
    written_pt = (
        "As plantas verdes transformam a energia da luz em alimento. A clorofila das folhas capta a luz, e a planta "
        "a usa para juntar a água com o gás carbônico. O resultado é a glicose, um açúcar, e o oxigênio, que as "
        "folhas liberam no ar."
    )
    assert TextChecker("en").check(written_en, sources=[ENGLISH]).ok
    result = TextChecker("pt").check(written_pt, sources=[PORTUGUESE])
    assert result.ok, result
    assert result.unknown_words == 0


def test_a_sentence_said_twice_or_already_in_the_guide_fails() -> None:
    checker = TextChecker("en")
    sentence = "Chlorophyll in the leaves captures the light that the plant needs."
    text = f"{sentence} Plants also need water from the soil to grow well. {sentence}"
    assert "repeated_sentence" in checker.check(text).problems
    seen = {normalize_sentence("Plants also need water from the soil to grow well.")}
    assert "repeated_sentence" in checker.check(f"{sentence} Plants also need water from the soil to grow well.",
                                                seen_sentences=seen).problems  # fmt: skip


def test_a_model_looping_on_a_phrase_fails_on_repeated_words() -> None:
    looping = expected_phrase_reply(REPEATING, 40)
    problems = TextChecker("en").check(looping).problems
    assert "repeated_words" in problems
    assert "repeated_sentence" in problems
    # What SmolLM2 wrote for the R manual: a long passage said again, cut before its end (no whole sentence twice).
    said = (
        "The guide gives several ways for users who want more information about R packages, with documentation "
        "on the CRAN sites and examples that make it easy to start even without knowing the environment. "
    )
    looped = "R is a system for statistics and graphics. " + said + said[: len(said) * 2 // 3]
    assert TextChecker("en").check(looped).problems == ("repeated_words",)


def test_invented_portuguese_words_fail_and_proper_nouns_numbers_and_source_words_are_known() -> None:
    checker = TextChecker("pt")
    garbled = checker.check(SMOLLM_GARBLED)
    assert "unknown_words" in garbled.problems
    assert {"especfície", "diferençao", "amazacro"} <= set(checker.unknown_words(SMOLLM_GARBLED))
    known = "O pacote Beamer do LaTeX cria 12 slides com o comando frametitle e o ambiente itemize."
    assert checker.unknown_words(known, sources=["\\frametitle{...} e \\begin{itemize}"]) == []
    assert checker.unknown_words("O comando frametitle cria o título.") == ["frametitle"]


def test_text_in_another_language_than_the_guide_fails() -> None:
    written_en = (
        "Green plants turn the energy of light into food. Chlorophyll in their leaves captures the light, and the "
        "plant uses it to join water with carbon dioxide into glucose and oxygen for the air."
    )
    assert "wrong_language" in TextChecker("pt").check(written_en, sources=[PORTUGUESE]).problems


def test_a_short_text_and_a_long_copy_of_the_source_fail() -> None:
    checker = TextChecker("en")
    assert checker.check("Plants make sugar from light.").problems == ("too_short",)
    copied = f"In short: {ENGLISH}"
    assert longest_copy(word_tokens(copied), [ENGLISH]) == len(word_tokens(ENGLISH))
    assert "copied" in checker.check(copied, sources=[ENGLISH]).problems
    assert "copied" not in checker.check(copied, sources=[ENGLISH], quoted=True).problems


# What a model writes when it says its prompt again instead of the section (SmolLM2-135M did it for R-intro's
# introduction), in English and Portuguese.
ECHO_EN = (
    "You write clear study guides in English, in Markdown. Explain the key ideas, definitions and facts of the "
    "source with short paragraphs and bullet points. R is a system for statistics and graphics."
)
ECHO_PT = (
    "Escreva a seção do guia de estudo em português a partir deste texto. Explique as ideias principais, as "
    "definições e os fatos da fonte. O R é um sistema para estatística e gráficos."
)
R_SOURCE = "R is an integrated suite of software facilities for data manipulation, calculation and graphics."


def test_a_text_that_echoes_its_prompt_fails_and_one_that_quotes_its_passages_does_not() -> None:
    english, portuguese = PROMPTS["en"].section_instructions, PROMPTS["pt"].section_instructions
    assert english[0] == PROMPTS["en"].section_system and "{" not in "".join(english)
    echo = TextChecker("en").check(ECHO_EN, sources=[R_SOURCE], instructions=english)
    assert "echoed_prompt" in echo.problems
    assert echoed_words(word_tokens(ECHO_EN), english) >= 8
    assert "echoed_prompt" in TextChecker("pt").check(ECHO_PT, instructions=portuguese).problems
    # the same texts without the prompt's words to compare with, and a clean text, pass this check
    assert "echoed_prompt" not in TextChecker("en").check(ECHO_EN, sources=[R_SOURCE]).problems
    clean = "Green plants turn the energy of light into food, and the key ideas of the source are plain."
    assert echoed_words(word_tokens(clean), english) == 0
    # a passage that says what the prompt says may be quoted: those words are not an echo
    told = "Explain the key ideas, definitions and facts of the source with short paragraphs and bullet points."
    assert echoed_words(word_tokens(told), english, sources=[f"The manual asks: {told}"]) == 0
    # one run of five words alone is a coincidence, not an echo
    once = "In this part we use only what the source says about vectors, lists and data frames in R."
    assert 0 < echoed_words(word_tokens(once), english) < 8


def test_sentences_are_split_without_markdown_marks() -> None:
    assert split_sentences("## Title\n\n- **First** point. Second one!\n> Quoted `code`?") == [
        "Title",
        "First point.",
        "Second one!",
        "Quoted code?",
    ]


def test_quotes_are_the_central_sentences_in_document_order_with_their_pages_and_never_twice() -> None:
    passages = [
        "Photosynthesis turns light into chemical energy in plants. The weather was nice that day in the park.",
        "Chlorophyll captures the light energy that photosynthesis needs. Plants store the energy as glucose.",
    ]
    sentences = [s for p in passages for s in split_sentences(p)]
    assert rank_sentences(sentences)[-1] == 1  # the off-topic sentence ranks last
    seen: set[str] = set()
    body = quoted_section(passages, language="en", pages=["p. 3", "p. 4"], seen_sentences=seen, max_quotes=2)
    lines = body.split("\n\n")
    assert lines[0] == QUOTES_NOTE["en"]
    assert all(line.startswith("> ") and line.endswith(("(p. 3)", "(p. 4)")) for line in lines[1:])
    assert len(lines) == 2  # ~35 words: one quote
    again = quoted_section(passages, language="en", seen_sentences=seen, max_quotes=2)
    assert not set(guide_sentence_keys(again)) & set(guide_sentence_keys(body))


def test_a_glossarys_references_to_one_section_are_no_repeated_sentences_but_a_repeated_definition_is() -> None:
    glossary = (
        "## Glossary\n\n"
        "- **array**: see the section “5 Arrays and matrices” (p. 26)\n"
        "- **matrix**: see the section “5 Arrays and matrices” (p. 27)\n"
        "- **vetor**: ver a seção “2 Vetores” (pág. 3–4)\n"
        "- **vecteur**: voir la section « 2 Vecteurs » (p. 3)\n"
        "- **factor**: A factor is a vector object used to specify a grouping. A factor is a vector object used "
        "to specify a grouping.\n"
    )
    assert guide_sentence_keys(glossary) == ["a factor is a vector object used to specify a grouping"] * 2


def test_the_second_try_samples_differently() -> None:
    second = retry_sampling(BUNDLED_SAMPLING)
    assert second.repeat_penalty > BUNDLED_SAMPLING.repeat_penalty
    assert second.temperature > BUNDLED_SAMPLING.temperature
    assert second.seed != BUNDLED_SAMPLING.seed
    assert retry_sampling(retry_sampling(second)).temperature <= 0.5


async def test_a_model_that_repeats_itself_is_asked_twice_then_the_section_is_made_of_quotes(tmp_path: Path) -> None:
    model = write_tiny_model(tmp_path / "repeating.gguf", phrase=REPEATING)
    counting = RecordingGenerator(LlamaCppGenerator(model, n_ctx=2048, n_threads=1, sampling=BUNDLED_SAMPLING))
    generator: TextGenerator = counting
    guide = await GuideWriter(generator, section_tokens=60, outline_tokens=300).write(f"{ENGLISH}\n\n{ENGLISH}")
    assert counting.record.chats == 2 * len(guide.sections)
    assert all(s.origin == "quotes" for s in guide.sections)
    assert guide.sections[0].model_text == expected_phrase_reply(REPEATING, 60)
    assert guide.sections[0].body.startswith(f"### Key passages\n\n{QUOTES_NOTE['en']}")
    keys = guide_sentence_keys(guide.markdown)
    assert len(keys) == len(set(keys)) > 0


async def test_a_model_text_that_passes_the_check_goes_into_the_guide_as_written(tmp_path: Path) -> None:
    model = write_tiny_model(tmp_path / "fluent.gguf", phrase=FLUENT)
    counting = RecordingGenerator(LlamaCppGenerator(model, n_ctx=2048, n_threads=1))
    generator: TextGenerator = counting
    guide = await GuideWriter(generator, section_tokens=len(FLUENT), outline_tokens=300).write(ENGLISH)
    (section,) = guide.sections
    assert section.origin == "model"
    assert section.body.startswith("### Summary\n\n" + "".join(FLUENT) + "\n\n### Key terms\n\n")
    assert section.body.endswith("\n\n*Sources: paragraphs 1*")
    assert counting.record.chats == 1


# The English section prompt's system message, one token per piece: a tiny model that says it again.
ECHOING = [
    "You write clear",
    " study guides in",
    " English, in Markdown.",
    " Explain the key ideas,",
    " definitions and facts",
    " of the source with",
    " short paragraphs and",
    " bullet points.",
    " Use only what",
    " the source says. ",
]


async def test_a_model_that_echoes_its_prompt_is_asked_twice_then_the_section_is_made_of_quotes(
    tmp_path: Path,
) -> None:
    assert "".join(ECHOING).strip() == PROMPTS["en"].section_system
    model = write_tiny_model(tmp_path / "echoing.gguf", phrase=ECHOING)
    counting = RecordingGenerator(LlamaCppGenerator(model, n_ctx=2048, n_threads=1))
    generator: TextGenerator = counting
    guide = await GuideWriter(generator, section_tokens=len(ECHOING), outline_tokens=300).write(ENGLISH)
    (section,) = guide.sections
    assert counting.record.chats == 2
    assert section.origin == "quotes" and "echoed_prompt" in section.problems
    assert section.model_text == expected_phrase_reply(ECHOING, len(ECHOING)).strip()
    assert "Explain the key ideas" not in guide.markdown


@pytest.mark.slow
async def test_the_bundled_model_writes_a_portuguese_guide_with_no_sentence_twice_and_no_failing_section() -> None:
    path = fetch_corpus().portuguese_pdf("latexcheat-ptbr/latexsheet-ptbr.pdf")
    document = read_document(path)
    assert document.language == "pt"
    guide = await GuideWriter(create_generator()).write(document.text)
    assert guide.language == "pt"
    keys = guide_sentence_keys(guide.markdown)
    assert [k for k, n in Counter(keys).items() if n > 1] == []
    checker = TextChecker("pt")
    for index, section in enumerate(guide.sections):
        if section.origin == "quotes":
            assert section.body.startswith(f"### Trechos principais\n\n{QUOTES_NOTE['pt']}")
            continue
        others = {k for j, s in enumerate(guide.sections) if j != index for k in guide_sentence_keys(s.body)}
        passages = [document.text[:20_000]]  # the cheat sheet is shorter: every word of it counts as known
        assert checker.check(section.body, sources=passages, seen_sentences=others).ok, section.body


def test_every_guide_language_has_prompts_and_a_dictionary_in_that_language() -> None:
    for language in LANGUAGES:
        prompts = PROMPTS[language]
        said = " ".join([prompts.outline_system, prompts.outline_user, prompts.section_system, prompts.section_user])
        assert detect_text_language(said) in (language, None), language  # short: Spanish is not told for sure
        assert detect_text_language(said * 3) == language, language
        assert language in DICTIONARY_LANGUAGES
    assert supported_language("pt-BR") == "pt" and supported_language("ja") is None


def test_the_settings_give_their_own_sampling_over_the_models_defaults() -> None:
    assert sampling_from(ModelSettings()) is None
    chosen = sampling_from(ModelSettings(temperature=0.5, top_k=20))
    assert chosen == replace(BUNDLED_SAMPLING, temperature=0.5, top_k=20)
    with pytest.raises(SettingsError, match="repeat_penalty"):
        ModelSettings(repeat_penalty=5)

"""The message catalog: every code the daemon stores has a plain sentence in Portuguese and English."""

from __future__ import annotations

import re
import string
from pathlib import Path

from core.app.messages.sentences import CATALOG, has_message, message, normalize_language
from daemon.guide_writer.checks import CHECK_CODES
from daemon.guide_writer.voice import VOICE_CODES
from daemon.jobs.generate import QUOTE_REASONS, _quote_reason
from daemon.llm import errors as llm_errors
from daemon.readers import EXTRACTION_CODES

PROGRESS = (
    "reading_page", "reading_part", "cleaning", "saving", "loading_model", "outlining", "writing_section",
    "exporting", "waiting_retry",
)  # fmt: skip


def llm_codes() -> set[str]:
    classes = [getattr(llm_errors, name) for name in llm_errors.__all__]
    return {cls.code for cls in classes if isinstance(cls, type) and issubclass(cls, Exception)}


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def test_every_error_and_progress_code_has_a_sentence_in_both_languages() -> None:
    codes = {*EXTRACTION_CODES, *llm_codes(), "worker_lost", "timeout", *PROGRESS}
    assert {"model_missing", "server_unreachable", "rate_limited", "context_overflow", "stopped"} <= codes
    assert not [code for code in codes if not has_message(code)]


def test_every_code_the_daemon_asks_for_has_a_sentence() -> None:
    root = Path(__file__).resolve().parents[2]
    asked: set[str] = set()
    for source in [*(root / "daemon").rglob("*.py"), *(root / "core").rglob("*.py")]:
        text = source.read_text(encoding="utf-8")
        asked |= set(re.findall(r'\.text\(\s*"([a-z_]+)"', text))
        asked |= set(re.findall(r'(?<![.\w])(?:message|encode)\(\s*"([a-z_]+)"', text))
        asked |= set(re.findall(r'(?:UserFacingError|ExtractionError)\(\s*"([a-z_]+)"', text))
        for codes in re.findall(r'counter\(\s*\w+\s*,\s*"[a-z_]+"\s*,\s*([^)]*)\)', text):  # (tracker, phase, code)
            asked |= set(re.findall(r'"([a-z_]+)"', codes))
    assert {"worker_lost", "worker_crashed", "internal_error", "reading_page", "writing_section"} <= asked
    assert not sorted(code for code in asked if not has_message(code))


def test_both_languages_have_the_same_entries_with_the_same_placeholders() -> None:
    assert CATALOG["pt_BR"].keys() == CATALOG["en"].keys()
    for key, english in CATALOG["en"].items():
        assert placeholders(CATALOG["pt_BR"][key]) == placeholders(english), key


def test_every_sentence_is_plain() -> None:
    for language, table in CATALOG.items():
        for key, sentence in table.items():
            if key.startswith("model_check_"):  # a terminal table: cells, and lines led by the model's name
                continue
            if key.startswith("count_"):  # a count is a piece of a line ("page 3 of 10 · section 2 of 5")
                assert sentence[:1].islower() and not sentence.endswith((".", "…")), (language, key)
                continue
            assert sentence[:1].isupper() and sentence.endswith((".", "…")), (language, key)
            assert "  " not in sentence and "\n" not in sentence, (language, key)
            assert not re.search(r"\b(exception|traceback|errno|stack)\b", sentence, re.IGNORECASE), (language, key)


def test_progress_messages_fill_in_their_counters() -> None:
    assert message("reading_page", "pt_BR", done=3, total=10) == "Lendo página 3 de 10…"
    assert message("reading_page", "en", done=3, total=10) == "Reading page 3 of 10…"
    assert message("writing_section", "pt_BR", current=2, total=5) == "Escrevendo a seção 2 de 5…"
    assert message("writing_section", "en", current=2, total=5) == "Writing section 2 of 5…"


def test_the_worker_lost_sentence() -> None:
    assert message("worker_lost", "en") == "The program working on this job stopped responding."
    assert message("worker_lost", "pt_BR") == "O programa que estava trabalhando nesta tarefa parou de responder."


def test_a_format_picks_a_sharper_sentence_when_there_is_one() -> None:
    assert message("encrypted", "pt_BR", format="pdf") == (
        "Este PDF está protegido por senha. Remova a senha e adicione o arquivo de novo."
    )
    assert "DRM" in message("encrypted", "en", format="epub")
    assert message("encrypted", "en", format="html") == message("encrypted", "en")


def test_unknown_codes_languages_and_values_never_raise() -> None:
    assert message("no_such_code", "en").startswith("Something went wrong")
    assert message("no_such_code", "pt_BR").startswith("Algo deu errado")
    assert message("reading_page", "fr_FR", done=1, total=2) == "Reading page 1 of 2…"
    assert message("reading_page", "en") == "Reading page {done} of {total}…"
    for spelling in ("pt", "pt-BR", "pt_PT", "Portuguese_Brazil.1252"):
        assert normalize_language(spelling) == "pt_BR"
    assert normalize_language("system") == "en"


def test_every_check_a_section_can_fail_is_named_in_both_languages() -> None:
    assert {*CHECK_CODES, "ungrounded", *VOICE_CODES} == set(QUOTE_REASONS)
    for language in ("en", "pt_BR"):
        generic = message("section_from_quotes", language, number=3, title="Vetores")
        for reason in QUOTE_REASONS:
            named = message("section_from_quotes", language, number=3, title="Vetores", format=reason)
            assert named != generic and "Vetores" in named, (language, reason)


def test_a_section_that_failed_several_checks_is_named_by_the_most_telling_one() -> None:
    assert QUOTE_REASONS[:6] == (
        "echoed_prompt",
        "first_person",
        "chatter",
        "question",
        "ungrounded",
        "repeated_sentence",
    )
    assert QUOTE_REASONS[-1] == "copied"
    assert _quote_reason(("ungrounded", "first_person")) == "first_person"  # it narrated: that says more
    assert _quote_reason(("too_short", "ungrounded", "echoed_prompt")) == "echoed_prompt"
    assert _quote_reason(("copied", "wrong_language", "ungrounded")) == "ungrounded"
    assert _quote_reason(("copied", "repeated_words")) == "repeated_words"
    assert _quote_reason(()) is None


def test_every_error_that_carries_a_message_code_shares_one_base_and_is_stored_and_read_alike() -> None:
    from core.app.messages.sentences import CodedError, render
    from daemon.downloads.hub import DownloadError
    from daemon.jobs.context import UserFacingError
    from daemon.readers.errors import ExtractionError

    errors: list[CodedError] = [
        ExtractionError("encrypted", format="pdf"),
        llm_errors.ServerTimeoutError("the server took too long", detail="read timeout"),
        llm_errors.ModelTooBigError("too big", code="model_too_big", values={"needed_mb": 9000, "available_mb": 4000}),
        DownloadError("model_no_space", transient=True, needed_mb=2000, free_mb=10),
        UserFacingError("no_text"),
    ]
    for error in errors:
        assert isinstance(error, CodedError) and has_message(error.code), error.code
        for language in ("en", "pt_BR"):
            assert (
                render(error.stored(), language)
                == error.user_message(language)
                == message(error.code, language, **error.values)
            )
    assert [e.transient for e in errors] == [False, True, False, True, False]
    assert str(errors[0]) == message("encrypted", "en", format="pdf") and str(errors[1]) == "the server took too long"

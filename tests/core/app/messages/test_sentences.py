"""Stored messages: a code with its values on the row, translated for whoever reads it; plain text stays plain."""

from __future__ import annotations

import json
import re
import string
import uuid
from pathlib import Path

import pytest

from core.app.messages.catalog import EN, PT_BR, adding, general, model, progress, reading
from core.app.messages.sentences import CATALOG, message, render
from core.stored_messages import decode, encode

PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def test_a_stored_message_is_a_compact_json_object_of_its_code_and_values() -> None:
    stored = encode("writing_section", current=2, total=5)
    assert stored == '{"code":"writing_section","values":{"current":2,"total":5}}'
    assert json.loads(stored) == {"code": "writing_section", "values": {"current": 2, "total": 5}}
    assert encode("worker_lost") == '{"code":"worker_lost","values":{}}'


def test_the_same_stored_message_reads_in_each_language() -> None:
    stored = encode("writing_section", current=2, total=5)
    assert render(stored, "en") == "Writing section 2 of 5…"
    assert render(stored, "pt_BR") == "Escrevendo a seção 2 de 5…"
    assert render(stored, "pt") == "Escrevendo a seção 2 de 5…"


def test_values_json_cannot_hold_are_stored_as_text() -> None:
    folder = Path("/tmp/guias")
    job_id = uuid.UUID(int=7)
    stored = encode("output_unwritable", folder=folder, reason=OSError("disk full"), job=job_id)
    found = decode(stored)
    assert found is not None and found.code == "output_unwritable"
    assert dict(found.values) == {"folder": "/tmp/guias", "reason": "disk full", "job": str(job_id)}
    assert render(stored, "en").startswith("StudyJobs could not save the study guide in the folder /tmp/guias (disk")


def test_a_format_value_picks_its_sharper_sentence_after_the_round_trip() -> None:
    stored = encode("encrypted", format="pdf")
    assert render(stored, "en") == "This PDF is password-protected. Remove the password and add the file again."
    assert render(stored, "pt_BR") == message("encrypted", "pt_BR", format="pdf")


def test_text_that_is_not_a_stored_message_is_shown_as_it_is() -> None:
    for plain in (
        "Lendo página 3 de 10…",  # a row written before codes were stored
        "The program working on this job stopped responding.",
        "my own reason",  # a library user's own sentence
        '{"code": 3}',  # JSON that is not a stored message
        '{"code":"x","values":{},"more":1}',
        '{"code":"x","values":[1]}',
        '{"code":"unterminated',
        "",
    ):
        assert decode(plain) is None, plain
        assert render(plain, "en") == plain and render(plain, "pt_BR") == plain
    assert render(None, "en") == ""


def test_a_stored_code_the_catalog_does_not_know_reads_as_the_generic_sentence() -> None:
    stored = encode("from_a_newer_version", n=1)
    assert render(stored, "en").startswith("Something went wrong")
    assert render(stored, "pt_BR").startswith("Algo deu errado")


def test_a_value_missing_from_the_stored_message_is_kept_as_its_placeholder() -> None:
    assert render(encode("reading_page", done=3), "en") == "Reading page 3 of {total}…"


def test_values_named_like_the_lookups_own_arguments_do_not_clash() -> None:
    stored = encode("output_unwritable", code="EACCES", language="fr", folder="/x", reason="no")
    assert render(stored, "en").startswith("StudyJobs could not save the study guide in the folder /x (no)")


@pytest.mark.parametrize("language", ["en", "pt_BR"])
def test_every_catalog_code_reads_without_a_leftover_placeholder_when_given_its_values(language: str) -> None:
    table = CATALOG[language]
    for key in table:
        code, _, variant = key.partition(":")
        values: dict[str, object] = {name: 7 for name in placeholders(table[key])}
        if variant:
            values["format"] = variant
        shown = render(encode(code, **values), language)
        assert shown == table[key].format(**values), key
        assert not PLACEHOLDER.search(shown), (key, shown)
        assert shown != render(encode(code, **values), "pt_BR" if language == "en" else "en"), key


def test_each_code_belongs_to_one_topic_of_the_catalog_in_both_languages() -> None:
    topics = (general, reading, adding, model, progress)
    for topic in topics:
        assert set(topic.EN) == set(topic.PT_BR), topic.__name__
    counted = sum(len(topic.EN) for topic in topics)
    assert counted == len(EN) == len(PT_BR)  # no code in two topics

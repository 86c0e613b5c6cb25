"""API keys: kept in a keyring (a test backend, never the developer's), per server; STUDYJOBS_API_KEY wins; with no
keyring nothing is stored silently; a key in settings.toml moves to the keyring on load; no log line shows a key."""

from __future__ import annotations

import logging

import pytest
import tomli_w

from core.app.logs import configure_logging, redact, reset_logging
from core.app.models.api_keys import (
    SERVICE,
    ApiKeyError,
    KeySource,
    account_for,
    find_api_key,
    keyring_available,
    store_api_key,
)
from core.app.settings.config import load_settings, save_settings

REMOTE = "https://llm.example.org/v1"


def test_a_key_is_kept_per_server_in_the_keyring_and_an_empty_key_removes_it(memory_keyring):
    store_api_key(REMOTE, "sk-remote-1234")
    assert memory_keyring.passwords == {(SERVICE, "https://llm.example.org/v1"): "sk-remote-1234"}
    found = find_api_key("https://LLM.example.org/v1/", env={})
    assert found is not None and found.key == "sk-remote-1234" and found.source is KeySource.KEYRING
    assert "sk-remote" not in repr(found)
    assert find_api_key("http://127.0.0.1:11434/v1", env={}) is None
    store_api_key(REMOTE, "  ")
    assert memory_keyring.passwords == {} and find_api_key(REMOTE, env={}) is None


def test_the_environment_variable_wins_over_the_keyring(memory_keyring):
    store_api_key(REMOTE, "sk-in-keyring")
    found = find_api_key(REMOTE, env={"STUDYJOBS_API_KEY": "sk-from-env"})
    assert found is not None and (found.key, found.source) == ("sk-from-env", KeySource.ENV)


def test_with_no_keyring_storing_a_key_fails_with_a_sentence_that_names_the_variable_and_not_the_key():
    assert not keyring_available()  # the suite's default: keyring's failing backend
    with pytest.raises(ApiKeyError) as raised:
        store_api_key(REMOTE, "sk-nowhere-5678")
    assert "STUDYJOBS_API_KEY" in str(raised.value) and "sk-nowhere" not in str(raised.value)
    assert find_api_key(REMOTE, env={}) is None


def _write(path, document):
    path.write_text(tomli_w.dumps(document), encoding="utf-8")


def test_a_key_in_the_settings_file_moves_to_the_keyring_on_load_and_leaves_the_file(memory_keyring, tmp_path):
    path = tmp_path / "settings.toml"
    _write(
        path,
        {"language": "en", "model": {"kind": "http", "endpoint": REMOTE, "model_name": "m", "api_key": "sk-old-9"}},
    )
    settings = load_settings(path, env={})
    assert settings.model.endpoint == REMOTE and settings.language == "en"
    assert "sk-old-9" not in path.read_text(encoding="utf-8") and "api_key" not in path.read_text(encoding="utf-8")
    assert memory_keyring.passwords == {(SERVICE, account_for(REMOTE)): "sk-old-9"}
    assert load_settings(path, env={}) == settings


def test_with_no_keyring_a_key_in_the_file_stays_there_is_still_used_and_survives_a_save(tmp_path):
    path = tmp_path / "settings.toml"
    _write(path, {"model": {"kind": "http", "endpoint": REMOTE, "model_name": "m", "api_key": "sk-kept-77"}})
    settings = load_settings(path, env={})
    found = find_api_key(REMOTE, settings_path=path, env={})
    assert found is not None and (found.key, found.source) == ("sk-kept-77", KeySource.FILE)
    save_settings(settings)
    assert "sk-kept-77" in path.read_text(encoding="utf-8")


def test_no_log_line_shows_a_registered_key_in_its_message_arguments_or_traceback(tmp_path):
    log_file = configure_logging(tmp_path / "logs", "keytest", stderr_level=None)
    try:
        redact("sk-logged-4242")
        log = logging.getLogger("keytest")
        log.warning("sending %s", "Bearer sk-logged-4242")
        try:
            raise RuntimeError("header Authorization: Bearer sk-logged-4242 refused")
        except RuntimeError:
            log.exception("the request failed with sk-logged-4242")
    finally:
        reset_logging()
    text = log_file.read_text(encoding="utf-8")
    assert "sk-logged-4242" not in text
    assert text.count("***") >= 3 and "RuntimeError: header Authorization: Bearer ***" in text

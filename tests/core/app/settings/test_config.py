"""Settings: defaults, the file, the environment overrides, and errors that say what to fix and where."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import platformdirs
import pytest

from core.app.settings.config import (
    ModelSettings,
    Settings,
    SettingsError,
    detect_system_locale,
    load_settings,
    redact_url,
    resolve_language,
    save_settings,
)


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def env(data_dir: Path) -> dict[str, str]:
    """An environment that keeps every test away from the real user folders."""
    return {"STUDYJOBS_DATA_DIR": str(data_dir)}


def write(data_dir: Path, text: str) -> Path:
    path = data_dir / "settings.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def load_error(data_dir: Path, env: dict[str, str], text: str) -> str:
    write(data_dir, text)
    with pytest.raises(SettingsError) as caught:
        load_settings(env=env)
    return str(caught.value)


def test_without_a_file_every_setting_has_its_default(data_dir, env):
    settings = load_settings(env=env)

    assert settings.data_dir == data_dir
    assert settings.log_dir == data_dir / "logs"
    assert settings.settings_path == data_dir / "settings.toml"
    assert settings.database_url == f"sqlite+aiosqlite:///{data_dir.as_posix()}/studyjobs.db"
    assert settings.broker_url == f"sqlite:///{data_dir.as_posix()}/studyjobs.db", "the queue shares the file"
    assert settings.output_dir == Path(platformdirs.user_documents_dir()) / "StudyJobs"
    assert (settings.language, settings.worker_threads, settings.stale_after) == ("system", 1, 60.0)
    assert (settings.notifications, settings.hide_to_tray, settings.autostart) == (True, True, False)
    assert settings.model == ModelSettings(kind="bundled")
    assert settings.origins == {}
    assert settings == Settings.defaults(data_dir)


def test_without_a_data_dir_variable_the_platform_folders_are_used(tmp_path):
    settings = load_settings(tmp_path / "absent.toml", env={})

    assert settings.data_dir == Path(platformdirs.user_data_dir("StudyJobs", "StudyJobs"))
    assert settings.log_dir == Path(platformdirs.user_log_dir("StudyJobs", "StudyJobs"))
    assert settings.settings_path == tmp_path / "absent.toml"


def test_values_in_the_file_are_read(data_dir, env, tmp_path):
    write(
        data_dir,
        f"""
        database_url = "postgresql://studyjobs:pw@db.lan/studyjobs"
        output_dir = "{(tmp_path / "guias").as_posix()}"
        language = "pt-BR"
        worker_threads = 3
        notifications = false
        hide_to_tray = false
        autostart = true
        stale_after = 120

        [model]
        kind = "gguf"
        gguf_path = "{(tmp_path / "qwen.gguf").as_posix()}"
        n_threads = 4
        """,
    )

    settings = load_settings(env=env)

    assert settings.database_url == "postgresql+asyncpg://studyjobs:pw@db.lan/studyjobs"
    assert settings.broker_url == f"sqlite:///{data_dir.as_posix()}/queue.db", "beside PostgreSQL: its own file"
    assert settings.output_dir == tmp_path / "guias"
    assert (settings.language, settings.worker_threads, settings.stale_after) == ("pt_BR", 3, 120.0)
    assert (settings.notifications, settings.hide_to_tray, settings.autostart) == (False, False, True)
    assert settings.model == ModelSettings(kind="gguf", gguf_path=tmp_path / "qwen.gguf", n_threads=4)
    assert settings.origins["worker_threads"] == "file" and settings.origins["model.kind"] == "file"


def test_a_relative_sqlite_path_is_taken_inside_the_data_dir(data_dir, env):
    write(data_dir, 'database_url = "sqlite:///jobs/main.db"\nbroker_url = "sqlite:///queue.db"\n')

    settings = load_settings(env=env)

    assert settings.database_url == f"sqlite+aiosqlite:///{data_dir.as_posix()}/jobs/main.db"
    assert settings.broker_url == f"sqlite:///{data_dir.as_posix()}/queue.db"


def test_environment_overrides_win_over_the_file(data_dir, env):
    write(data_dir, 'database_url = "sqlite:///file.db"\nbroker_url = "sqlite:///file-queue.db"\n')
    env |= {
        "STUDYJOBS_DATABASE_URL": "postgresql+asyncpg://u@pg.lan/sj",
        "STUDYJOBS_BROKER_URL": "redis://queue.lan:6379/0",
    }

    settings = load_settings(env=env)

    assert settings.database_url == "postgresql+asyncpg://u@pg.lan/sj"
    assert settings.broker_url == "redis://queue.lan:6379/0"
    assert settings.origins["database_url"] == "env:STUDYJOBS_DATABASE_URL"


def test_an_empty_environment_variable_counts_as_unset(data_dir, env):
    settings = load_settings(env=env | {"STUDYJOBS_DATABASE_URL": "", "STUDYJOBS_BROKER_URL": "  "})

    assert settings.database_url.endswith("/studyjobs.db") and settings.origins == {}


def test_malformed_toml_names_the_file_and_the_line(data_dir, env):
    message = load_error(data_dir, env, 'language = "en"\nworker_threads = \n')

    assert str(data_dir / "settings.toml") in message and "line 2" in message and "not valid TOML" in message


def test_an_unknown_key_is_an_error_that_suggests_the_right_one(data_dir, env):
    message = load_error(data_dir, env, "worker_thread = 2\n")

    assert 'unknown setting "worker_thread"' in message and 'did you mean "worker_threads"' in message
    assert str(data_dir / "settings.toml") in message
    assert 'unknown setting "model.n_thread"' in load_error(data_dir, env, "[model]\nn_thread = 2\n")


def test_the_data_dir_cannot_be_set_from_inside_the_file(data_dir, env):
    assert "STUDYJOBS_DATA_DIR" in load_error(data_dir, env, 'data_dir = "/elsewhere"\n')


def test_an_unsupported_database_names_the_setting_the_file_and_what_is_allowed(data_dir, env):
    message = load_error(data_dir, env, 'database_url = "mysql://ana:s3cr3t@db/jobs"\n')

    path = data_dir / "settings.toml"
    assert message == (
        f"database_url in {path}: 'mysql://ana:***@db/jobs' is not supported; "
        "use sqlite+aiosqlite:///… or postgresql+asyncpg://…"
    )


def test_a_bad_environment_variable_is_named_in_the_error(env):
    with pytest.raises(SettingsError, match=r"database_url in environment variable STUDYJOBS_DATABASE_URL"):
        load_settings(env=env | {"STUDYJOBS_DATABASE_URL": "oracle://x/y"})
    with pytest.raises(SettingsError, match=r"broker_url in environment variable STUDYJOBS_BROKER_URL"):
        load_settings(env=env | {"STUDYJOBS_BROKER_URL": "kafka://x"})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('database_url = "sqlite+aiosqlite://"', "needs a file path"),
        ('database_url = ""', "must be non-empty text"),
        ('database_url = "postgresql+asyncpg://host"', "names no database"),
        ('database_url = "not a url"', "is not a database URL"),
        ('broker_url = "redis://"', "names no server"),
        ('broker_url = "sqlite://"', "needs a file path"),
        ('output_dir = "relative/folder"', "must be an absolute path"),
        ('language = "fr"', "use one of 'system', 'pt_BR', 'en'"),
        ("worker_threads = 0", "whole number of at least 1"),
        ('worker_threads = "2"', "whole number of at least 1"),
        ("worker_threads = true", "whole number of at least 1"),
        ('notifications = "yes"', "must be true or false"),
        ("stale_after = 0", "above 0"),
        ('model = "gguf"', "must be a table"),
        ('[model]\nkind = "cloud"', "use one of 'bundled', 'gguf', 'http'"),
        ('[model]\nkind = "gguf"', 'required when model.kind is "gguf"'),
        ('[model]\nkind = "http"', 'required when model.kind is "http"'),
        ('[model]\nkind = "http"\nendpoint = "ftp://x"', "http:// or https://"),
        ("[model]\nn_threads = -1", "whole number of at least 1"),
        ('[model]\nsummaries = "no"', "must be true or false"),
        ("[model]\nunload_after_minutes = -1", "from 0 (never) to 1440 (default 5)"),
        ('[model]\nunload_after_minutes = "5"', "from 0 (never) to 1440 (default 5)"),
    ],
)
def test_each_bad_value_is_refused_with_the_reason(data_dir, env, text, expected):
    message = load_error(data_dir, env, text + "\n")

    assert expected in message
    assert str(data_dir / "settings.toml") in message


def test_the_worker_gives_its_memory_back_after_5_idle_minutes_unless_the_setting_says_otherwise(data_dir, env):
    assert load_settings(env=env).model.unload_after_minutes == 5.0
    write(data_dir, "[model]\nunload_after_minutes = 0\n")
    assert load_settings(env=env).model.unload_after_minutes == 0.0


def test_a_changed_copy_is_validated_too(env):
    settings = load_settings(env=env)

    with pytest.raises(SettingsError, match=r"worker_threads in Settings"):
        dataclasses.replace(settings, worker_threads=0)
    with pytest.raises(SettingsError, match=r"model\.kind in ModelSettings"):
        ModelSettings(kind="cloud")


def test_saved_settings_load_back_equal_and_the_file_holds_only_what_differs(data_dir, env, tmp_path):
    settings = dataclasses.replace(
        load_settings(env=env),
        language="en",
        worker_threads=2,
        output_dir=tmp_path / "guias",
        model=ModelSettings(kind="http", endpoint="http://127.0.0.1:8080/v1", model_name="qwen2.5", summaries=False),
    )

    path = save_settings(settings)

    assert path == data_dir / "settings.toml"
    assert tomllib.loads(path.read_text(encoding="utf-8")) == {
        "output_dir": str(tmp_path / "guias"),
        "language": "en",
        "worker_threads": 2,
        "model": {"kind": "http", "endpoint": "http://127.0.0.1:8080/v1", "model_name": "qwen2.5", "summaries": False},
    }
    assert load_settings(env=env) == settings
    assert [p.name for p in path.parent.iterdir()] == ["settings.toml"], "no temporary file is left behind"


def test_saving_never_writes_an_environment_override_into_the_file(data_dir, env):
    write(data_dir, 'database_url = "sqlite:///mine.db"\n')
    settings = load_settings(env=env | {"STUDYJOBS_DATABASE_URL": "postgresql+asyncpg://u@pg/sj"})

    save_settings(dataclasses.replace(settings, autostart=True))

    saved = tomllib.loads((data_dir / "settings.toml").read_text(encoding="utf-8"))
    assert saved == {"database_url": "sqlite:///mine.db", "autostart": True}


def test_saving_replaces_the_old_file_whole(data_dir, env):
    write(data_dir, "worker_threads = 4\nautostart = true\n")
    settings = load_settings(env=env)

    save_settings(dataclasses.replace(settings, worker_threads=1, autostart=False))

    assert load_settings(env=env).worker_threads == 1
    assert tomllib.loads((data_dir / "settings.toml").read_text()) == {
        "worker_threads": 1,
        "autostart": False,
    }


@pytest.mark.parametrize(
    ("locale_name", "expected"),
    [
        ("pt_BR.UTF-8", "pt_BR"),
        ("pt_PT", "pt_BR"),
        ("Portuguese_Brazil", "pt_BR"),
        ("en_US", "en"),
        ("", "en"),
    ],
)
def test_the_system_language_follows_the_locale(env, locale_name, expected):
    assert load_settings(env=env).user_language(locale_name) == expected


def test_an_explicit_language_ignores_the_locale():
    assert resolve_language("en", "pt_BR") == "en"
    assert resolve_language("pt_BR", "en_US") == "pt_BR"
    with pytest.raises(ValueError, match="not a language"):
        resolve_language("klingon")


def test_the_system_locale_is_read_in_gettext_order():
    assert detect_system_locale({"LANG": "en_US.UTF-8", "LC_ALL": "pt_BR.UTF-8"}) == "pt_BR.UTF-8"
    assert detect_system_locale({"LANGUAGE": "pt_BR:en", "LANG": "en_US"}) == "pt_BR"
    assert detect_system_locale({"LANG": "de_DE"}) == "de_DE"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("redis://:s3cr3t@host:6379/0", "redis://:***@host:6379/0"),
        ("amqp://guest:guest@rabbit/", "amqp://guest:***@rabbit/"),
        ("postgresql+asyncpg://u:p@h/db", "postgresql+asyncpg://u:***@h/db"),
        ("sqlite:////home/ana/db", "sqlite:////home/ana/db"),
        ("not a url", "not a url"),
    ],
)
def test_passwords_are_masked_in_urls_shown_to_people(url, expected):
    assert redact_url(url) == expected


def test_the_hub_address_defaults_to_hugging_face_and_a_mirror_can_be_set(tmp_path: Path) -> None:
    assert Settings.defaults(tmp_path).hub_url == "https://huggingface.co"
    path = tmp_path / "settings.toml"
    path.write_text('hub_url = "http://127.0.0.1:8099/"\n', encoding="utf-8")
    settings = load_settings(path, env={"STUDYJOBS_DATA_DIR": str(tmp_path)})
    assert settings.hub_url == "http://127.0.0.1:8099"
    path.write_text('hub_url = "ftp://mirror"\n', encoding="utf-8")
    with pytest.raises(SettingsError, match="hub_url"):
        load_settings(path, env={"STUDYJOBS_DATA_DIR": str(tmp_path)})


def test_the_context_setting_is_automatic_by_default_and_takes_a_number_of_tokens(tmp_path: Path) -> None:
    env = {"STUDYJOBS_DATA_DIR": str(tmp_path)}
    assert Settings.defaults(tmp_path).model.context == 0
    path = tmp_path / "settings.toml"
    path.write_text("[model]\ncontext = 16384\n", encoding="utf-8")
    settings = load_settings(path, env=env)
    assert settings.model.context == 16384
    save_settings(dataclasses.replace(settings, model=dataclasses.replace(settings.model, context=0)))
    assert load_settings(path, env=env).model.context == 0
    for bad in ("context = 100", "context = -1", 'context = "big"', "context = true"):
        path.write_text(f"[model]\n{bad}\n", encoding="utf-8")
        with pytest.raises(SettingsError, match=r"model\.context"):
            load_settings(path, env=env)

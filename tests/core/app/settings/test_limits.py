"""The ``[limits]`` settings: read, validated, saved; and how an attempt's soft limit follows its expected time."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from core.app.settings.config import Settings, SettingsError, load_settings, save_settings
from core.app.settings.limits import LimitSettings, expected_seconds


def _load(tmp_path: Path, text: str) -> Settings:
    (tmp_path / "settings.toml").write_text(text, encoding="utf-8")
    return load_settings(env={"STUDYJOBS_DATA_DIR": str(tmp_path)})


def test_without_a_limits_table_every_limit_has_its_default(tmp_path: Path) -> None:
    limits = _load(tmp_path, "").limits
    assert limits == LimitSettings()
    assert (limits.ingest_seconds, limits.generate_seconds, limits.times_expected) == (600, 1800, 4)
    assert (limits.grace_seconds, limits.no_progress_seconds, limits.request_seconds) == (60, 300, 900)


def test_the_limits_table_is_read_and_saved_back_with_only_what_differs(tmp_path: Path) -> None:
    settings = _load(tmp_path, "[limits]\ngenerate_seconds = 120\ntimes_expected = 2.5\n")
    assert settings.limits == LimitSettings(generate_seconds=120, times_expected=2.5)
    save_settings(dataclasses.replace(settings, limits=dataclasses.replace(settings.limits, grace_seconds=30)))
    again = load_settings(env={"STUDYJOBS_DATA_DIR": str(tmp_path)})
    assert again.limits == LimitSettings(generate_seconds=120, times_expected=2.5, grace_seconds=30)
    assert "request_seconds" not in (tmp_path / "settings.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[limits]\ngenerate_seconds = 0\n", "limits.generate_seconds in "),
        ("[limits]\ntimes_expected = -1\n", "limits.times_expected in "),
        ('[limits]\ngrace_seconds = "a minute"\n', "must be a number above 0 (default 60)"),
        ("[limits]\ngenerate_second = 10\n", 'did you mean "limits.generate_seconds"'),
        ("limits = 5\n", "must be a table"),
    ],
)
def test_a_wrong_limit_names_the_setting_the_file_and_what_is_allowed(tmp_path: Path, text: str, says: str) -> None:
    with pytest.raises(SettingsError) as caught:
        _load(tmp_path, text)
    assert says in str(caught.value)
    assert "settings.toml" in str(caught.value)


def test_the_soft_limit_is_a_few_times_the_expected_time_never_below_the_floor_of_the_kind() -> None:
    limits = LimitSettings(ingest_seconds=60, generate_seconds=600, times_expected=4)
    assert limits.soft_limit("generate", None) == 600  # nothing known yet: the floor
    assert limits.soft_limit("generate", 100) == 600
    assert limits.soft_limit("generate", 1000) == 4000  # a long document on a slow model gets more
    assert limits.soft_limit("ingest", 30) == 120
    assert limits.soft_limit("ingest", 5) == 60


def test_the_expected_time_is_the_phases_added_up_or_the_workers_own_larger_figure() -> None:
    phases = [{"name": "outline", "seconds": 20.0}, {"name": "sections", "seconds": 30.5}, {"name": "export"}]
    assert expected_seconds(phases, {}) == 50.5
    assert expected_seconds(phases, {"expected_seconds": 200}) == 200
    assert expected_seconds(phases, {"expected_seconds": 10}) == 50.5
    assert expected_seconds([], {"expected_seconds": "soon"}) is None
    assert expected_seconds(None, None) is None

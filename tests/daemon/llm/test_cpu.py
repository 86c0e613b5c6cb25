"""The processor check before a local model loads: an old CPU gets a sentence instead of a SIGILL."""

from __future__ import annotations

import platform

import pytest

from core.app.messages.sentences import message
from daemon.llm.cpu import compiled_features, features_missing, missing_cpu_features, processor_features
from daemon.llm.errors import CPUUnsupportedError

X86 = platform.machine().lower() in ("x86_64", "amd64")


def test_this_machine_has_every_instruction_set_the_installed_llama_cpp_uses() -> None:
    assert missing_cpu_features() == []


@pytest.mark.skipif(not X86, reason="x86 feature flags")
def test_the_processor_and_the_build_are_both_read_on_this_machine() -> None:
    flags = processor_features()

    assert flags is not None and "avx2" in flags
    assert "AVX2" in compiled_features()


def test_a_processor_without_avx2_is_told_what_it_lacks() -> None:
    older = {"sse3", "ssse3", "avx"}  # a 2011 processor: AVX, no AVX2, FMA or F16C

    missing = features_missing({"SSE3", "AVX", "AVX2", "FMA", "F16C", "LLAMAFILE", "OPENMP"}, older)

    assert missing == ["AVX2", "F16C", "FMA"]  # LLAMAFILE and OPENMP are not instruction sets


def test_the_names_of_each_operating_system_count_as_the_feature() -> None:
    mac = {"avx1.0", "avx2", "fma", "f16c", "sse3"}

    assert features_missing({"AVX", "AVX2", "FMA", "F16C", "SSE3"}, mac) == []
    assert features_missing({"SSE3"}, {"pni"}) == []  # Linux calls SSE3 "pni"


def test_a_processor_that_cannot_be_read_is_never_refused() -> None:
    assert features_missing({"AVX2", "AVX512"}, None) == []


@pytest.mark.parametrize("language", ["en", "pt-BR"])
def test_the_user_reads_what_to_do_in_their_language(language: str) -> None:
    text = message(CPUUnsupportedError.code, language)

    assert "AVX2" in text
    assert ("model server" in text) if language == "en" else ("servidor de modelo" in text)

"""A GGUF header is read without its tensors, and read as the ``gguf`` package wrote it."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from gguf import GGUFValueType, GGUFWriter

from core.app.models.gguf_header import SMALL_ARRAY, ArrayInfo, GGUFHeaderError, read_metadata
from devkit.tiny_gguf import write_tiny_model


def _write(path: Path, extra: dict[str, tuple[object, GGUFValueType]]) -> Path:
    writer = GGUFWriter(str(path), "llama")
    for key, (value, kind) in extra.items():
        writer.add_key_value(key, value, kind)
    writer.add_array("test.strings", [f"token {index}" for index in range(20_000)])
    writer.add_array("test.per_layer", [2, 4, 8, 4])
    writer.add_array("test.many", list(range(SMALL_ARRAY + 1)))
    writer.add_tensor("weights", np.ones((64, 64), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def test_every_value_type_the_gguf_package_writes_is_read_back(tmp_path: Path) -> None:
    values: dict[str, tuple[object, GGUFValueType]] = {
        "test.u8": (200, GGUFValueType.UINT8),
        "test.i8": (-100, GGUFValueType.INT8),
        "test.u16": (60_000, GGUFValueType.UINT16),
        "test.i16": (-30_000, GGUFValueType.INT16),
        "test.u32": (4_000_000_000, GGUFValueType.UINT32),
        "test.i32": (-2_000_000_000, GGUFValueType.INT32),
        "test.u64": (1 << 40, GGUFValueType.UINT64),
        "test.i64": (-(1 << 40), GGUFValueType.INT64),
        "test.f32": (0.5, GGUFValueType.FLOAT32),
        "test.f64": (0.1, GGUFValueType.FLOAT64),
        "test.bool": (True, GGUFValueType.BOOL),
        "test.text": ("ação — 模型", GGUFValueType.STRING),
    }
    metadata = read_metadata(_write(tmp_path / "all.gguf", values))
    assert metadata["general.architecture"] == "llama"
    for key, (value, _kind) in values.items():
        assert metadata[key] == value, key
    assert metadata["test.per_layer"] == [2, 4, 8, 4]
    assert metadata["test.strings"] == ArrayInfo(int(GGUFValueType.STRING), 20_000)
    assert metadata["test.many"] == ArrayInfo(int(GGUFValueType.INT32), SMALL_ARRAY + 1)


def test_the_suites_tiny_model_reads_as_written_in_milliseconds(tmp_path: Path) -> None:
    path = write_tiny_model(tmp_path / "tiny.gguf")
    started = time.perf_counter()
    metadata = read_metadata(path)
    assert time.perf_counter() - started < 0.5
    assert metadata["llama.block_count"] == 2 and metadata["llama.context_length"] == 8192
    assert isinstance(metadata["tokenizer.ggml.tokens"], ArrayInfo)


def test_a_file_that_is_not_gguf_or_is_cut_short_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.gguf"
    other.write_bytes(b"PK\x03\x04" + bytes(100))
    with pytest.raises(GGUFHeaderError, match="not a GGUF"):
        read_metadata(other)
    whole = write_tiny_model(tmp_path / "tiny.gguf").read_bytes()
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(whole[:2000])
    with pytest.raises(GGUFHeaderError, match="cut short"):
        read_metadata(cut)


def test_reading_until_a_key_stops_there_and_never_walks_the_rest_of_the_header(tmp_path: Path) -> None:
    whole = write_tiny_model(tmp_path / "tiny.gguf").read_bytes()
    first_keys = tmp_path / "first_keys.gguf"
    first_keys.write_bytes(whole[:200])  # the architecture, and the header cut short right after it
    assert read_metadata(first_keys, until="general.architecture") == {"general.architecture": "llama"}
    with pytest.raises(GGUFHeaderError, match="cut short"):
        read_metadata(first_keys)

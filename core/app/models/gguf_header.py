"""Read a GGUF file's metadata (its key–value header) without reading its tensors: :func:`read_metadata` gives scalars,
strings and small numeric arrays; a long array comes back as :class:`ArrayInfo` (format: docs/design/models.md).

Blocking file reads (milliseconds); safe from any thread.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

__all__ = ["SMALL_ARRAY", "ArrayInfo", "GGUFHeaderError", "read_metadata"]

SMALL_ARRAY = 4096
_MAGIC = b"GGUF"
_CHUNK = 1 << 20
_MAX_KEYS = 1 << 20
_MAX_STRING = 1 << 26
_SCALARS: dict[int, str] = {
    0: "<B",  # uint8
    1: "<b",  # int8
    2: "<H",  # uint16
    3: "<h",  # int16
    4: "<I",  # uint32
    5: "<i",  # int32
    6: "<f",  # float32
    7: "<?",  # bool
    10: "<Q",  # uint64
    11: "<q",  # int64
    12: "<d",  # float64
}
_STRING, _ARRAY = 8, 9


class GGUFHeaderError(ValueError):
    """Not a GGUF file, an unsupported version, or a header cut short or malformed."""


@dataclass(frozen=True, slots=True)
class ArrayInfo:
    """An array whose elements were skipped: its element type (GGUF's number) and length."""

    element_type: int
    count: int


class _Cursor:
    """Sequential little-endian reads over a file through a 1 MiB window."""

    def __init__(self, handle: BinaryIO) -> None:
        self._handle = handle
        self._buffer = b""
        self._pos = 0

    def _need(self, size: int) -> None:
        if self._pos + size <= len(self._buffer):
            return
        rest = self._buffer[self._pos :]
        more = self._handle.read(max(_CHUNK, size - len(rest)))
        self._buffer, self._pos = rest + more, 0
        if len(self._buffer) < size:
            raise GGUFHeaderError("the header is cut short")

    def unpack(self, fmt: str) -> Any:
        size = struct.calcsize(fmt)
        self._need(size)
        (value,) = struct.unpack_from(fmt, self._buffer, self._pos)
        self._pos += size
        return value

    def raw(self, size: int) -> bytes:
        self._need(size)
        data = self._buffer[self._pos : self._pos + size]
        self._pos += size
        return data

    def skip(self, size: int) -> None:
        while size > 0:
            available = len(self._buffer) - self._pos
            if size <= available:
                self._pos += size
                return
            size -= available
            self._buffer, self._pos = b"", 0
            self._need(min(size, _CHUNK))

    def string(self) -> str:
        length = self.unpack("<Q")
        if length > _MAX_STRING:
            raise GGUFHeaderError(f"a string of {length} bytes")
        return self.raw(length).decode("utf-8", errors="replace")


def _value(cursor: _Cursor, kind: int) -> Any:
    if kind in _SCALARS:
        return cursor.unpack(_SCALARS[kind])
    if kind == _STRING:
        return cursor.string()
    if kind != _ARRAY:
        raise GGUFHeaderError(f"unknown value type {kind}")
    element, count = cursor.unpack("<I"), cursor.unpack("<Q")
    if element in _SCALARS:
        size = struct.calcsize(_SCALARS[element])
        if count <= SMALL_ARRAY:
            return [cursor.unpack(_SCALARS[element]) for _ in range(count)]
        cursor.skip(size * count)
        return ArrayInfo(element, count)
    if element == _STRING:
        for _ in range(count):
            cursor.skip(cursor.unpack("<Q"))
        return ArrayInfo(element, count)
    if element == _ARRAY:
        for _ in range(count):
            _value(cursor, _ARRAY)
        return ArrayInfo(element, count)
    raise GGUFHeaderError(f"unknown array element type {element}")


def read_metadata(path: Path, *, until: str | None = None) -> dict[str, Any]:
    """Every key of ``path``'s GGUF header with its value (see the module's rules for arrays); with ``until``, the
    keys up to and including that one only (the walk stops there: a vocabulary after it is not skipped through).

    Raises:
        OSError: The file cannot be opened or read.
        GGUFHeaderError: It is not a GGUF file of version 2 or 3, or its header is malformed.
    """
    with Path(path).open("rb") as handle:
        cursor = _Cursor(handle)
        if cursor.raw(4) != _MAGIC:
            raise GGUFHeaderError("not a GGUF file")
        version = cursor.unpack("<I")
        if version not in (2, 3):
            raise GGUFHeaderError(f"GGUF version {version} (StudyJobs reads versions 2 and 3)")
        cursor.unpack("<Q")  # tensor count
        keys = cursor.unpack("<Q")
        if keys > _MAX_KEYS:
            raise GGUFHeaderError(f"{keys} metadata keys")
        metadata: dict[str, Any] = {}
        for _ in range(keys):
            name = cursor.string()
            metadata[name] = _value(cursor, cursor.unpack("<I"))
            if name == until:
                break
        return metadata

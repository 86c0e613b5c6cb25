"""Zip archives (EPUB, Word) opened with limits, so a hostile archive is refused before it is unpacked.

:func:`open_archive` refuses too many entries, unsafe names and zip bombs; :func:`parse_xml` refuses entity
declarations and external references. Nothing here opens a file or the network. Pure functions and one-owner
objects: thread-safe as long as each archive has one owner. The limits: docs/design/readers.md.
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
import zlib
from collections.abc import Iterable
from xml.etree.ElementTree import Element

import defusedxml  # type: ignore[import-untyped]
import defusedxml.ElementTree  # type: ignore[import-untyped]

from daemon.readers.errors import ExtractionError

__all__ = [
    "MAX_DIRECTORY_BYTES",
    "MAX_ENTRIES",
    "MAX_ENTRY_BYTES",
    "MAX_RATIO",
    "MAX_TOTAL_BYTES",
    "RATIO_FLOOR_BYTES",
    "SafeArchive",
    "open_archive",
    "parse_xml",
    "refuse_xml_declarations",
]

MAX_ENTRIES = 10_000
"""Entries an archive may list (a long illustrated e-book has a few thousand)."""
MAX_DIRECTORY_BYTES = 16 * 1024 * 1024
"""Size of the archive's directory (about 1.6 KiB per entry at :data:`MAX_ENTRIES`)."""
MAX_ENTRY_BYTES = 128 * 1024 * 1024
"""Unpacked size of one entry."""
MAX_TOTAL_BYTES = 512 * 1024 * 1024
"""Unpacked size of all entries together."""
MAX_RATIO = 200
"""Unpacked to packed size of one entry; real text and markup stay well under 50, a zip bomb reaches 1,000."""
RATIO_FLOOR_BYTES = 4 * 1024 * 1024
"""Entries up to this unpacked size may have any ratio (a small, very repetitive part is harmless)."""

_BLOCK = 1024 * 1024
_MIB = 1024 * 1024
_EOCD = b"PK\x05\x06"
_EOCD_SIZE = 22
_ZIP64_LOCATOR = b"PK\x06\x07"
_ZIP64_EOCD = b"PK\x06\x06"
_MAX_COMMENT = 0xFFFF
_DAMAGED = (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, NotImplementedError, RuntimeError)
# "<!DOCTYPE" and "<!ENTITY" in the encodings an XML parser detects by itself (UTF-8, UTF-16, UTF-32).
_KEYWORDS = ("<!DOCTYPE", "<!ENTITY")
_CODECS = ("utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")
_DECLARATION = re.compile(b"|".join(re.escape(k.encode(c)) for k in _KEYWORDS for c in _CODECS))
_OVERLAP = max(len(k.encode(c)) for k in _KEYWORDS for c in _CODECS)


def _megabytes(size: int) -> int:
    return max(1, -(-size // _MIB))


def _too_large(detail: str, limit: int, fmt: str) -> ExtractionError:
    return ExtractionError("archive_too_large", format=fmt, max_mb=_megabytes(limit), detail=detail)


def _directory_record(data: bytes) -> tuple[int, int] | None:
    """``(entries, directory bytes)`` from the end-of-central-directory record (Zip64 when it points there), or
    ``None`` when the archive has no such record."""
    tail_start = max(0, len(data) - _EOCD_SIZE - _MAX_COMMENT)
    at = data.rfind(_EOCD, tail_start)
    if at < 0 or at + _EOCD_SIZE > len(data):
        return None
    entries, directory_size = struct.unpack_from("<HI", data, at + 10)
    locator = at - 20
    if (
        (entries == 0xFFFF or directory_size == 0xFFFFFFFF)
        and locator >= 0
        and data[locator:at].startswith(_ZIP64_LOCATOR)
    ):
        (record,) = struct.unpack_from("<Q", data, locator + 8)
        if data[record : record + 4] == _ZIP64_EOCD and record + 56 <= len(data):
            entries, directory_size = struct.unpack_from("<QQ", data, record + 32)
    return entries, directory_size


def _unsafe_name(name: str) -> bool:
    path = name.replace("\\", "/")
    drive = len(path) >= 2 and path[1] == ":" and path[0].isalpha()
    return path.startswith("/") or drive or "\x00" in path or ".." in path.split("/")


def _check_entries(infos: Iterable[zipfile.ZipInfo], fmt: str) -> None:
    total = 0
    for info in infos:
        if _unsafe_name(info.filename):
            raise ExtractionError("unsafe_names", format=fmt, detail=f"entry name {info.filename!r}")
        size = info.file_size
        if size > MAX_ENTRY_BYTES:
            raise _too_large(f"{info.filename!r} declares {size} bytes", MAX_ENTRY_BYTES, fmt)
        if size > RATIO_FLOOR_BYTES and size > MAX_RATIO * max(info.compress_size, 1):
            detail = f"{info.filename!r} unpacks {size} bytes from {info.compress_size}"
            raise _too_large(detail, MAX_ENTRY_BYTES, fmt)
        total += size
        if total > MAX_TOTAL_BYTES:
            raise _too_large(f"the entries declare more than {total} bytes", MAX_TOTAL_BYTES, fmt)


def open_archive(data: bytes, fmt: str) -> SafeArchive:
    """Open ``data`` as a zip archive after every check of the module docstring.

    Args:
        data: The file's bytes.
        fmt: ``"epub"`` or ``"docx"``, for the error's sentence.

    Raises:
        ExtractionError: ``archive_entries`` (too many entries), ``unsafe_names``, ``archive_too_large``,
            ``truncated`` (the archive's end is missing) or ``corrupt_file`` (:mod:`zipfile` cannot read it).
    """
    record = _directory_record(data)
    if record is None:
        if data.startswith(b"PK\x03\x04"):
            raise ExtractionError("truncated", format=fmt, size=len(data), detail="no end of central directory")
        raise ExtractionError("corrupt_file", format=fmt, detail="no end of central directory")
    entries, directory_size = record
    if entries > MAX_ENTRIES or directory_size > MAX_DIRECTORY_BYTES:
        detail = f"{entries} entries in a directory of {directory_size} bytes"
        raise ExtractionError("archive_entries", format=fmt, count=entries, max_count=MAX_ENTRIES, detail=detail)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except _DAMAGED as exc:
        raise ExtractionError("corrupt_file", format=fmt, detail=f"{type(exc).__name__}: {exc}") from None
    try:
        infos = archive.infolist()
        if len(infos) > MAX_ENTRIES:
            raise ExtractionError(
                "archive_entries", format=fmt, count=len(infos), max_count=MAX_ENTRIES, detail="directory"
            )
        _check_entries(infos, fmt)
    except BaseException:
        archive.close()
        raise
    return SafeArchive(archive, fmt)


class SafeArchive:
    """A checked zip archive (see :func:`open_archive`) whose entries are read within the limits.

    Use it as a context manager or call :meth:`close`. One owner; not thread-safe.
    """

    def __init__(self, archive: zipfile.ZipFile, fmt: str) -> None:
        self.zip = archive
        self.names: list[str] = archive.namelist()
        self._fmt = fmt
        self._unpacked = 0

    def __enter__(self) -> SafeArchive:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the archive."""
        self.zip.close()

    def read(self, name: str) -> bytes:
        """The bytes of entry ``name``, read in blocks and counted against the limits.

        Raises:
            KeyError: No such entry.
            ExtractionError: ``archive_too_large`` when the entry, or everything read so far, unpacks past the
                limits; ``corrupt_file`` when the entry is damaged.
        """
        info = self.zip.getinfo(name)
        limit = min(MAX_ENTRY_BYTES, info.file_size)
        out = bytearray()
        try:
            with self.zip.open(info) as entry:
                while block := entry.read(_BLOCK):
                    out += block
                    self._count(len(block))
                    if len(out) > limit:
                        raise _too_large(f"{name!r} unpacks past {limit} bytes", MAX_ENTRY_BYTES, self._fmt)
        except _DAMAGED as exc:
            detail = f"{name!r}: {type(exc).__name__}: {exc}"
            raise ExtractionError("corrupt_file", format=self._fmt, detail=detail) from None
        return bytes(out)

    def _count(self, size: int) -> None:
        self._unpacked += size
        if self._unpacked > MAX_TOTAL_BYTES:
            raise _too_large(f"more than {MAX_TOTAL_BYTES} bytes unpacked", MAX_TOTAL_BYTES, self._fmt)

    def scan_xml(self, name: str) -> None:
        """Refuse entry ``name`` if it declares a document type or entities (:func:`refuse_xml_declarations`),
        reading it in blocks without keeping it."""
        info = self.zip.getinfo(name)
        tail = b""
        try:
            with self.zip.open(info) as entry:
                while block := entry.read(_BLOCK):
                    self._count(len(block))
                    refuse_xml_declarations(tail + block, self._fmt, name)
                    tail = block[-_OVERLAP:]
        except _DAMAGED as exc:
            detail = f"{name!r}: {type(exc).__name__}: {exc}"
            raise ExtractionError("corrupt_file", format=self._fmt, detail=detail) from None


def refuse_xml_declarations(data: bytes, fmt: str, name: str = "") -> None:
    """Raise ``unsafe_xml`` if ``data`` holds ``<!DOCTYPE`` or ``<!ENTITY`` in UTF-8, UTF-16 or UTF-32.

    For XML handed to a parser we do not configure: a Word document never declares a document type, so any
    declaration (a billion laughs, an external entity) is refused before the parser sees it.
    """
    found = _DECLARATION.search(data)
    if found is not None:
        raise ExtractionError("unsafe_xml", format=fmt, detail=f"{name!r} declares {found.group(0)!r}")


def parse_xml(data: bytes, fmt: str, name: str = "") -> Element:
    """Parse XML with :mod:`defusedxml`: a document type is allowed, entity declarations and external
    references are not.

    Raises:
        ExtractionError: ``unsafe_xml`` for declared entities or external references.
        xml.etree.ElementTree.ParseError: The XML is not well-formed (the caller decides what that means).
    """
    try:
        root: Element = defusedxml.ElementTree.fromstring(data)
    except defusedxml.DefusedXmlException as exc:
        raise ExtractionError("unsafe_xml", format=fmt, detail=f"{name!r}: {type(exc).__name__}: {exc}") from None
    return root

"""The hostile-archive corpus, built at test time (never committed): zip bombs, entity bombs, external entities,
entry names that climb out of the archive, archives of too many entries — in EPUB and Word documents.

:func:`build_hostile_inputs` writes them into a folder and says which code each must raise. A zip bomb's deflate
stream is made from one compressed megabyte of zeros repeated (each block ends with a full flush, so the blocks
are identical), then written with :func:`write_raw_zip`, which also lets an entry declare a false size.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from tests.daemon.readers.samples import PORTUGUESE, write_docx, write_epub
from tests.daemon.readers.support import BadInput

__all__ = [
    "RawEntry",
    "billion_laughs",
    "build_hostile_inputs",
    "deflated_zeros",
    "replace_entries",
    "write_raw_zip",
]

_MIB = 1024 * 1024
CHAPTERS = [(f"Capítulo {n}", f"<p>{paragraph}</p>") for n, paragraph in enumerate(PORTUGUESE[:3], start=1)]


@dataclass(frozen=True)
class RawEntry:
    """A zip entry written as given: ``data`` is already compressed with ``method``; ``size`` and ``crc`` are what
    the headers declare (the truth, or not)."""

    name: str
    data: bytes
    size: int
    crc: int
    method: int = zipfile.ZIP_DEFLATED

    @classmethod
    def stored(cls, name: str, content: bytes) -> RawEntry:
        return cls(name, content, len(content), zlib.crc32(content), zipfile.ZIP_STORED)

    @classmethod
    def deflated(cls, name: str, content: bytes) -> RawEntry:
        packer = zlib.compressobj(9, zlib.DEFLATED, -15)
        return cls(name, packer.compress(content) + packer.flush(), len(content), zlib.crc32(content))


def deflated_zeros(megabytes: int) -> tuple[bytes, int]:
    """A raw deflate stream of ``megabytes`` MiB of zeros (about 1 KiB per MiB) and the zeros' CRC-32."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    zeros = bytes(_MIB)
    first = packer.compress(zeros) + packer.flush(zlib.Z_FULL_FLUSH)
    block = packer.compress(zeros) + packer.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(megabytes):
        crc = zlib.crc32(zeros, crc)
    return first + block * (megabytes - 1) + packer.flush(), crc


def write_raw_zip(path: Path, entries: list[RawEntry]) -> Path:
    """Write a zip archive byte by byte (local headers, data, central directory, end record)."""
    body, directory = bytearray(), bytearray()
    for entry in entries:
        name = entry.name.encode("utf-8")
        offset = len(body)
        sizes = (entry.crc, len(entry.data), entry.size, len(name), 0)
        body += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0x800, entry.method, 0, 0x21, *sizes) + name
        body += entry.data
        directory += struct.pack(
            "<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0x800, entry.method, 0, 0x21, *sizes, 0, 0, 0, 0, offset
        )
        directory += name
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(directory), len(body), 0)
    path.write_bytes(bytes(body + directory + end))
    return path


def replace_entries(
    source: Path, target: Path, replaced: dict[str, RawEntry], added: list[RawEntry] | None = None
) -> Path:
    """Copy ``source``'s entries into ``target``, swapping those named in ``replaced`` and adding ``added``."""
    entries: list[RawEntry] = []
    with zipfile.ZipFile(source) as archive:
        for info in archive.infolist():
            if info.filename in replaced:
                entries.append(replaced[info.filename])
            else:
                entries.append(RawEntry.deflated(info.filename, archive.read(info)))
    return write_raw_zip(target, [*entries, *(added or [])])


def billion_laughs(root: str, namespace: str, levels: int = 9) -> bytes:
    """An XML document whose entities expand ten-fold per level (1 GB of "lol" at nine levels)."""
    entities = ['<!ENTITY lol0 "lol">']
    entities += [f'<!ENTITY lol{n} "{f"&lol{n - 1};" * 10}">' for n in range(1, levels + 1)]
    return (
        f'<?xml version="1.0"?>\n<!DOCTYPE {root} [{"".join(entities)}]>\n'
        f'<{root} xmlns="{namespace}">&lol{levels};</{root}>'
    ).encode()


_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_OPF = "http://www.idpf.org/2007/opf"


def external_entity_docx(source: Path, target: Path, system_id: str, codec: str = "utf-8") -> Path:
    """``source`` with a body that pulls ``system_id`` in through an external entity."""
    document = (
        f'<?xml version="1.0" encoding="{codec.upper()}"?>\n<!DOCTYPE w:document [<!ENTITY xxe SYSTEM "{system_id}">]>'
        f'<w:document xmlns:w="{_W}"><w:body><w:p><w:r><w:t>&xxe;</w:t></w:r></w:p></w:body></w:document>'
    ).encode(codec)
    return replace_entries(source, target, {"word/document.xml": RawEntry.deflated("word/document.xml", document)})


def external_entity_epub(source: Path, target: Path, system_id: str) -> Path:
    """``source`` whose package document pulls ``system_id`` in through an external entity."""
    package = (
        f'<?xml version="1.0"?>\n<!DOCTYPE package [<!ENTITY xxe SYSTEM "{system_id}">]>'
        f'<package xmlns="{_OPF}" version="3.0"><metadata><title>&xxe;</title></metadata></package>'
    ).encode()
    return replace_entries(source, target, {"OEBPS/content.opf": RawEntry.deflated("OEBPS/content.opf", package)})


def disguised_as_bin(source: Path, target: Path, body: bytes) -> Path:
    """``source`` whose main part is ``word/document.bin`` holding ``body``, made XML only by a ``Default``
    content type for the extension ``bin`` (no ``Override`` names it, and its name does not end in ``.xml``)."""
    with zipfile.ZipFile(source) as archive:
        types = archive.read("[Content_Types].xml").decode()
        relations = archive.read("_rels/.rels").replace(b"word/document.xml", b"word/document.bin")
        document_relations = archive.read("word/_rels/document.xml.rels")
    main = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
    types = types.replace(f'<Override PartName="/word/document.xml" ContentType="{main}"/>', "")
    types = types.replace("<Default ", f'<Default Extension="bin" ContentType="{main}"/><Default ', 1)
    assert "/word/document.xml" not in types and 'Extension="bin"' in types
    renamed = {
        "[Content_Types].xml": RawEntry.deflated("[Content_Types].xml", types.encode()),
        "_rels/.rels": RawEntry.deflated("_rels/.rels", relations),
    }
    added = [
        RawEntry.deflated("word/document.bin", body),
        RawEntry.deflated("word/_rels/document.bin.rels", document_relations),
    ]
    return replace_entries(source, target, renamed, added)  # word/document.xml stays, a decoy nothing points to


def build_hostile_inputs(folder: Path) -> list[BadInput]:
    """Write the hostile corpus into ``folder``; every entry names the code it must raise."""
    folder.mkdir(parents=True, exist_ok=True)
    good_epub = write_epub(folder / "good-for-hostile.epub", title="Água", language="pt-BR", chapters=CHAPTERS)
    good_docx = write_docx(folder / "good-for-hostile.docx", paragraphs=PORTUGUESE, title="Água")
    bomb, bomb_crc = deflated_zeros(1024)  # 1 GiB of zeros in about 1 MiB
    ratio_bomb, ratio_crc = deflated_zeros(100)  # under the entry limit, a thousand times its packed size
    bad: list[BadInput] = []

    def add(name: str, code: str) -> Path:
        path = folder / name
        bad.append(BadInput(name, path, code))
        return path

    chapter, body = "OEBPS/text/ch1.xhtml", "word/document.xml"
    replace_entries(
        good_epub, add("zip-bomb.epub", "archive_too_large"), {chapter: RawEntry(chapter, bomb, 1024 * _MIB, bomb_crc)}
    )
    replace_entries(
        good_docx, add("zip-bomb.docx", "archive_too_large"), {body: RawEntry(body, bomb, 1024 * _MIB, bomb_crc)}
    )
    replace_entries(
        good_epub,
        add("ratio-bomb.epub", "archive_too_large"),
        {chapter: RawEntry(chapter, ratio_bomb, 100 * _MIB, ratio_crc)},
    )
    replace_entries(
        good_docx,
        add("ratio-bomb.docx", "archive_too_large"),
        {body: RawEntry(body, ratio_bomb, 100 * _MIB, ratio_crc)},
    )
    # A bomb that declares one small megabyte: it is unpacked only to what it declares, then its checksum fails.
    replace_entries(
        good_epub, add("false-size-bomb.epub", "corrupt_file"), {chapter: RawEntry(chapter, bomb, _MIB, bomb_crc)}
    )
    replace_entries(
        good_docx, add("false-size-bomb.docx", "corrupt_file"), {body: RawEntry(body, bomb, _MIB, bomb_crc)}
    )
    laughs_opf = billion_laughs("package", _OPF)
    replace_entries(
        good_epub,
        add("billion-laughs.epub", "unsafe_xml"),
        {"OEBPS/content.opf": RawEntry.deflated("OEBPS/content.opf", laughs_opf)},
    )
    laughs_docx = billion_laughs("w:document", _W).replace(b'xmlns="', b'xmlns:w="')
    replace_entries(good_docx, add("billion-laughs.docx", "unsafe_xml"), {body: RawEntry.deflated(body, laughs_docx)})
    disguised_as_bin(good_docx, add("disguised-part.docx", "unsafe_xml"), laughs_docx)
    external_entity_docx(good_docx, add("external-entity.docx", "unsafe_xml"), "file:///etc/passwd")
    external_entity_docx(good_docx, add("external-entity-utf16.docx", "unsafe_xml"), "file:///etc/passwd", "utf-16")
    external_entity_epub(good_epub, add("external-entity.epub", "unsafe_xml"), "file:///etc/passwd")
    evil = RawEntry.deflated("../../outside.xhtml", b"<html><body><p>outside</p></body></html>")
    replace_entries(good_epub, add("dot-dot-names.epub", "unsafe_names"), {}, [evil])
    absolute = RawEntry.deflated("/etc/cron.d/book", b"* * * * * root true")
    replace_entries(good_docx, add("absolute-name.docx", "unsafe_names"), {}, [absolute])
    # Five entries of 120 MiB that each stay under the ratio limit (their packed data is padded after the end of
    # the deflate stream), so only the limit on the total stops them.
    padded_bomb, padded_crc = deflated_zeros(120)
    padded_bomb += bytes(700 * 1024)
    parts = [RawEntry(f"OEBPS/images/{n}.svg", padded_bomb, 120 * _MIB, padded_crc) for n in range(5)]
    replace_entries(good_epub, add("total-bomb.epub", "archive_too_large"), {}, parts)
    many = [RawEntry.stored(f"OEBPS/images/{n}.txt", b"x") for n in range(10_001)]
    replace_entries(good_epub, add("too-many-entries.epub", "archive_entries"), {}, many)
    return bad

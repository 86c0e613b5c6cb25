"""The bad-input corpus, built at test time from the real corpus and from :mod:`samples`' documents.

:func:`build_bad_inputs` writes every damaged, protected, empty, mislabelled or text-less document into a folder
and says which :class:`~daemon.readers.errors.ExtractionError` code each must raise (the hostile archives of
:mod:`tests.daemon.readers.hostile` and the hostile PDFs of :mod:`tests.daemon.readers.hostile_pdf` included).
Later reliability tests can use it the same way: ``build_bad_inputs(fetch_corpus(), folder)``.
"""

from __future__ import annotations

import io
import random
import re
import zipfile
from pathlib import Path

import msoffcrypto.format.ooxml
import pypdf
import pypdfium2 as pdfium

from daemon.readers.formats.pdf import PDFIUM_LOCK
from tests.daemon.corpus import Corpus
from tests.daemon.readers.hostile import build_hostile_inputs
from tests.daemon.readers.hostile_pdf import build_hostile_pdfs
from tests.daemon.readers.samples import ENGLISH, PORTUGUESE, write_docx, write_epub
from tests.daemon.readers.support import BadInput

__all__ = [
    "PDF_ENCRYPTIONS",
    "BadInput",
    "bitrot_pdf_stream",
    "bitrot_zip_member",
    "build_bad_inputs",
    "encrypt_docx",
    "encrypt_pdf",
    "image_only_pdf",
]

PDF_ENCRYPTIONS = ("RC4-40", "RC4-128", "AES-128", "AES-256")
"""The schemes :func:`encrypt_pdf` uses (pypdf's names)."""

PYPDF_ENCRYPTED = (
    "encryption/r2-user-password.pdf",  # RC4 40-bit
    "encryption/r3-user-password.pdf",  # RC4 128-bit
    "encryption/r4-user-password.pdf",  # RC4 128-bit, revision 4
    "encryption/r4-aes-user-password.pdf",  # AES-128
    "encryption/r5-user-password.pdf",  # AES-256, revision 5
    "encryption/r6-user-password.pdf",  # AES-256, revision 6
    "encryption/r6-both-passwords.pdf",
    "encryption/r6-cleartext-metadata.pdf",
    "crazyones-encrypted-256.pdf",
    "encrypted-file.pdf",
    "libreoffice-writer-password.pdf",  # made by LibreOffice Writer
)
"""pypdf's PDFs that need a user password."""


def truncated(source: Path, target: Path, fraction: float) -> Path:
    """The first ``fraction`` of ``source``'s bytes (an interrupted download: refused with ``truncated``)."""
    data = source.read_bytes()
    target.write_bytes(data[: int(len(data) * fraction)])
    return target


def _flip(data: bytes, start: int, count: int) -> bytes:
    damaged = bytearray(data)
    for offset in range(start, min(start + count, len(damaged))):
        damaged[offset] ^= 0xA5
    return bytes(damaged)


def bitrot_pdf_stream(source: Path, target: Path, count: int = 64) -> Path:
    """``source`` with ``count`` bytes flipped in the middle of the compressed stream nearest the middle of the
    file (bit rot in page content, which PDFium alone would not notice)."""
    data = source.read_bytes()
    starts = [match.end() for match in re.finditer(rb">>\s*stream\r?\n", data) if data[match.end()] == 0x78]
    start = min(starts, key=lambda offset: abs(offset - len(data) // 2))
    end = data.index(b"endstream", start)
    target.write_bytes(_flip(data, (start + end - count) // 2, count))
    return target


def bitrot_zip_member(source: Path, target: Path, member: str, count: int = 16) -> Path:
    """``source`` (a zip) with ``count`` bytes flipped in the middle of ``member``'s compressed data."""
    data = source.read_bytes()
    with zipfile.ZipFile(source) as archive:
        info = archive.getinfo(member)
    header = info.header_offset
    name_length = int.from_bytes(data[header + 26 : header + 28], "little")
    extra_length = int.from_bytes(data[header + 28 : header + 30], "little")
    start = header + 30 + name_length + extra_length
    target.write_bytes(_flip(data, start + (info.compress_size - count) // 2, count))
    return target


def image_only_pdf(source: Path, target: Path, pages: int = 3) -> Path:
    """A "scanned" PDF: the first ``pages`` pages of ``source`` rendered to pictures, with no text layer."""
    with PDFIUM_LOCK:
        original, scan = pdfium.PdfDocument(source), pdfium.PdfDocument.new()
        try:
            for index in range(pages):
                page = original[index]
                width, height = page.get_size()
                bitmap = page.render(scale=1.0)
                new_page = scan.new_page(width, height)
                image = pdfium.PdfImage.new(scan)
                image.set_bitmap(bitmap)
                image.set_matrix(pdfium.PdfMatrix().scale(width, height))
                new_page.insert_obj(image)
                new_page.gen_content()
                for thing in (image, new_page, bitmap, page):
                    thing.close()
            buffer = io.BytesIO()
            scan.save(buffer)
        finally:
            scan.close()
            original.close()
    target.write_bytes(buffer.getvalue())
    return target


def encrypt_pdf(source: Path, target: Path, algorithm: str, user_password: str = "senha-secreta") -> Path:
    """``source`` encrypted by pypdf with ``algorithm`` (see :data:`PDF_ENCRYPTIONS`) and a user password."""
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(source))
    writer.encrypt(user_password=user_password, owner_password="dono", algorithm=algorithm)
    with target.open("wb") as handle:
        writer.write(handle)
    return target


def encrypt_docx(source: Path, target: Path, password: str = "senha-secreta") -> Path:
    """``source`` (a .docx) saved as Word saves a password-protected document (an OLE container)."""
    with source.open("rb") as plain, target.open("wb") as protected:
        msoffcrypto.format.ooxml.OOXMLFile(plain).encrypt(password, protected)
    return target


def _zip(target: Path, members: dict[str, str]) -> Path:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return target


def build_bad_inputs(corpus: Corpus, folder: Path) -> list[BadInput]:
    """Write the bad-input corpus into ``folder``; every entry names the code it must raise."""
    folder.mkdir(parents=True, exist_ok=True)
    bad: list[BadInput] = []

    def add(name: str, code: str, path: Path | None = None) -> Path:
        path = path or folder / name
        bad.append(BadInput(name, path, code))
        return path

    intro, faq = corpus.r_manual("R-intro"), corpus.r_manual("R-FAQ")
    add("empty.pdf", "empty_file").write_bytes(b"")
    add("empty.txt", "empty_file").write_bytes(b"")
    truncated(intro, add("truncated.pdf", "truncated"), 0.5)
    truncated(faq, add("truncated-head.pdf", "truncated"), 0.01)
    bitrot_pdf_stream(intro, add("bitrot.pdf", "corrupt_file"))
    bitrot_pdf_stream(corpus.amc_manual("en"), add("bitrot-amc.pdf", "corrupt_file"))
    add("random.pdf", "not_a_pdf").write_bytes(random.Random(7).randbytes(64 * 1024))
    add("text.pdf", "not_a_pdf").write_text("\n\n".join(PORTUGUESE), encoding="utf-8")
    add("webpage.pdf", "not_a_pdf").write_text("<html><body><p>Not a PDF</p></body></html>", encoding="utf-8")
    for name in PYPDF_ENCRYPTED:
        add(f"pypdf-{Path(name).name}", "encrypted", corpus.pypdf(name))
    for algorithm in PDF_ENCRYPTIONS:
        encrypt_pdf(corpus.camlidl_pdf, add(f"camlidl-{algorithm.lower()}.pdf", "encrypted"), algorithm)
    for name in ("imagemagick-lzw.pdf", "imagemagick-CCITTFaxDecode.pdf"):
        add(f"pypdf-{name}", "no_text", corpus.pypdf(name))

    good_docx = write_docx(folder / "good.docx", paragraphs=PORTUGUESE, title="O ciclo da água")
    truncated(good_docx, add("truncated.docx", "truncated"), 0.5)
    bitrot_zip_member(good_docx, add("bitrot.docx", "corrupt_file"), "word/document.xml")
    encrypt_docx(good_docx, add("encrypted.docx", "encrypted"))
    write_docx(add("no-text.docx", "no_text"), paragraphs=["", "   "])
    _zip(add("spreadsheet.docx", "unsupported_format"), {"[Content_Types].xml": "<Types/>", "xl/workbook.xml": "<w/>"})
    _zip(add("plain-zip.docx", "corrupt_file"), {"notes.txt": "just a zip"})
    add("text.docx", "wrong_format").write_text("\n".join(ENGLISH), encoding="utf-8")
    add("text.epub", "wrong_format").write_text("\n".join(PORTUGUESE), encoding="utf-8")
    add("zeros.pdf", "zero_filled").write_bytes(bytes(256 * 1024))  # a download that reserved space, then died
    add("zeros.epub", "zero_filled").write_bytes(bytes(4096))

    chapters = [(f"Capítulo {n}", f"<p>{paragraph}</p>") for n, paragraph in enumerate(PORTUGUESE, start=1)]
    good_epub = write_epub(folder / "good.epub", title="O ciclo da água", language="pt-BR", chapters=chapters)
    truncated(good_epub, add("truncated.epub", "truncated"), 0.6)
    bitrot_zip_member(good_epub, add("bitrot.epub", "corrupt_file"), "OEBPS/text/ch3.xhtml")
    write_epub(add("drm.epub", "encrypted"), title="T", language="pt", chapters=chapters, encrypted_chapters=True)
    write_epub(add("adobe-drm.epub", "encrypted"), title="T", language="pt", chapters=chapters, rights_file=True)
    with zipfile.ZipFile(good_epub) as source, zipfile.ZipFile(add("no-package.epub", "corrupt_file"), "w") as out:
        for info in source.infolist():
            if info.filename != "OEBPS/content.opf":
                out.writestr(info, source.read(info))
    with zipfile.ZipFile(good_epub) as source, zipfile.ZipFile(add("missing-chapter.epub", "corrupt_file"), "w") as out:
        for info in source.infolist():
            if info.filename != "OEBPS/text/ch4.xhtml":
                out.writestr(info, source.read(info))

    add("blank.txt", "no_text").write_text(" \n\n\t\n", encoding="utf-8")
    add("binary.txt", "unsupported_format").write_bytes(b"\x89PNG\r\n\x1a\n" + random.Random(3).randbytes(4096))
    add("script-only.html", "no_text").write_text(
        "<html><head><style>p{}</style></head><body><script>var a = 'texto';</script></body></html>", "utf-8"
    )
    add("notes.rtf", "unsupported_format").write_text(r"{\rtf1\ansi Notas de aula}", encoding="utf-8")
    add("picture.png", "unsupported_format").write_bytes(b"\x89PNG\r\n\x1a\n" + random.Random(5).randbytes(2048))
    bad += build_hostile_inputs(folder / "hostile")
    bad += build_hostile_pdfs(folder / "hostile-pdfs")
    return bad

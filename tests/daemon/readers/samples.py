"""Documents made at test time: good ones in Portuguese and English, and writers for PDF, DOCX and EPUB.

The PDF writer is a small hand-made one (Helvetica, Windows-1252, Flate-compressed pages) so that the tests know
every line on every page; DOCX files come from python-docx; EPUB files are zipped by hand. The damaged
documents built from these and from the real corpus are in ``badfiles.py``.
"""

from __future__ import annotations

import textwrap
import zipfile
import zlib
from collections.abc import Sequence
from html import escape
from pathlib import Path

import docx
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls

PORTUGUESE = [
    "O ciclo da água descreve o caminho que a água percorre entre os oceanos, a atmosfera e os continentes. "
    "Ele não tem começo nem fim: a mesma água que hoje está em um rio já foi nuvem, geleira e chuva.",
    "A evaporação acontece quando o calor do Sol aquece a superfície dos mares, dos lagos e dos rios. "
    "Uma parte da água passa para o estado gasoso e sobe para a atmosfera, onde encontra temperaturas "
    "mais baixas.",
    "Na atmosfera, o vapor se resfria e se transforma em pequenas gotas, que formam as nuvens. Esse "
    "processo é chamado de condensação e depende também da poeira que existe no ar.",
    "Quando as gotas ficam pesadas demais, elas caem como chuva, neve ou granizo. A precipitação devolve a "
    "água para a superfície, onde ela pode escorrer até os rios ou se infiltrar no solo.",
    "A água que se infiltra abastece os lençóis freáticos e os aquíferos, que são reservas subterrâneas muito "
    "importantes para o abastecimento das cidades e para a agricultura.",
    "As plantas também participam do ciclo: elas retiram água do solo pelas raízes e liberam vapor pelas "
    "folhas. Esse fenômeno, a transpiração, ajuda a manter a umidade do ar nas florestas.",
]
"""Six paragraphs of Portuguese prose (the water cycle)."""

ENGLISH = [
    "Photosynthesis is the process by which plants, algae and some bacteria turn the energy of light into "
    "chemical energy. It takes place mostly in the leaves, inside small structures called chloroplasts.",
    "During the light reactions, water molecules are split and oxygen is released into the air. The energy "
    "that is captured is stored for a short time in two carrier molecules.",
    "In the second stage, which does not need light directly, the plant uses that stored energy to build "
    "sugars from the carbon dioxide it takes from the atmosphere.",
    "Almost all life on Earth depends on this process, because it produces the oxygen we breathe and the "
    "food at the base of nearly every food chain.",
]
"""Four paragraphs of English prose (photosynthesis)."""

PDF_WIDTH = 80
"""Characters per line in :func:`write_text_pdf` (Helvetica 10 pt on a US Letter page)."""


def wrap(paragraph: str, width: int = PDF_WIDTH) -> list[str]:
    """``paragraph`` as lines of at most ``width`` characters."""
    return textwrap.wrap(paragraph, width=width, break_long_words=False, break_on_hyphens=False)


def hyphenate(lines: list[str]) -> list[str]:
    """``lines`` with the first long word that starts a line split across the line before it with a hyphen, as a
    typesetter would do it (``conden-`` / ``sação``)."""
    for index in range(len(lines) - 1):
        word, _, rest = lines[index + 1].partition(" ")
        letters = word.rstrip(",.;:")
        if len(letters) >= 6 and letters.isalpha() and letters.islower():
            changed = list(lines)
            changed[index] = f"{lines[index]} {word[: len(letters) // 2]}-"
            changed[index + 1] = f"{word[len(letters) // 2 :]} {rest}".strip()
            return changed
    raise ValueError("no line starts with a long lower-case word")


def _pdf_string(text: str) -> bytes:
    raw = text.encode("cp1252")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def _pdf_text_string(text: str) -> bytes:
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode("ascii") + b">"


def write_text_pdf(
    path: Path,
    pages: Sequence[Sequence[Sequence[str]]],
    *,
    title: str | None = None,
    header: str | None = None,
    footer: str | None = None,
) -> Path:
    """Write a PDF whose pages hold the given paragraphs, each a list of lines.

    Args:
        pages: Per page, per paragraph, its lines (see :func:`wrap`); paragraphs are set apart by a blank line.
        title: The document information's ``/Title``.
        header: A running header on every page (``{page}`` and ``{pages}`` are filled in).
        footer: A running footer on every page (same placeholders), e.g. ``"Página {page} de {pages}"``.
    """
    count = len(pages)
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"",  # the page tree, filled in below
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    kids: list[int] = []
    for number, paragraphs in enumerate(pages, start=1):
        ops = [b"BT /F1 10 Tf 14 TL 72 740 Td"]
        for paragraph in paragraphs:
            ops.extend(_pdf_string(line) + b" Tj T*" for line in paragraph)
            ops.append(b"T*")
        ops.append(b"ET")
        for text, y in ((header, 770), (footer, 40)):
            if text:
                filled = text.format(page=number, pages=count)
                ops.append(b"BT /F1 9 Tf 72 %d Td " % y + _pdf_string(filled) + b" Tj ET")
        stream = zlib.compress(b"\n".join(ops))
        objects.append(b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream")
        content = len(objects)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % content
        )
        kids.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % k for k in kids), count)
    info = b"<< /Producer (StudyJobs tests)" + (b" /Title " + _pdf_text_string(title) if title else b"") + b" >>"
    objects.append(info)
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\n" % (len(objects) + 1, len(objects))
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    path.write_bytes(bytes(out))
    return path


def write_docx(
    path: Path,
    *,
    paragraphs: Sequence[str],
    title: str | None = None,
    heading: str | None = None,
    table: Sequence[Sequence[str]] | None = None,
    in_content_control: str | None = None,
    language: str | None = None,
) -> Path:
    """Write a Word document: an optional *Heading 1*, the paragraphs, an optional table, and an optional
    paragraph wrapped in a content control (``w:sdt``) at the end."""
    document = docx.Document()
    if title is not None:
        document.core_properties.title = title
    if language is not None:
        document.core_properties.language = language
    if heading is not None:
        document.add_heading(heading, level=1)
    for paragraph in paragraphs:
        document.add_paragraph(paragraph)
    if table is not None:
        grid = document.add_table(rows=len(table), cols=len(table[0]))
        for row, values in zip(grid.rows, table, strict=True):
            for cell, value in zip(row.cells, values, strict=True):
                cell.text = value
    if in_content_control is not None:
        body = document.element.body
        sdt = parse_xml(
            f"<w:sdt {nsdecls('w')}><w:sdtContent><w:p><w:r><w:t>{escape(in_content_control)}</w:t></w:r></w:p>"
            "</w:sdtContent></w:sdt>"
        )
        body.insert(len(body) - 1, sdt)  # before the section properties, which stay last
    document.save(str(path))
    return path


_CONTAINER = """<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>"""


def _xhtml(title: str, body: str, language: str) -> str:
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml" lang="{language}">'
        f"<head><title>{escape(title)}</title><style>p {{ margin: 0 }}</style></head>"
        f"<body><h1>{escape(title)}</h1>{body}</body></html>"
    )


def write_epub(
    path: Path,
    *,
    title: str,
    language: str,
    chapters: Sequence[tuple[str, str]],
    encrypted_chapters: bool = False,
    obfuscated_font: bool = False,
    rights_file: bool = False,
) -> Path:
    """Write an EPUB 3: ``chapters`` are ``(title, body HTML)`` in reading order.

    The manifest lists the chapters in reverse (only the spine gives the order), the second chapter's file name
    has a space (``%20`` in its href), and a navigation document sits in the spine (``linear="no"``), as real
    books have it.

    Args:
        encrypted_chapters: DRM: ``META-INF/encryption.xml`` lists every chapter as AES-encrypted, and the
            chapter files hold ciphertext-like bytes.
        obfuscated_font: Embed a font scrambled with the IDPF font obfuscation (the text stays readable).
        rights_file: Add Adobe's ``META-INF/rights.xml`` (ADEPT DRM).
    """
    names = [f"text/chapter {index}.xhtml" if index == 2 else f"text/ch{index}.xhtml" for index in range(1, 99)]
    items, spine, encrypted = [], [], []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        archive.writestr("META-INF/container.xml", _CONTAINER)
        for index, (chapter_title, body) in enumerate(chapters, start=1):
            name = names[index - 1]
            href = name.replace(" ", "%20")
            items.insert(0, f'<item id="c{index}" href="{href}" media-type="application/xhtml+xml"/>')
            spine.append(f'<itemref idref="c{index}"/>')
            content = _xhtml(chapter_title, body, language).encode("utf-8")
            if encrypted_chapters:
                content = bytes((index * 7 + i * 131) % 256 for i in range(len(content)))
                encrypted.append((f"OEBPS/{href}", "http://www.w3.org/2001/04/xmlenc#aes256-cbc"))
            archive.writestr(f"OEBPS/{name}", content)
        nav = "<nav epub:type='toc' xmlns:epub='http://www.idpf.org/2007/ops'><ol><li>Índice</li></ol></nav>"
        archive.writestr("OEBPS/nav.xhtml", _xhtml("Índice — Contents", nav, language))
        items.append('<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>')
        spine.append('<itemref idref="nav" linear="no"/>')
        if obfuscated_font:
            archive.writestr("OEBPS/fonts/body.otf", bytes(range(256)) * 8)
            items.append('<item id="font" href="fonts/body.otf" media-type="font/otf"/>')
            encrypted.append(("OEBPS/fonts/body.otf", "http://www.idpf.org/2008/embedding"))
        if encrypted:
            entries = "".join(
                f'<enc:EncryptedData><enc:EncryptionMethod Algorithm="{algorithm}"/><enc:CipherData>'
                f'<enc:CipherReference URI="{uri}"/></enc:CipherData></enc:EncryptedData>'
                for uri, algorithm in encrypted
            )
            archive.writestr(
                "META-INF/encryption.xml",
                '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
                f'xmlns:enc="http://www.w3.org/2001/04/xmlenc#">{entries}</encryption>',
            )
        if rights_file:
            archive.writestr("META-INF/rights.xml", "<rights xmlns='http://ns.adobe.com/adept'/>")
        archive.writestr(
            "OEBPS/content.opf",
            '<?xml version="1.0" encoding="UTF-8"?>\n<package xmlns="http://www.idpf.org/2007/opf" version="3.0" '
            'unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
            f'<dc:identifier id="id">urn:uuid:studyjobs-test</dc:identifier><dc:title>{escape(title)}</dc:title>'
            f"<dc:language>{language}</dc:language></metadata>"
            f"<manifest>{''.join(items)}</manifest><spine>{''.join(spine)}</spine></package>",
        )
    return path

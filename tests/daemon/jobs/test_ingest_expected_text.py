"""The text an ``ingest`` job expects a file to give, before reading it: what its guide's first estimate rests on."""

from __future__ import annotations

import zlib
from pathlib import Path

from daemon.jobs.ingest import _expected_chars
from daemon.readers import read_document
from tests.daemon.readers.samples import PORTUGUESE, wrap, write_text_pdf


def _with_font_sized_stream(path: Path, size: int) -> None:
    """Append an unused object of ``size`` incompressible bytes (an embedded font's weight) as an incremental
    update, so the file is ``size`` bytes bigger and its text the same."""
    data = path.read_bytes()
    blob = zlib.compress(bytes(range(256)) * (size // 256), 0)[:size]
    start = data.rindex(b"startxref")
    previous = int(data[start:].split()[1])
    number = int(data[data.rindex(b"/Size") :].split()[1])
    offset = len(data)
    extra = b"%d 0 obj\n<< /Length %d >>\nstream\n" % (number, len(blob)) + blob + b"\nendstream\nendobj\n"
    xref = offset + len(extra)
    root_info = data[data.rindex(b"/Root") : data.rindex(b">>")]
    tail = b"xref\n%d 1\n%010d 00000 n \ntrailer\n<< /Size %d %s /Prev %d >>\nstartxref\n%d\n%%%%EOF\n" % (
        number, offset, number + 1, root_info.strip(), previous, xref,
    )  # fmt: skip
    path.write_bytes(data + extra + tail)


def test_a_small_pdfs_text_is_expected_from_its_pages_not_from_its_size(tmp_path: Path):
    """Fonts and images make a small PDF's size say little about its text; its page count says more."""
    paragraphs = [wrap(p) for p in PORTUGUESE]
    pdf = write_text_pdf(tmp_path / "apostila.pdf", [paragraphs * 3, paragraphs * 3])
    _with_font_sized_stream(pdf, 300_000)
    document = read_document(pdf)
    assert document.page_count == 2 and pdf.stat().st_size > 300_000
    from_pages = _expected_chars(pdf, "pdf", pages=document.page_count)
    from_size = _expected_chars(pdf, "pdf")
    assert from_pages is not None and from_size is not None
    assert 0.4 < len(document.text) / from_pages < 2.5
    assert from_size > 10 * len(document.text)  # what the size alone would have said


def test_a_text_files_text_is_expected_from_its_size(tmp_path: Path):
    text = tmp_path / "notes.txt"
    body = "\n\n".join(PORTUGUESE * 4)
    text.write_text(body, encoding="utf-8")
    expected = _expected_chars(text, "text")
    assert expected is not None and 0.9 < expected / len(body) < 1.1

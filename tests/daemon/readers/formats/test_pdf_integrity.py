"""Bit rot that PDFium would skip in silence is found; healthy oddities of real PDFs are not taken for it."""

from __future__ import annotations

import re
import zlib
from pathlib import Path

import pytest

from daemon.readers import ExtractionError, read_document
from daemon.readers.formats.pdf_integrity import find_damaged_streams
from tests.daemon.corpus import Corpus
from tests.daemon.readers.badfiles import PYPDF_ENCRYPTED
from tests.daemon.readers.samples import ENGLISH, wrap, write_text_pdf


def english_pdf(folder: Path) -> Path:
    return write_text_pdf(folder / "leaves.pdf", [[wrap(p)] for p in ENGLISH], title="Leaves")


def flipped(data: bytes, at: int, count: int = 8) -> bytes:
    return data[:at] + bytes(b ^ 0xA5 for b in data[at : at + count]) + data[at + count :]


def test_healthy_corpus_pdfs_have_no_damaged_streams(corpus: Corpus) -> None:
    encrypted = {Path(name).name for name in PYPDF_ENCRYPTED}
    healthy = [*corpus.pdfs(), *(p for p in corpus.pypdf(".").glob("*.pdf") if p.name not in encrypted)]
    assert len(healthy) > 60
    assert [p.name for p in healthy if find_damaged_streams(p.read_bytes()) is not None] == []


def test_bit_rot_over_a_stream_keyword_is_found(tmp_path: Path) -> None:
    data = english_pdf(tmp_path).read_bytes()
    keywords = [match.start() + 3 for match in re.finditer(rb">>\nstream\n", data)]
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes(flipped(data, keywords[1]))  # the second page's content loses its "stream" keyword
    with pytest.raises(ExtractionError) as caught:
        read_document(damaged)
    assert caught.value.code == "corrupt_file"
    assert "an endstream without its stream" in caught.value.detail


def test_bit_rot_inside_compressed_page_content_is_found(tmp_path: Path) -> None:
    data = english_pdf(tmp_path).read_bytes()
    start = data.index(b"stream\n") + len(b"stream\n")
    end = data.index(b"endstream", start)
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes(flipped(data, (start + end) // 2))
    with pytest.raises(ExtractionError) as caught:
        read_document(damaged)
    assert caught.value.code == "corrupt_file"


def test_empty_streams_and_the_word_endstream_in_plain_text_are_not_damage() -> None:
    content = b"BT /F1 10 Tf 72 700 Td (a PDF ends each stream with the endstream keyword) Tj ET"
    parts = [
        b"%PDF-1.4\n1 0 obj\n<< /Length 0 /Filter /FlateDecode >>\nstream\n\nendstream\nendobj\n",
        b"2 0 obj\n<< /Length " + str(len(content)).encode() + b" >>\nstream\n" + content + b"\nendstream\nendobj\n",
        b"3 0 obj\n<< /Length 11 /Filter /FlateDecode >>\nstream\n" + zlib.compress(b"q Q"),
        b"\nendstream\nendobj\n%%EOF\n",
    ]
    pdf = b"".join(parts)
    assert find_damaged_streams(pdf) is None

"""Real-world files are read as e-book readers and browsers read them, and a damaged file's message says what is
wrong — speaking of an interrupted download only when the file is cut short."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from daemon.readers import ExtractionError, read_document
from tests.daemon.corpus import Corpus
from tests.daemon.readers.badfiles import bitrot_pdf_stream, truncated
from tests.daemon.readers.hostile import CHAPTERS
from tests.daemon.readers.samples import write_epub


def rewritten(source: Path, target: Path, *, rename: dict[str, str] | None = None, drop: set[str] = frozenset(),
              replace: dict[str, bytes] | None = None) -> Path:  # fmt: skip
    """A copy of the zip ``source`` with entries renamed, dropped or given new content."""
    rename, replace = rename or {}, replace or {}
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            if info.filename in drop:
                continue
            content = replace.get(info.filename, old.read(info))
            new.writestr(rename.get(info.filename, info.filename), content)
    return target


@pytest.fixture
def good_epub(tmp_path: Path) -> Path:
    return write_epub(tmp_path / "good.epub", title="O ciclo da água", language="pt-BR", chapters=CHAPTERS)


def test_the_debian_edu_manuals_whose_container_sits_in_a_folder_are_read(edu_manuals: list[Path]) -> None:
    assert edu_manuals
    for manual in edu_manuals:
        with zipfile.ZipFile(manual) as archive:
            names = archive.namelist()
        assert "META-INF/container.xml" not in names and "epub/META-INF/container.xml" in names  # the tested shape
        document = read_document(manual)
        assert document.format == "epub"
        assert document.title is not None and document.title.startswith("Manual do Debian Edu")
        assert document.language == "pt"
        assert document.char_count > 100_000
        html = read_document(manual.with_suffix(".html"))  # the same manual as one web page
        paragraphs = [p for p in html.text.split("\n\n") if len(p) > 200]
        assert len(paragraphs) > 50
        found = sum(paragraph in document.text for paragraph in paragraphs)
        assert found > 0.9 * len(paragraphs), f"{manual.name}: {found} of {len(paragraphs)} long paragraphs"


def test_a_good_book_moved_into_a_folder_reads_the_same(good_epub: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(good_epub) as archive:
        names = archive.namelist()
    moved = rewritten(good_epub, tmp_path / "moved.epub", rename={name: f"livro/{name}" for name in names})
    assert read_document(moved).text == read_document(good_epub).text


def test_a_book_without_a_mimetype_entry_is_read(good_epub: Path, tmp_path: Path) -> None:
    plain = rewritten(good_epub, tmp_path / "no-mimetype.epub", drop={"mimetype"})
    assert read_document(plain).text == read_document(good_epub).text


def test_a_book_without_its_container_is_read_from_its_package_document(good_epub: Path, tmp_path: Path) -> None:
    bare = rewritten(good_epub, tmp_path / "bare.epub", drop={"mimetype", "META-INF/container.xml"})
    assert read_document(bare).text == read_document(good_epub).text


def test_a_container_naming_a_missing_package_falls_back_to_the_package_there_is(
    good_epub: Path, tmp_path: Path
) -> None:
    with zipfile.ZipFile(good_epub) as archive:
        container = archive.read("META-INF/container.xml").replace(b"OEBPS/content.opf", b"OPS/book.opf")
    wrong = rewritten(good_epub, tmp_path / "wrong.epub", replace={"META-INF/container.xml": container})
    assert read_document(wrong).title == "O ciclo da água"


def test_a_broken_or_missing_navigation_file_does_not_matter(good_epub: Path, tmp_path: Path) -> None:
    expected = read_document(good_epub).text
    missing = rewritten(good_epub, tmp_path / "missing-nav.epub", drop={"OEBPS/nav.xhtml"})
    assert read_document(missing).text == expected
    garbage = b"<?xml version='1.0'?><nav><ol><li><a href='nowhere'>\x00\xff broken"
    broken = rewritten(good_epub, tmp_path / "broken-nav.epub", replace={"OEBPS/nav.xhtml": garbage})
    assert read_document(broken).text == expected


def test_a_chapter_named_with_other_letter_case_is_found(good_epub: Path, tmp_path: Path) -> None:
    renamed = rewritten(good_epub, tmp_path / "case.epub", rename={"OEBPS/text/ch1.xhtml": "OEBPS/Text/CH1.xhtml"})
    assert read_document(renamed).text == read_document(good_epub).text


@pytest.mark.parametrize(
    ("declared", "content"),
    [
        ("utf-8", "Evaporação “quente” e condensação"),  # Windows-1252 bytes under a UTF-8 label
        ("iso-8859-1", "Evaporação “quente” e condensação"),  # curly quotes exist only in Windows-1252
        ("utf-16", "Evaporação e condensação da água"),  # a UTF-16 label on 8-bit bytes
        ("shift_jis", "Evaporação e condensação da água"),  # a label of another script
        ("no-such-charset", "Evaporação e condensação da água"),
    ],
)
def test_html_with_a_wrong_declared_charset_is_decoded(declared: str, content: str, tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    html = f'<html><head><meta charset="{declared}"><title>Ciclo</title></head><body><p>{content}</p></body></html>'
    page.write_bytes(html.encode("cp1252"))
    assert read_document(page).text == content


def test_xhtml_declaring_its_encoding_in_the_xml_declaration_is_decoded(tmp_path: Path) -> None:
    page = tmp_path / "page.xhtml.html"
    text = "Fenômenos: a água evapora, condensa e precipita."
    page.write_bytes(
        f'<?xml version="1.0" encoding="ISO-8859-15"?>\n<html><body><p>{text} €</p></body></html>'.encode("iso8859-15")
    )
    assert read_document(page).text == f"{text} €"


def refusal(path: Path) -> ExtractionError:
    with pytest.raises(ExtractionError) as caught:
        read_document(path)
    return caught.value


def test_only_a_cut_off_file_speaks_of_an_interrupted_download(corpus: Corpus, tmp_path: Path) -> None:
    intro = corpus.r_manual("R-intro")
    cut = refusal(truncated(intro, tmp_path / "cut.pdf", 0.5))
    assert cut.code == "truncated"
    assert cut.values["size"] == (tmp_path / "cut.pdf").stat().st_size
    assert f"byte {cut.values['size']}" in cut.user_message("en") and "download" in cut.user_message("en")
    assert f"byte {cut.values['size']}" in cut.user_message("pt_BR") and "download" in cut.user_message("pt_BR")
    rotten = refusal(bitrot_pdf_stream(intro, tmp_path / "rotten.pdf"))  # damaged inside, whole at the end
    assert rotten.code == "corrupt_file"
    for language in ("en", "pt_BR"):
        assert "download" not in rotten.user_message(language)


def test_a_cut_off_book_says_where_it_stops(good_epub: Path, tmp_path: Path) -> None:
    error = refusal(truncated(good_epub, tmp_path / "cut.epub", 0.6))
    assert error.code == "truncated"
    assert error.values["size"] == (tmp_path / "cut.epub").stat().st_size


def test_a_package_document_with_html_entities_and_bare_ampersands_is_mended(good_epub: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(good_epub) as archive:
        package = archive.read("OEBPS/content.opf").decode()
    package = package.replace(
        "<dc:title>O ciclo da água</dc:title>", "<dc:title>Água &amp; Mar & Rios&nbsp;&eacute;</dc:title>"
    )
    mended = rewritten(good_epub, tmp_path / "mended.epub", replace={"OEBPS/content.opf": package.encode()})
    document = read_document(mended)
    assert document.title == "Água & Mar & Rios é"  # the no-break space is a space in a title
    assert document.text == read_document(good_epub).text


def test_a_file_of_zeros_says_its_download_did_not_finish(tmp_path: Path) -> None:
    zeros = tmp_path / "apostila.pdf"
    zeros.write_bytes(bytes(300_000))  # space a sync program reserved and never filled
    error = refusal(zeros)
    assert error.code == "zero_filled" and error.values["size"] == 300_000
    assert "300000 bytes" in error.user_message("en") and "download" in error.user_message("en")
    assert "sincronização com a nuvem" in error.user_message("pt_BR")


def test_a_text_named_like_a_word_document_or_an_ebook_says_so(tmp_path: Path) -> None:
    for name, words in (("notas.docx", "not a Word document"), ("livro.epub", "not an e-book")):
        path = tmp_path / name
        path.write_text("Anotações da aula de biologia sobre o ciclo da água.", encoding="utf-8")
        error = refusal(path)
        assert error.code == "wrong_format" and words in error.user_message("en")
        assert "download" not in error.user_message("en")


def test_chapters_listed_with_a_wrong_or_missing_media_type_are_read(good_epub: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(good_epub) as archive:
        package = archive.read("OEBPS/content.opf").decode()
    assert package.count('media-type="application/xhtml+xml"') == len(CHAPTERS) + 1  # the chapters and the nav
    package = package.replace('href="text/ch1.xhtml" media-type="application/xhtml+xml"', 'href="text/ch1.xhtml"')
    package = package.replace('media-type="application/xhtml+xml"', 'media-type="text/xml"')
    loose = rewritten(good_epub, tmp_path / "loose.epub", replace={"OEBPS/content.opf": package.encode()})
    assert read_document(loose).text == read_document(good_epub).text

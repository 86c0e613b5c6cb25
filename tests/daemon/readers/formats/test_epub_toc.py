"""An EPUB's chapters are titled from its own table of contents, and the page template's blocks (Sphinx's related
bar "Navegação", the search box, previous/next links, the footer) never reach the text or a chapter's title: real
EPUBs built by Sphinx and by another tool."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from core.app.documents.structure import DocumentStructure, paragraphs
from daemon.readers import read_document
from tests.daemon.corpus import Corpus, fetch_package

# The blocks Sphinx's basic page template writes around each page, in Portuguese.
SPHINX_TEMPLATE = """
<div class="related" role="navigation" aria-label="Related">
  <h3>Navegação</h3>
  <ul>
    <li class="right" style="margin-right: 10px"><a href="genindex.xhtml" title="Índice Geral">índice</a></li>
    <li class="right"><a href="pkgs.xhtml" title="Gerenciando pacotes">próximo</a> |</li>
    <li class="right"><a href="index.xhtml" title="Início">anterior</a> |</li>
    <li class="nav-item nav-item-0"><a href="index.xhtml">Referência do Desenvolvedor</a> &#187;</li>
  </ul>
</div>
<div class="sphinxsidebar" role="navigation" aria-label="Main"><div class="sphinxsidebarwrapper">
  <div id="searchbox" style="display: none" role="search"><h3 id="searchlabel">Pesquisa rápida</h3>
    <form class="search" action="search.xhtml" method="get"><input type="text" name="q" /></form></div>
</div></div>
"""
SPHINX_FOOTER = '<div class="footer" role="contentinfo">&#169; Direitos autorais. Criado usando Sphinx.</div>'
TEMPLATE_WORDS = ("Navegação", "Pesquisa rápida", "próximo", "anterior", "Criado usando Sphinx")
CHAPTERS = [
    "Scope of This Document",
    "Applying to Become a Member",
    "Debian Developer's Duties",
    "Resources for Debian Members",
    "Managing Packages",
    "Best Packaging Practices",
    "Beyond Packaging",
    "Internationalization and Translations",
]


@pytest.fixture(scope="module")
def sphinx_epub(corpus: Corpus) -> Path:
    fetch_package(corpus, "developers-reference")
    return corpus.developers_reference_epub


def _rewritten(source: Path, target: Path, *, template: bool, table: bool) -> Path:
    """``source`` with Sphinx's page template around every chapter (``template``), and without its nav document
    and NCX (``table`` false)."""
    with zipfile.ZipFile(source) as book, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for info in book.infolist():
            data = book.read(info)
            name = info.filename
            if not table and name in ("nav.xhtml", "toc.ncx"):
                continue
            if template and name.endswith(".xhtml") and name != "nav.xhtml":
                text = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + SPHINX_TEMPLATE, data.decode(), count=1)
                data = text.replace("</body>", SPHINX_TEMPLATE + SPHINX_FOOTER + "</body>").encode()
            if not table and name == "content.opf":
                text = re.sub(r"<item [^>]*(?:properties=\"nav\"|dtbncx)[^>]*/>", "", data.decode())
                data = text.replace(' toc="ncx"', "").encode()
            out.writestr(info, data)
    return target


def test_a_sphinx_epub_gets_the_chapter_titles_of_its_table_of_contents(sphinx_epub: Path) -> None:
    document = read_document(sphinx_epub)
    structure = DocumentStructure.from_json(document.structure)
    titles = [c.title for c in structure.chapters]
    assert titles[1:9] == CHAPTERS  # the nav document's titles, without Sphinx's "1." numbering
    assert structure.fits(len(paragraphs(document.text)))


def test_the_page_template_of_a_sphinx_epub_is_not_read_and_titles_no_chapter(
    sphinx_epub: Path, tmp_path: Path
) -> None:
    for table in (True, False):
        path = _rewritten(sphinx_epub, tmp_path / f"template-{table}.epub", template=True, table=table)
        document = read_document(path)
        for word in TEMPLATE_WORDS:
            assert word not in document.text, word
        titles = [c.title for c in DocumentStructure.from_json(document.structure).chapters]
        assert len(titles) >= 9 and "Navegação" not in titles
        if not table:  # without a table of contents, each chapter's first paragraph: Sphinx's numbered heading
            assert "1. Scope of This Document" in titles


def test_an_epub_whose_chapters_open_with_a_number_is_titled_from_its_ncx(corpus: Corpus) -> None:
    fetch_package(corpus, "live-manual-epub")
    document = read_document(corpus.live_manual_epub_pt)
    titles = [c.title for c in DocumentStructure.from_json(document.structure).chapters]
    assert "Instalação" in titles and "O básico" in titles
    assert not any(title.isdigit() for title in titles)

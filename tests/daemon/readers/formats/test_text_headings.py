"""Plain text and Markdown carry their own chapters: numbered headings and Markdown headings, found without a model,
on a real numbered manual (the Debian FAQ in Portuguese) and on the cases that must not become chapters."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from core.app.documents.structure import Chapter, DocumentStructure, paragraphs
from daemon.readers import read_document
from daemon.readers.formats.text_headings import markdown_headings, numbered_headings
from tests.daemon.corpus import Corpus, fetch_package

FAQ_CHAPTERS = [
    "Definições e visão geral",
    "Obter e instalar Debian GNU/Linux",
    "Escolher uma distribuição Debian",
    "Problemas de compatibilidade",
    "Software disponível no sistema Debian",
    "Os arquivos Debian",
    "Básicas do sistema de gestão de pacotes Debian",
    "As ferramentas de gestão de pacotes Debian",
    "Manter o seu sistema Debian actualizado",
    "Debian e o kernel.",
    "Personalizar o seu sistema Debian GNU/Linux",
    "Obtendo suporte para Debian GNU/Linux",
    "Contribuir para o Projecto Debian",
    "Redistribuindo Debian GNU/Linux num produto comercial",
    "Alterações esperadas no próximo grande lançamento de Debian",
    "Informação geral acerca da FAQ",
]


@pytest.fixture(scope="module")
def faq_text(corpus: Corpus, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Portuguese Debian FAQ as the plain-text file a user would open."""
    fetch_package(corpus, "debian-faq-pt")
    path = tmp_path_factory.mktemp("faq") / "debian-faq.pt.txt"
    path.write_bytes(gzip.decompress(corpus.faq_text_pt.read_bytes()))
    return path


def test_a_numbered_plain_text_manual_gets_its_own_chapters_and_not_its_table_of_contents(faq_text: Path) -> None:
    document = read_document(faq_text)
    structure = DocumentStructure.from_json(document.structure)
    assert structure.fits(len(paragraphs(document.text)))
    assert [c.title for c in structure.chapters if c.level == 1] == FAQ_CHAPTERS
    texts = paragraphs(document.text)
    first = structure.chapters[0]
    assert texts[first.paragraph].startswith("Capítulo 1. Definições")  # the body's heading, not the index's line
    questions = [c for c in structure.chapters if c.level == 2]
    assert len(questions) > 100 and questions[0].title == "O que é esta FAQ?"
    assert any(c.title.startswith("Qual é a diferença entre Debian GNU/Linux") for c in questions)  # over two lines
    assert [c.paragraph for c in structure.chapters] == sorted(c.paragraph for c in structure.chapters)


def test_a_numbered_list_inside_a_chapter_is_text_not_chapters() -> None:
    found = numbered_headings([
        "1 Arquitetura", "O sistema tem três partes.", "1.1 Rede", "A rede liga as partes.",
        "2 Instalação", "Siga os passos:", "1. Abra o instalador", "2. Escolha o disco", "2.1 Requisitos", "Um disco.",
    ])  # fmt: skip
    assert found == [Chapter("Arquitetura", 0, 1), Chapter("Rede", 2, 2), Chapter("Instalação", 4, 1),
                     Chapter("Requisitos", 8, 2)]  # fmt: skip


def test_a_table_of_contents_in_separate_paragraphs_gives_way_to_the_headings_of_the_body() -> None:
    found = numbered_headings([
        "Sumário", "1 Introdução", "2 Métodos", "3 Resultados",
        "1 Introdução", "Texto da introdução.", "Mais texto.", "2 Métodos", "Texto dos métodos.", "Mais texto.",
        "3 Resultados", "Texto dos resultados.",
    ])  # fmt: skip
    assert [c.paragraph for c in found] == [4, 7, 10]


def test_sentences_that_start_with_a_number_are_not_headings() -> None:
    assert numbered_headings(["2 ovos e farinha.", "10 pessoas vieram.", "3 é um número primo."]) == []
    assert numbered_headings(["1993 Fundação do projeto", "2001 Primeira versão"]) == []


def test_markdown_headings_are_chapters_and_code_blocks_are_not(tmp_path: Path) -> None:
    text = (
        "# Guia\n\nIntrodução ao guia.\n\n## Instalação\n\nInstale assim:\n\n```sh\n# apt install x\n\n"
        "# outro comentário\n```\n\nUso\n---\n\nTexto de uso.\n"
    )
    (tmp_path / "guia.md").write_text(text, encoding="utf-8")
    document = read_document(tmp_path / "guia.md")
    chapters = DocumentStructure.from_json(document.structure).chapters
    assert [(c.title, c.level) for c in chapters] == [("Guia", 1), ("Instalação", 2), ("Uso", 2)]
    assert markdown_headings(["só texto", "mais texto"]) == []


def test_plain_text_without_headings_has_no_structure(tmp_path: Path) -> None:
    (tmp_path / "nota.txt").write_text("Uma nota curta.\n\nOutro parágrafo da nota.\n", encoding="utf-8")
    assert read_document(tmp_path / "nota.txt").structure is None

"""Study aids are built only on subjects: real sentences of the corpus that must yield a key term and a question,
and real ones that must not (a pronoun, a demonstrative, a generic word, a fragment, a command); each sentence is
checked to be in its document."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from daemon.guide_writer.study_aids import head_overview, key_terms, paragraph_sentences, review_question, section_aids
from daemon.guide_writer.study_cloze import cloze_terms
from daemon.guide_writer.study_subjects import looks_like_code, study_subject
from daemon.readers import read_document
from tests.daemon.corpus import Corpus, fetch_package

# (document, language, sentence, the question it must give)
YIELD = [
    ("faq", "pt", "O Hurd é um conjunto de servidores que correm em cima do microkernel Mach do GNU.",
     "O que é o Hurd?"),
    ("lshort", "pt", "O LATEX [1] é um sistema tipográfico, bastante adequado para produzir documentos científicos e "
     "matemáticos de grande qualidade tipográfica.", "O que é o LATEX?"),
    ("lshort", "pt", "O ambiente quote é útil para citações, frases importantes e exemplos.",
     "Para que serve o ambiente quote?"),
    ("rintro", "en", "A factor is a vector object used to specify a discrete classification (grouping) of the "
     "components of other vectors of the same length.", "What is a factor?"),
    ("devref", "en", "The Debian Package Tracker is an email and web-based tool to track the activity of a source "
     "package.", "What is the Debian Package Tracker?"),
    ("devref", "en", "Porting is the act of building Debian packages for architectures that are different from the "
     "original architecture of the package maintainer's binary package.", "What is Porting?"),  # alone, its case
    ("rintro", "en", "An R list is an object consisting of an ordered collection of objects known as its components.",
     "What is an R list?"),  # a one-letter name is no filler
    ("faq", "pt", "Donativos de patrocinadores permitem a Debian ter máquinas, assim como outro hardware, organizar "
     "conferências e sprints de desenvolvimento, entre outras coisas.",
     "Para que servem donativos de patrocinadores?"),  # "de" joins a compound
    ("lshort", "pt", "O Unicode é o caminho a seguir se precisa de incluir várias línguas num único documento, "
     "especialmente se essas línguas não usam caracteres latinos.", "O que é o Unicode?"),  # "essas" points back
    ("devref", "en", "A non-functional e-mail address is a violation of Debian Policy [https://www.debian.org/doc/"
     "debian-policy/ch-binary.html#the-maintainer-of-a-package].",
     "What is a non-functional e-mail address?"),  # a web address is no code
    ("live", "en", "A live cd paradigm is a pre-installed system which runs from read-only media, like a cdrom, where "
     "writes and modifications do not survive reboots of the host hardware which runs it.",
     "What is a live cd paradigm?"),  # "cd" followed by a word is no command line
]  # fmt: skip
# (document, language, sentence): what each would have given is no subject, or no answer on its own
NO_YIELD = [
    ("faq", "pt", "A resposta é um pouco complicada."),  # a generic word
    ("faq", "pt", "Unstable é a solução para este grupo de pessoas."),  # which group? a demonstrative
    ("lshort", "pt", "Estes parâmetros são usados para dizer ao LATEX a localização para a qual o corpo flutuante se "
     "pode mover."),  # a demonstrative
    ("lshort", "pt", "As opções permitem escolher o tamanho do painel (22 mm neste caso) e a sua posição (do lado "
     "direito do corpo do texto)."),  # a generic word
    ("lshort", "pt", "O código é um bocado mais assustador que nos exemplos anteriores, pelo que vou apresentar apenas "
     "o resultado."),  # a generic word
    ("live", "pt", "Um sistema live normalmente significa um sistema operacional inicializado em um computador a "
     "partir de uma mídia removível, como um CD-ROM ou dispositivo USB, ou de uma rede, pronto a usar, sem qualquer "
     "tipo de instalação na unidade de costume (s), com a auto-configuração feita em tempo de execução (veja Termos)."),
    ("devref", "en", "The package in question is a data package and the data must be updated in a timely manner "
     "(e.g. tzdata)."),  # a fragment
    ("amc", "en", "Default value is the empty string, which means there is no maximum size."),  # a generic word
    ("amc", "en", "A short insight allows to check that red checkboxes are correctly located over the boxes of the "
     "subject."),  # a generic word
    ("rintro", "en", "The command R CMD allows the invocation of various tools which are useful in conjunction with "
     "R, but not intended to be called “directly”."),  # a command
    ("faq", "pt", "De nota particular é o facto que os spammers são conhecidos por abusar dos endereços de e-mail "
     "postados nas nossas listas de mail."),  # a fragment
    ("faq", "pt", "Em geral é um conceito brilhante, se mo perguntar."),  # a fragment
    ("lshort", "pt", "O LATEX permite que se faça isto com comandos especiais que tomam o título como seu "
     "argumento."),  # "isto" points outside the sentence
    ("devref", "en", "The vim source package is an example of how to manage this using a hand-crafted debian/rules "
     "file."),  # "this" points outside the sentence
    ("devref", "en", "An example is a package that is SVGA-specific (only available for i386 and amd64), or uses "
     "other hardware-specific features not supported on all architectures."),  # a generic word
]  # fmt: skip


# (document, language, sentence): command lines, as the documents write them
COMMAND_LINES = [
    ("devref", "en", "cp templates.pot templates.pot.orig"),
    ("devref", "en", "rm -rf templates.pot.orig po_fridge"),
    ("rintro", "en", "Make work the working directory and start the program as before: $ cd work"),
    ("devref", "en", "Download the current version of the source package (with apt-get source) and rebuild it (or "
     "download the current binary packages with aptitude download)."),
    ("devref", "en", "Look for license problems (like files with “All rights reserved” headers, or with a non-DFSG "
     "compliant license). grep -ri is your friend for this task."),
    ("faq", "pt", "Poderá ser melhor em certas situações fazer uma actualização total para a nova distribuição "
     "correndo apt full-upgrade, aptitude safe-upgrade ou aptitude full-upgrade."),
]  # fmt: skip
# (document, language, sentence): prose that names a command or uses an everyday word that is one
PROSE_WITH_COMMAND_WORDS = [
    ("rintro", "en", "Here is a simple example of how to make a list:"),
    ("devref", "en", "Generate and make a copy (best also in paper form) of your revocation certificate; this is "
     "needed if your key is lost."),
    ("devref", "en", "If you want to use a git repository for any of your Debian work, you can use Debian's GitLab "
     "instance called Salsa [https://salsa.debian.org] for that purpose."),
    ("live", "en", "Once you are certain you have the correct device name, use the cp command to copy the image to "
     "the stick."),
    ("faq", "pt", "O apt-get fornece um modo simples de obter e instalar pacotes a partir de múltiplas fontes usando a "
     "linha de comandos."),
]  # fmt: skip


@pytest.mark.parametrize(("document", "language", "sentence"), COMMAND_LINES)
def test_a_real_command_line_is_code(document: str, language: str, sentence: str) -> None:
    assert looks_like_code(sentence)


@pytest.mark.parametrize(("document", "language", "sentence"), PROSE_WITH_COMMAND_WORDS)
def test_a_real_sentence_that_names_a_command_or_says_make_a_is_prose(
    document: str, language: str, sentence: str
) -> None:
    assert not looks_like_code(sentence)


def _aids(sentence: str, language: str) -> list[str]:
    terms = key_terms([sentence], [1], [[3]], language)
    return [review_question(t, language) for t in terms]


@pytest.mark.parametrize(("document", "language", "sentence", "question"), YIELD)
def test_a_real_sentence_that_defines_a_subject_yields_its_question(
    document: str, language: str, sentence: str, question: str
) -> None:
    assert _aids(sentence, language) == [question]


@pytest.mark.parametrize(("document", "language", "sentence"), NO_YIELD)
def test_a_real_sentence_about_no_subject_yields_no_aid(document: str, language: str, sentence: str) -> None:
    assert _aids(sentence, language) == []


def test_a_section_with_nothing_good_gets_no_aids_and_no_objectives() -> None:
    pt = [sentence for _doc, language, sentence in NO_YIELD if language == "pt"]
    terms = key_terms(pt, range(1, len(pt) + 1), [[1]] * len(pt), "pt")
    assert terms == [] and section_aids(terms, "pt") == ""
    assert "Objetivos" not in head_overview(["A", "B"], [1, 2], terms, "pt")


@pytest.mark.parametrize(
    ("term", "language"),
    [("figura", "pt"), ("isto", "pt"), ("our case", "en"), ("killer", "pt"), ("as hello", "en"), ("it", "en"),
     ("apt-get install", "en"), ("R CMD", "en"), ("x_1", "en"), ("/etc/apt/sources.list", "pt"), ("--help", "en"),
     ("package in question", "en"), ("de nota particular", "pt"), ("alternativa ao aptitude", "pt"),
     ("good example", "en"), ("the most common example", "en"), ("exemplo mais comum", "pt")],
)  # fmt: skip
def test_pronouns_generic_words_fragments_and_code_are_no_subjects(term: str, language: str) -> None:
    assert not study_subject(term, language)


def test_names_and_terms_of_a_field_are_subjects() -> None:
    for term, language in [
        ("Hurd", "pt"),
        ("ambiente quote", "pt"),
        ("factor", "en"),
        ("Debian Package Tracker", "en"),
        ("R list", "en"),
        ("sistema de arquivos", "pt"),
        ("system of equations", "en"),
    ]:
        assert study_subject(term, language)
    assert looks_like_code("Para instalar, execute $ apt-get install beamer no terminal.")
    assert not looks_like_code("O LATEX [1] é um sistema tipográfico (de 1985).")


def test_no_blank_is_made_on_a_generic_word_or_in_a_command_line() -> None:
    passage = (
        "A Figura mostra o resultado do comando no terminal do sistema. A Figura seguinte mostra a janela do "
        "programa aberta. Na Figura abaixo vemos a mesma janela depois de fechada. Execute apt-get install beamer "
        "para instalar o pacote Beamer no sistema."
    )
    made = cloze_terms([passage], [1], [[1]], "pt", terms=[], used=set(), wanted=3)
    assert all(t.term != "Figura" for t in made)
    assert all("apt-get" not in t.definition for t in made)


@pytest.fixture(scope="module")
def documents(corpus: Corpus, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    faq = fetch_package(corpus, "debian-faq-pt")
    text = tmp_path_factory.mktemp("faq") / "debian-faq.pt.txt"
    text.write_bytes(gzip.decompress(corpus.faq_text_pt.read_bytes()))
    fetch_package(corpus, "developers-reference")
    fetch_package(corpus, "live-manual-epub")
    assert faq.is_dir()
    return {
        "faq": text,
        "rintro": corpus.r_manual("R-intro"),
        "lshort": corpus.portuguese_pdf("lshort-portuguese/pt-lshort.pdf"),
        "devref": corpus.developers_reference_epub,
        "live": corpus.live_manual_epub_pt,
        "amc": corpus.amc_manual("en"),
    }


def test_every_sentence_of_these_tests_is_in_its_real_document(documents: dict[str, Path]) -> None:
    wanted: dict[str, list[str]] = {}
    for document, _language, sentence, *_question in [*YIELD, *NO_YIELD, *COMMAND_LINES, *PROSE_WITH_COMMAND_WORDS]:
        wanted.setdefault(document, []).append(sentence)
    for document, sentences in wanted.items():
        text = read_document(documents[document]).text
        found = {s for p in text.split("\n\n") for s in paragraph_sentences(p)}
        assert set(sentences) <= found, (document, set(sentences) - found)

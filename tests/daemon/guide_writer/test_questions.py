"""A guide's review questions and learning objectives: grammatical with plural and multi-word terms, two per
section where the passages allow, each asked once, each answered by a sentence of the section quoted with its
page — with the tiny model."""

from __future__ import annotations

import re
from collections import Counter

from core.app.documents.structure import Chapter, DocumentStructure
from daemon.guide_writer.checks import normalize_sentence
from daemon.guide_writer.guard import guide_sentence_keys
from daemon.guide_writer.study_aids import head_overview, key_terms, review_question
from daemon.guide_writer.study_cloze import BLANK
from daemon.guide_writer.writer import GuideWriter
from daemon.llm.llamacpp import LlamaCppGenerator


def aids(sentences: list[str], language: str) -> tuple[list[str], list[str]]:
    """(questions, objectives) of one passage per sentence."""
    terms = key_terms(sentences, range(1, len(sentences) + 1), [(i,) for i in range(1, len(sentences) + 1)], language)
    questions = [review_question(t, language) for t in terms]
    objectives = [line[2:] for line in head_overview([], [], terms, language).splitlines() if line.startswith("- ")]
    return questions, objectives


def test_questions_and_objectives_agree_with_plural_terms_and_keep_the_documents_own_article() -> None:
    questions, objectives = aids(
        [
            "Os pacotes são os conjuntos de comandos que ampliam o que o LaTeX sabe fazer.",
            "A fotossíntese é o processo pelo qual as plantas transformam a luz em energia.",
            "O LATEX [1] é um sistema tipográfico adequado para documentos científicos.",
            "O ambiente tabular permite alinhar colunas de texto numa tabela simples.",
        ],
        "pt",
    )
    assert questions == [
        "O que são os pacotes?",
        "O que é a fotossíntese?",
        "O que é o LATEX?",  # the reference "[1]" is no part of the term
        "Para que serve o ambiente tabular?",
    ]
    assert objectives == [
        "Explicar o que são os pacotes.",
        "Explicar o que é a fotossíntese.",
        "Explicar o que é o LATEX.",
    ]
    questions, objectives = aids(
        [
            "The elementary arithmetic operators are the usual signs for sums, products and powers.",
            "A dimension vector is a vector of non-negative integers that gives each extent.",
            "Functions are the objects that form part of the R system along with user functions.",
            "Most functions in R are written in R itself, and functions can call other functions.",
        ],
        "en",
    )
    assert questions == [
        "What are the elementary arithmetic operators?",
        "What is a dimension vector?",
        "What are functions?",  # said "functions" in the text: the capital was the sentence's
    ]
    assert objectives == [
        "Explain what the elementary arithmetic operators are.",
        "Explain what a dimension vector is.",
        "Explain what functions are.",
    ]
    assert aids(["L'énergie est la capacité d'un système à produire un travail utile."], "fr")[0] == [
        "Qu'est-ce que l'énergie ?"
    ]
    assert aids(["Die Vektoren sind die wichtigsten Objekte der Sprache R und ihrer Pakete."], "de")[0] == [
        "Was sind die Vektoren?"
    ]


def test_a_term_that_starts_its_sentence_is_written_in_lower_case_unless_it_is_a_name() -> None:
    questions, objectives = aids(
        [
            "Solving linear equations is the inverse of matrix multiplication in the usual sense of algebra.",
            "Debian Linux is a free operating system made by volunteers from many countries around the world.",
            "Beamer is a LaTeX class for making slides for talks and lectures with overlays.",
        ],
        "en",
    )
    assert questions == ["What is solving linear equations?", "What is Debian Linux?", "What is Beamer?"]
    assert objectives[0] == "Explain what solving linear equations is."


def test_no_article_is_doubled_and_a_list_item_or_a_cut_sentence_gives_no_question() -> None:
    questions, _ = aids(
        [
            "doc Permite a documentação de programas LATEX com comentários.",
            "O TEX é um programa de computador criado por Donald E.",
            "Actualmente, o LATEX é mantido por Frank Mittelbach e por muitos outros.",
        ],
        "pt",
    )
    assert questions == []
    asked = {
        "en": ("The cell membrane is the layer that controls what enters the cell.", "What is the cell membrane?"),
        "es": ("La fotosíntesis es el proceso por el cual las plantas producen azúcar.", "¿Qué es la fotosíntesis?"),
        "it": ("La fotosintesi è il processo con cui le piante producono lo zucchero.", "Che cos'è la fotosintesi?"),
        "pt": ("A fotossíntese é o processo pelo qual as plantas fazem o açúcar.", "O que é a fotossíntese?"),
    }
    for language, (sentence, question) in asked.items():
        assert aids([sentence], language)[0] == [question]
        assert not re.search(r"\b(\w+) \1\b", question, re.IGNORECASE)


FILLER = " Este trecho continua a explicação com mais alguns detalhes sobre o mesmo assunto das plantas." * 3
SECTIONS = [
    "A fotossíntese é o processo pelo qual as plantas verdes transformam a energia da luz em energia química.",
    "As folhas fazem a fotossíntese durante o dia e guardam o açúcar que produzem para a noite.",
    "A clorofila é um pigmento verde que absorve a luz vermelha e a luz azul nas folhas das plantas.",
    "Sem luz suficiente a clorofila se degrada e as folhas ficam amarelas durante o outono.",
    "Depois disso as plantas crescem devagar, folha por folha, durante toda a primavera e o verão.",
]


async def test_each_section_gets_two_questions_from_its_own_sentences_each_asked_once(
    tiny: LlamaCppGenerator,
) -> None:
    text = "\n\n".join(sentence + FILLER for sentence in SECTIONS)
    chapters = (Chapter("Luz", 0), Chapter("Cor", 2), Chapter("Crescimento", 4))
    structure = DocumentStructure(((1, 1), (2, 2), (3, 3), (4, 4), (5, 5)), 5, chapters)
    guide = await GuideWriter(tiny, section_tokens=5).write(text, language="pt", structure=structure)
    light, colour, growth = guide.sections
    for section in (light, colour):
        asked = re.findall(r"\*\*P:\*\* (.+)\n\*\*R:\*\* (.+) \(pág\. (\d)\)", section.body)
        assert len(asked) == 2, section.body
        for _question, answer, page in asked:
            assert answer in SECTIONS and SECTIONS.index(answer) + 1 == int(page)  # quoted, with its own page
    assert f"**P:** Complete a lacuna: “As folhas fazem a {BLANK} durante o dia" in light.body
    assert f"**P:** Complete a lacuna: “Sem luz suficiente a {BLANK} se degrada" in colour.body
    assert "**P:**" not in growth.body  # no term, no name: nothing to ask, nothing made up
    questions = re.findall(r"\*\*P:\*\* (.+)", guide.markdown)
    assert len(questions) == len(set(questions)) == 4
    said = Counter(guide_sentence_keys(guide.markdown))
    assert [key for key, n in said.items() if n > 1] == []  # no answer's sentence is quoted again as a key passage
    assert said[normalize_sentence(SECTIONS[0])] == 1


async def test_a_question_a_section_has_no_room_for_is_asked_by_the_next_section_that_gives_it(
    tiny: LlamaCppGenerator,
) -> None:
    first = [  # four definitions fill the first section's questions; its purpose sentence is left unasked
        "A fotossíntese é o processo pelo qual as plantas verdes transformam a energia da luz em energia química.",
        "A clorofila é um pigmento verde que absorve a luz vermelha e a luz azul nas folhas das plantas.",
        "O estoma é uma abertura pequena na folha por onde entram e saem os gases da planta.",
        "A seiva é o líquido que leva a água e os sais minerais das raízes até as folhas.",
        "O xilema permite levar a água das raízes até as folhas mais altas da planta.",
    ]
    second = "O xilema serve para sustentar o caule e levar a água até as folhas da planta."
    text = "\n\n".join(sentence + FILLER for sentence in [*first, second])
    chapters = (Chapter("Folhas", 0), Chapter("Caule", 5))
    structure = DocumentStructure(tuple((n, n) for n in range(1, 7)), 6, chapters)
    guide = await GuideWriter(tiny, section_tokens=5).write(text, language="pt", structure=structure)
    leaves, stem = guide.sections
    assert len(re.findall(r"\*\*P:\*\* ", leaves.body)) == 4
    assert "Para que serve o xilema?" not in leaves.body
    assert "**P:** Para que serve o xilema?" in stem.body

"""Reading a guide's key terms and review questions, whatever shape and language the writer gives them."""

from __future__ import annotations

import pytest

from core.app.guides.export.blocks import Span, parse_blocks, parse_inline
from core.app.guides.export.cards import QUESTION, TERM, Card, guide_cards, guide_title, page_reference
from tests.guideexports import QUESTIONS, TERMS, guide_markdown


def test_the_guide_s_terms_and_questions_become_cards_with_their_section_and_page():
    cards = guide_cards(guide_markdown())
    assert [c.front for c in cards if c.kind == TERM] == TERMS
    assert [c.front for c in cards if c.kind == QUESTION] == QUESTIONS
    assert cards[0] == Card(TERM, "Chlorophyll", "the green pigment that absorbs light.", "12", "Light reactions")
    questions = {c.front: c for c in cards if c.kind == QUESTION}
    assert questions["Where do the light reactions happen?"].back == "In the thylakoid membranes."
    assert questions["Where do the light reactions happen?"].page == "13"
    # no page of its own: the section's sources line
    assert questions["Which enzyme fixes carbon dioxide?"].page == "16–18"
    assert questions["Which enzyme fixes carbon dioxide?"].section == "Calvin cycle"
    assert guide_title(guide_markdown()) == "Photosynthesis"


def test_a_glossary_that_repeats_a_section_s_term_adds_no_second_card():
    cards = guide_cards(guide_markdown())
    assert [c.front for c in cards].count("Chlorophyll") == 1
    assert next(c for c in cards if c.front == "Stroma").section == "Glossary"


def test_portuguese_labels_and_questions_listed_under_a_heading_are_read():
    markdown = (
        "# Células\n\n## Membrana\n\nResumo.\n\n### Termos-chave\n\n"
        "- Bicamada lipídica: duas camadas de fosfolipídios.\n"
        "- **Proteína integral** — atravessa a membrana (pág. 4).\n\n"
        "### Questões de revisão\n\n"
        "1. O que forma a membrana? (p. 3)\n   - Uma bicamada de fosfolipídios.\n"
        "2. **P:** Para que servem as proteínas?\n   **R:** Transportam substâncias.\n\n"
        "*Fontes: pág. 3–5*\n"
    )
    assert guide_cards(markdown) == [
        Card(TERM, "Bicamada lipídica", "duas camadas de fosfolipídios.", "3–5", "Membrana"),
        Card(TERM, "Proteína integral", "atravessa a membrana.", "4", "Membrana"),
        Card(QUESTION, "O que forma a membrana?", "Uma bicamada de fosfolipídios.", "3", "Membrana"),
        Card(QUESTION, "Para que servem as proteínas?", "Transportam substâncias.", "3–5", "Membrana"),
    ]


def test_terms_and_questions_written_as_tables_become_cards_and_the_coverage_table_does_not():
    markdown = (
        "# Cells\n\n## Membranes\n\n### Key terms\n\n| Term | Definition | Page |\n|---|---|---|\n"
        "| **Lipid bilayer** | two layers of phospholipids | 3 |\n| Channel | a protein pore | |\n\n"
        "### Review questions\n\n| Question | Answer |\n|---|---|\n| What is a pore? | A channel. |\n\n"
        "*Sources: p. 3–4*\n\n## Coverage\n\n| Section | Source |\n|---|---|\n| Membranes | p. 3–4 |\n"
    )
    assert guide_cards(markdown) == [
        Card(TERM, "Lipid bilayer", "two layers of phospholipids", "3", "Membranes"),
        Card(TERM, "Channel", "a protein pore", "3–4", "Membranes"),
        Card(QUESTION, "What is a pore?", "A channel.", "3–4", "Membranes"),
    ]


def test_a_label_alone_on_its_line_stands_for_a_heading():
    markdown = (
        "# Água\n\n## Ciclo\n\nResumo.\n\n**Termos-chave**\n\n- Evaporação: a água vira vapor.\n\n"
        "Perguntas de revisão:\n\n- O que é evaporação?\n  A água que vira vapor. (pág. 2)\n"
    )
    assert guide_cards(markdown) == [
        Card(TERM, "Evaporação", "a água vira vapor.", "", "Ciclo"),
        Card(QUESTION, "O que é evaporação?", "A água que vira vapor.", "2", "Ciclo"),
    ]


LABELS = {  # key terms heading, questions heading, question label, answer label, glossary, page citation
    "es": ("Términos clave", "Preguntas de repaso", "P", "R", "Glosario", "pág. 7"),
    "fr": ("Termes clés", "Questions de révision", "Q", "R", "Glossaire", "p. 7"),
    "de": ("Schlüsselbegriffe", "Wiederholungsfragen", "F", "A", "Glossar", "S. 7"),
    "it": ("Termini chiave", "Domande di ripasso", "D", "R", "Glossario", "p. 7"),
}


@pytest.mark.parametrize("language", sorted(LABELS))
def test_the_labels_of_every_guide_language_are_read(language: str):
    terms, questions, q, a, glossary, page = LABELS[language]
    markdown = (
        f"# Guide\n\n## Uno\n\nTexto.\n\n### {terms}\n\n- **Alfa**: Alfa is the first letter ({page})\n\n"
        f"### {questions}\n\n**{q}:** Alfa?\n**{a}:** Alfa is the first letter ({page})\n\n"
        f"## {glossary}\n\n- **Alfa**: Alfa is the first letter ({page})\n- **Beta**: the second one\n"
    )
    assert guide_cards(markdown) == [
        Card(TERM, "Alfa", "Alfa is the first letter", "7", "Uno"),
        Card(QUESTION, "Alfa?", "Alfa is the first letter", "7", "Uno"),
        Card(TERM, "Beta", "the second one", "", glossary),
    ]


def test_plain_prose_gives_no_cards_and_a_question_without_an_answer_is_left_out():
    markdown = "# Notes\n\n## One\n\nJust a paragraph: with a colon.\n\n### Review questions\n\n- Why?\n"
    assert guide_cards(markdown) == []


def test_a_heading_that_only_mentions_terms_does_not_turn_its_lines_into_cards():
    prose = "- Price: the amount agreed when the order is placed.\n- Delivery: within ten days."
    assert guide_cards(f"# Shop\n\n## Terms and conditions of sale\n\n{prose}\n") == []
    assert [c.front for c in guide_cards(f"# Shop\n\n## 2.1 Key terms:\n\n{prose}\n")] == ["Price", "Delivery"]


def test_a_section_made_of_quotes_gives_no_cards_and_its_quotes_keep_their_pages_in_the_text():
    markdown = (
        "# Doc\n\n## Part\n\n*This section is made of quotes from the document: the model's text failed the check.*"
        "\n\n> The first sentence of the passage is quoted here. (p. 2)\n\n> Another sentence. (p. 3)\n\n"
        "*Sources: p. 2–3*\n"
    )
    assert guide_cards(markdown) == []
    quotes = [b.text for b in parse_blocks(markdown) if b.kind == "quote"]
    assert quotes == ["The first sentence of the passage is quoted here. (p. 2)", "Another sentence. (p. 3)"]


def test_page_references_are_read_in_their_usual_spellings_and_taken_out_of_the_text():
    assert page_reference("In the stroma (pp. 16 - 18).") == ("16–18", "In the stroma.")
    assert page_reference("See p. 3, 5–6") == ("3, 5–6", "See")
    assert page_reference("Seite: none here") == ("", "Seite: none here")
    assert page_reference("Three cups 3 times") == ("", "Three cups 3 times")


def test_inline_marks_become_styled_runs_and_blocks_keep_their_kind_and_level():
    assert parse_inline("a **b** *c* `d` [e](http://x)") == [
        Span("a "), Span("b", bold=True), Span(" "), Span("c", italic=True), Span(" "), Span("d", code=True),
        Span(" "), Span("e"),
    ]  # fmt: skip
    blocks = parse_blocks("## Head\n\n- one\n  - two\n3. three\n\n> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    assert [(b.kind, b.level) for b in blocks] == [
        ("heading", 2), ("bullet", 0), ("bullet", 1), ("numbered", 0), ("quote", 0), ("table", 0),
    ]  # fmt: skip
    assert blocks[3].number == 3 and blocks[5].rows == (("a", "b"), ("1", "2"))

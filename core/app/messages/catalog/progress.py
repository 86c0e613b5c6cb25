"""Progress messages of a running job, and the counters of :mod:`core.app.documents.counters` (joined with " · ").

Plain data: :mod:`core.app.messages.catalog` joins the topics; add a sentence to both tables.
"""

from __future__ import annotations

__all__ = ["EN", "PT_BR"]

EN: dict[str, str] = {
    # Progress.
    "reading": "Reading the document…",
    "reading_page": "Reading page {done} of {total}…",
    "recognising_page": "Recognising the text of page {done} of {total}…",
    "reading_part": "Reading part {done} of {total}…",
    "cleaning": "Cleaning up the text…",
    "saving": "Saving…",
    "loading_model": "Loading the language model…",
    "outlining": "Planning the study guide…",
    "outlining_part": "Planning the study guide: part {current} of {total}…",
    "writing_section": "Writing section {current} of {total}…",
    "exporting": "Saving the study guide…",
    "section_from_quotes": (
        "Section {number} ({title}) was written from quotes of the document: the model's text failed the check."
    ),
    "section_from_quotes:echoed_prompt": (
        "Section {number} ({title}) was written from quotes of the document: "
        "the model's text repeated its instructions instead of the pages."
    ),
    "section_from_quotes:ungrounded": (
        "Section {number} ({title}) was written from quotes of the document: "
        "the model's text said what its pages do not say."
    ),
    "section_from_quotes:first_person": (
        "Section {number} ({title}) was written from quotes of the document: "
        "the model's text told what the model itself was doing instead of what the pages say."
    ),
    "section_from_quotes:chatter": (
        "Section {number} ({title}) was written from quotes of the document: "
        "the model's text talked to the reader instead of summarising the pages."
    ),
    "section_from_quotes:question": (
        "Section {number} ({title}) was written from quotes of the document: "
        "the model's text asked questions instead of summarising the pages."
    ),
    "section_from_quotes:repeated_sentence": (
        "Section {number} ({title}) was written from quotes of the document: the model's text repeated a sentence."
    ),
    "section_from_quotes:repeated_words": (
        "Section {number} ({title}) was written from quotes of the document: the model's text repeated itself."
    ),
    "section_from_quotes:unknown_words": (
        "Section {number} ({title}) was written from quotes of the document: "
        "the model's text had words that are not in the dictionary."
    ),
    "section_from_quotes:wrong_language": (
        "Section {number} ({title}) was written from quotes of the document: the model's text was in another language."
    ),
    "section_from_quotes:too_short": (
        "Section {number} ({title}) was written from quotes of the document: the model's text was too short."
    ),
    "section_from_quotes:copied": (
        "Section {number} ({title}) was written from quotes of the document: "
        "the model's text copied the document word for word."
    ),
    "sections_quoted": (
        "The sections quote the document's key passages: the chosen model is too small to write summaries. "
        "Choose a larger model in Settings for summaries."
    ),
    "pages_left_out": "Pages {pages} were left out of the study guide: they hold no study content.",
    "pages_left_out:title_page": "Pages {pages} were left out of the study guide: they are the title page.",
    "pages_left_out:contents": "Pages {pages} were left out of the study guide: they are the table of contents.",
    "pages_left_out:thanks": "Pages {pages} were left out of the study guide: they hold thanks and dedications.",
    "pages_left_out:index": "Pages {pages} were left out of the study guide: they are the index.",
    "pages_left_out:bibliography": "Pages {pages} were left out of the study guide: they are the bibliography.",
    "waiting_retry": "Waiting to try again…",
    # Counters (core.app.documents.counters), joined with " · ".
    "count_pages": "page {done} of {total}",
    "count_parts": "part {done} of {total}",
    "count_outline": "planning part {done} of {total}",
    "count_sections": "section {done} of {total}",
    "count_plan": "plan: {sections} sections from {tokens} tokens",
    "count_plan_chapters": "plan: {sections} sections from the document's chapters, {tokens} tokens",
    "count_plan_time": "about {minutes} min",
    "count_plan_one": "plan: one section from {tokens} tokens",
    "count_plan_chapters_one": "plan: one section from the document's chapters, {tokens} tokens",
}

PT_BR: dict[str, str] = {
    "reading": "Lendo o documento…",
    "reading_page": "Lendo página {done} de {total}…",
    "recognising_page": "Reconhecendo o texto da página {done} de {total}…",
    "reading_part": "Lendo parte {done} de {total}…",
    "cleaning": "Limpando o texto…",
    "saving": "Salvando…",
    "loading_model": "Carregando o modelo de linguagem…",
    "outlining": "Planejando o guia de estudo…",
    "outlining_part": "Planejando o guia de estudo: parte {current} de {total}…",
    "writing_section": "Escrevendo a seção {current} de {total}…",
    "exporting": "Salvando o guia de estudo…",
    "section_from_quotes": (
        "A seção {number} ({title}) foi feita com citações do documento: o texto do modelo não passou na verificação."
    ),
    "section_from_quotes:echoed_prompt": (
        "A seção {number} ({title}) foi feita com citações do documento: "
        "o texto do modelo repetia as instruções que recebeu em vez das páginas."
    ),
    "section_from_quotes:ungrounded": (
        "A seção {number} ({title}) foi feita com citações do documento: "
        "o texto do modelo dizia o que suas páginas não dizem."
    ),
    "section_from_quotes:first_person": (
        "A seção {number} ({title}) foi feita com citações do documento: "
        "o texto do modelo contava o que o próprio modelo fazia em vez do que as páginas dizem."
    ),
    "section_from_quotes:chatter": (
        "A seção {number} ({title}) foi feita com citações do documento: "
        "o texto do modelo conversava com o leitor em vez de resumir as páginas."
    ),
    "section_from_quotes:question": (
        "A seção {number} ({title}) foi feita com citações do documento: "
        "o texto do modelo fazia perguntas em vez de resumir as páginas."
    ),
    "section_from_quotes:repeated_sentence": (
        "A seção {number} ({title}) foi feita com citações do documento: o texto do modelo repetia uma frase."
    ),
    "section_from_quotes:repeated_words": (
        "A seção {number} ({title}) foi feita com citações do documento: o texto do modelo se repetia."
    ),
    "section_from_quotes:unknown_words": (
        "A seção {number} ({title}) foi feita com citações do documento: "
        "o texto do modelo tinha palavras que não estão no dicionário."
    ),
    "section_from_quotes:wrong_language": (
        "A seção {number} ({title}) foi feita com citações do documento: o texto do modelo estava em outro idioma."
    ),
    "section_from_quotes:too_short": (
        "A seção {number} ({title}) foi feita com citações do documento: o texto do modelo era curto demais."
    ),
    "section_from_quotes:copied": (
        "A seção {number} ({title}) foi feita com citações do documento: "
        "o texto do modelo copiava o documento palavra por palavra."
    ),
    "sections_quoted": (
        "As seções citam os trechos principais do documento: o modelo escolhido é pequeno demais para escrever "
        "resumos. Escolha um modelo maior nas Configurações para ter resumos."
    ),
    "pages_left_out": "As páginas {pages} ficaram fora do guia de estudo: não têm conteúdo para estudar.",
    "pages_left_out:title_page": "As páginas {pages} ficaram fora do guia de estudo: são a folha de rosto.",
    "pages_left_out:contents": "As páginas {pages} ficaram fora do guia de estudo: são o sumário.",
    "pages_left_out:thanks": "As páginas {pages} ficaram fora do guia de estudo: são agradecimentos e dedicatórias.",
    "pages_left_out:index": "As páginas {pages} ficaram fora do guia de estudo: são o índice remissivo.",
    "pages_left_out:bibliography": "As páginas {pages} ficaram fora do guia de estudo: são a bibliografia.",
    "waiting_retry": "Aguardando para tentar de novo…",
    "count_pages": "página {done} de {total}",
    "count_parts": "parte {done} de {total}",
    "count_outline": "planejamento: parte {done} de {total}",
    "count_sections": "seção {done} de {total}",
    "count_plan": "plano: {sections} seções a partir de {tokens} tokens",
    "count_plan_chapters": "plano: {sections} seções a partir dos capítulos do documento, {tokens} tokens",
    "count_plan_time": "cerca de {minutes} min",
    "count_plan_one": "plano: uma seção a partir de {tokens} tokens",
    "count_plan_chapters_one": "plano: uma seção a partir dos capítulos do documento, {tokens} tokens",
}

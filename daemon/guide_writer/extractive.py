"""The fallback section: the section's key sentences, quoted from its own passages, when the model's text fails.

Sentences are ranked by TF-IDF centrality (TextRank's idea without its iterations: a sentence that shares
rare words with many other sentences of the section carries its subject). The best ones are quoted in document
order, each with its page when the passage has one, under a short italic note that says the section is made of
quotes. Sentences the guide already holds are never quoted again. Pure and thread-safe.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from daemon.guide_writer.checks import normalize_sentence, split_sentences, word_tokens

__all__ = [
    "QUOTES_NOTE",
    "QUOTES_ONLY_NOTE",
    "is_whole_sentence",
    "quoted_section",
    "quotes_only_note",
    "rank_sentences",
]

QUOTES_NOTE: dict[str, str] = {
    "pt": "*Seção feita de citações do documento: o texto do modelo não passou na verificação.*",
    "en": "*This section is made of quotes from the document: the model's text failed the check.*",
    "es": "*Sección hecha de citas del documento: el texto del modelo no pasó la verificación.*",
    "fr": "*Section faite de citations du document : le texte du modèle n'a pas passé la vérification.*",
    "de": "*Dieser Abschnitt besteht aus Zitaten des Dokuments: der Text des Modells hat die Prüfung nicht bestanden.*",
    "it": "*Sezione fatta di citazioni del documento: il testo del modello non ha superato la verifica.*",
}
"""The note that opens a section made of quotes, by language (English for any other)."""

QUOTES_ONLY_NOTE: dict[str, str] = {
    "pt": "*Os trechos principais de cada seção são citações do documento: o modelo escolhido não escreve resumos.*",
    "en": "*Each section's key passages are quotes from the document: the chosen model does not write summaries.*",
    "es": "*Los pasajes clave de cada sección son citas del documento: el modelo elegido no escribe resúmenes.*",
    "fr": "*Les passages clés de chaque section sont des citations du document : le modèle choisi n'écrit pas de "
    "résumés.*",
    "de": "*Die wichtigen Textstellen jedes Abschnitts sind Zitate des Dokuments: das gewählte Modell schreibt keine "
    "Zusammenfassungen.*",
    "it": "*I passaggi chiave di ogni sezione sono citazioni del documento: il modello scelto non scrive riassunti.*",
}
"""The note in the head of a guide whose model writes no summaries, by language (English for any other)."""

_MIN_WORDS, _MAX_WORDS = 6, 60
_OPENING_MARKS = "\"“‘'«¿¡"
_ENDS = re.compile(r"[.!?…][\"”’'»)]?$")
_WORDS_PER_QUOTE = 120


def quotes_only_note(language: str) -> str:
    """:data:`QUOTES_ONLY_NOTE` in ``language`` (English for a language it does not have)."""
    return QUOTES_ONLY_NOTE.get(language, QUOTES_ONLY_NOTE["en"])


def is_whole_sentence(sentence: str) -> bool:
    """Whether ``sentence`` reads as a sentence of its own: it opens with a capital letter or a digit (after an
    opening quote) and ends with a full stop, a question or exclamation mark, not with a colon or mid-phrase (the
    lead-in to a command, a fragment a line break cut)."""
    text = sentence.strip()
    opening = text.lstrip(_OPENING_MARKS)
    return bool(opening) and (opening[0].isupper() or opening[0].isdigit()) and bool(_ENDS.search(text))


def rank_sentences(sentences: Sequence[str]) -> list[int]:
    """Indexes of ``sentences``, most central first (ties: earlier first)."""
    bags = [Counter(w.lower() for w in word_tokens(s) if len(w) > 2) for s in sentences]
    frequency = Counter(word for bag in bags for word in bag)
    count = len(sentences)
    vectors = []
    for bag in bags:
        vector = {w: n * math.log((1 + count) / (1 + frequency[w])) + n * 1e-3 for w, n in bag.items()}
        norm = math.sqrt(sum(v * v for v in vector.values())) or 1.0
        vectors.append({w: v / norm for w, v in vector.items()})
    scores = []
    for i, vector in enumerate(vectors):
        score = 0.0
        for j, other in enumerate(vectors):
            if i != j:
                score += sum(v * other.get(w, 0.0) for w, v in vector.items())
        scores.append(score)
    return sorted(range(count), key=lambda i: (-scores[i], i))


def quoted_section(
    passages: Sequence[str],
    *,
    language: str,
    pages: Sequence[str | None] | None = None,
    seen_sentences: set[str] | None = None,
    max_quotes: int = 6,
    note: bool = True,
) -> str:
    """The Markdown body of a section made of quotes of ``passages``.

    Args:
        passages: The section's passages, in document order.
        language: The guide's language (the note's language).
        pages: Where each passage is, e.g. ``"p. 12"`` (``None`` for a passage with no page).
        seen_sentences: :func:`~daemon.guide_writer.checks.normalize_sentence` keys of sentences already in the guide;
            they are not quoted, and the quoted ones are added.
        max_quotes: At most this many quotes (fewer for a short section: one per ~120 words).
        note: Whether the section opens with :data:`QUOTES_NOTE` (the model's text failed its check).

    Returns:
        The note (when ``note``), then one quote per line (``> sentence (p. 12)``); only the note (or ``""``)
        when nothing is quotable.
    """
    seen = seen_sentences if seen_sentences is not None else set()
    candidates: list[tuple[str, str | None]] = []
    keys: set[str] = set()
    for index, passage in enumerate(passages):
        page = pages[index] if pages is not None and index < len(pages) else None
        for sentence in split_sentences(passage):
            key = normalize_sentence(sentence)
            size = len(word_tokens(sentence))
            if key and key not in seen and key not in keys and _MIN_WORDS <= size <= _MAX_WORDS:
                keys.add(key)
                candidates.append((sentence, page))
    whole = [candidate for candidate in candidates if is_whole_sentence(candidate[0])]
    candidates = whole or candidates  # a lead-in to code or a fragment only when nothing else is quotable
    total_words = sum(len(word_tokens(p)) for p in passages)
    wanted = max(1, min(max_quotes, round(total_words / _WORDS_PER_QUOTE)))
    chosen = sorted(rank_sentences([s for s, _ in candidates])[:wanted])
    lines = [QUOTES_NOTE.get(language, QUOTES_NOTE["en"])] if note else []
    for index in chosen:
        sentence, page = candidates[index]
        seen.add(normalize_sentence(sentence))
        lines.append(f"> {sentence} ({page})" if page else f"> {sentence}")
    return "\n\n".join(lines)

"""The fallback section: the section's key sentences, quoted from its own passages, when the model's text fails.

Sentences are ranked by TF-IDF centrality (TextRank's idea without its iterations: a sentence that shares
rare words with many other sentences of the section carries its subject). The best ones are quoted in document
order, each with its page when the passage has one, under a short italic note that says the section is made of
quotes. Sentences the guide already holds are never quoted again. Pure and thread-safe.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from daemon.llm.checks import normalize_sentence, split_sentences, word_tokens

__all__ = ["QUOTES_NOTE", "quoted_section", "rank_sentences"]

QUOTES_NOTE: dict[str, str] = {
    "pt": "_Seção feita de citações do documento: o texto do modelo não passou na verificação._",
    "en": "_This section is made of quotes from the document: the model's text failed the check._",
    "es": "_Sección hecha de citas del documento: el texto del modelo no pasó la verificación._",
    "fr": "_Section faite de citations du document : le texte du modèle n'a pas passé la vérification._",
    "de": "_Dieser Abschnitt besteht aus Zitaten des Dokuments: der Text des Modells hat die Prüfung nicht bestanden._",
    "it": "_Sezione fatta di citazioni del documento: il testo del modello non ha superato la verifica._",
}
"""The note that opens a section made of quotes, by language (English for any other)."""

_MIN_WORDS, _MAX_WORDS = 6, 60
_WORDS_PER_QUOTE = 120


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
) -> str:
    """The Markdown body of a section made of quotes of ``passages``.

    Args:
        passages: The section's passages, in document order.
        language: The guide's language (the note's language).
        pages: Where each passage is, e.g. ``"p. 12"`` (``None`` for a passage with no page).
        seen_sentences: :func:`~daemon.llm.checks.normalize_sentence` keys of sentences already in the guide;
            they are not quoted, and the quoted ones are added.
        max_quotes: At most this many quotes (fewer for a short section: one per ~120 words).

    Returns:
        The note, then one quote per line (``> sentence (p. 12)``); only the note when nothing is quotable.
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
    total_words = sum(len(word_tokens(p)) for p in passages)
    wanted = max(1, min(max_quotes, round(total_words / _WORDS_PER_QUOTE)))
    chosen = sorted(rank_sentences([s for s, _ in candidates])[:wanted])
    lines = [QUOTES_NOTE.get(language, QUOTES_NOTE["en"])]
    for index in chosen:
        sentence, page = candidates[index]
        seen.add(normalize_sentence(sentence))
        lines.append(f"> {sentence} ({page})" if page else f"> {sentence}")
    return "\n\n".join(lines)

"""The Markdown shape of a study guide, shared by the writer that makes it and the screens that show it.

A guide is its **head** (position :data:`HEAD_POSITION`: ``# title``, then an overview when there is one) and its
**sections** (positions 1, 2 …: ``## title``, a blank line, the body), joined by :func:`join_guide`. Pure
functions, no imports beyond the standard library (the model code imports this without the database layer).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["HEAD_POSITION", "head_markdown", "join_guide", "section_body", "section_markdown"]

HEAD_POSITION = 0
"""The ``guide_sections`` position of a guide's head (its title and overview)."""


def head_markdown(title: str, overview: str = "") -> str:
    """The head's Markdown: ``# title``, then the overview after a blank line when there is one."""
    return f"# {title}\n\n{overview}" if overview else f"# {title}"


def section_markdown(title: str, body: str) -> str:
    """One section's Markdown as it stands in the guide: ``## title``, a blank line, the body."""
    return f"## {title}\n\n{body}"


def section_body(markdown: str, title: str) -> str | None:
    """The body of a part made by :func:`section_markdown` with ``title`` (``None``: it was not)."""
    prefix = section_markdown(title, "")
    return markdown[len(prefix) :] if markdown.startswith(prefix) else None


def join_guide(parts: Sequence[str]) -> str:
    """The guide's Markdown from its parts in order (head first): a blank line between parts, a final newline."""
    return "\n\n".join(parts) + "\n"

"""Which section of a study guide shown in a text browser the reader is at (for "Rewrite this section").

The guide's Markdown has its sections as level-2 headings (:mod:`core.app.guides.markdown`); Qt keeps the heading
level of each block it renders, so the section is the number of level-2 headings up to the cursor's block. UI
thread only.
"""

from __future__ import annotations

from PySide6.QtWidgets import QTextBrowser

__all__ = ["section_under_cursor"]


def section_under_cursor(browser: QTextBrowser) -> tuple[int, str] | None:
    """The 1-based section holding the browser's cursor and its title; ``None`` before the first section."""
    current = browser.textCursor().block()
    block = browser.document().firstBlock()
    found: tuple[int, str] | None = None
    count = 0
    while block.isValid():
        if block.blockFormat().headingLevel() == 2:
            count += 1
            found = (count, block.text())
        if block == current:
            return found
        block = block.next()
    return found

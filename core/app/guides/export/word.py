"""A study guide as a Word document (``.docx``, python-docx) in Word's own styles (see docs/design/documents.md).

Pure I/O on the calling thread (a worker thread for screens); writes ``path`` only when the document is complete.
"""

from __future__ import annotations

from pathlib import Path

import docx
from docx.document import Document
from docx.shared import Pt
from docx.text.paragraph import Paragraph

from core.app.guides.export.blocks import Block, parse_blocks, parse_inline
from core.app.storage.files import write_whole

__all__ = ["build_docx", "write_docx"]

_LIST_STYLES = {"bullet": "List Bullet", "numbered": "List Number"}


def _add_runs(paragraph: Paragraph, text: str, *, breaks: bool = False) -> None:
    """The styled runs of ``text``; a line starts a new line when ``breaks`` or when it opens with a bold label
    ("**A:** …"), else it reads on after a space."""
    for line_number, line in enumerate(text.split("\n")):
        if line_number and (breaks or line.startswith(("**", "__"))):
            paragraph.add_run().add_break()
        elif line_number:
            paragraph.add_run(" ")
        for span in parse_inline(line):
            run = paragraph.add_run(span.text)
            if span.bold:
                run.bold = True
            if span.italic:
                run.italic = True
            if span.code:
                run.font.name = "Courier New"


class _Styles:
    """Adds paragraphs in a named style, looking each style up once.

    python-docx looks a style up by scanning every style of the document at each paragraph (about 4 ms in the
    default template): a long guide took seconds. The style's id is found once (``styles[name]``) and set on each
    new paragraph's properties, which is what ``add_paragraph(style=name)`` writes.
    """

    def __init__(self, document: Document) -> None:
        self.document = document
        self.ids: dict[str, str] = {}

    def add(self, name: str) -> Paragraph:
        if name not in self.ids:
            self.ids[name] = self.document.styles[name].style_id
        paragraph = self.document.add_paragraph()
        paragraph._p.get_or_add_pPr().style = self.ids[name]
        return paragraph


def _heading(styles: _Styles, block: Block) -> None:
    name = "Title" if block.level == 1 else f"Heading {min(block.level - 1, 4)}"
    _add_runs(styles.add(name), block.text)


def _list_item(styles: _Styles, block: Block) -> None:
    style = _LIST_STYLES[block.kind]
    depth = min(block.level, 2)
    _add_runs(styles.add(f"{style} {depth + 1}" if depth else style), block.text)


def _table(document: Document, block: Block) -> None:
    width = max(len(row) for row in block.rows)
    table = document.add_table(rows=len(block.rows), cols=width)
    table.style = "Table Grid"
    for row_number, row in enumerate(block.rows):
        for column, text in enumerate(row):
            paragraph = table.cell(row_number, column).paragraphs[0]
            _add_runs(paragraph, text)
            if row_number == 0:
                for run in paragraph.runs:
                    run.bold = True


def _code(document: Document, block: Block) -> None:
    paragraph = document.add_paragraph()
    for line_number, line in enumerate(block.text.split("\n")):
        run = paragraph.add_run(line)
        run.font.name = "Courier New"
        run.font.size = Pt(9)
        if line_number < block.text.count("\n"):
            run.add_break()


def build_docx(markdown: str, title: str = "") -> Document:
    """The Word document of ``markdown`` (``title`` fills the file's properties; default: the first heading)."""
    document = docx.Document()
    styles = _Styles(document)
    for block in parse_blocks(markdown):
        if block.kind == "heading":
            _heading(styles, block)
            if block.level == 1 and not title:
                title = block.text
        elif block.kind in _LIST_STYLES:
            _list_item(styles, block)
        elif block.kind == "quote":
            _add_runs(styles.add("Quote"), block.text, breaks=True)
        elif block.kind == "table":
            _table(document, block)
        elif block.kind == "code":
            _code(document, block)
        elif block.kind == "rule":
            document.add_paragraph("―" * 12)
        else:
            _add_runs(document.add_paragraph(), block.text)
    document.core_properties.title = "".join(span.text for span in parse_inline(title))[:255]
    return document


def write_docx(markdown: str, path: Path, title: str = "") -> None:
    """Write the guide ``markdown`` to ``path`` as a Word file (a temporary file renamed into place)."""
    document = build_docx(markdown, title)
    write_whole(path, lambda temporary: document.save(str(temporary)))

"""Exporting a finished study guide: Markdown, Word, an Anki deck and CSV here (Qt-free); the PDF in
:mod:`gui.export_pdf`. :mod:`core.export.service` is the entry for the window, :mod:`core.export.command` for the
command line; the guide's Markdown is read into blocks (:mod:`core.export.blocks`) and cards
(:mod:`core.export.cards`)."""

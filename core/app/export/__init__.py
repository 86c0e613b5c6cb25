"""Exporting a finished study guide: Markdown, Word, an Anki deck and CSV here (Qt-free); the PDF in
:mod:`gui.export_pdf`. :mod:`core.app.export.service` is the entry for the window, :mod:`core.app.export.command` for
the command line; the guide's Markdown is read into blocks (:mod:`core.app.export.blocks`) and cards
(:mod:`core.app.export.cards`)."""

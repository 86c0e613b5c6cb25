"""Exporting a finished study guide: Markdown, Word, an Anki deck and CSV here (Qt-free); the PDF in
:mod:`gui.guide.export_pdf`. :mod:`core.app.guides.export.service` is the entry for the window,
:mod:`daemon.cli.export` for the command line; the guide's Markdown is read into blocks
(:mod:`core.app.guides.export.blocks`) and cards (:mod:`core.app.guides.export.cards`)."""

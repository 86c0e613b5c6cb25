"""The model catalog's "good for" lines in the user's language.

The catalog (``resources/models.json``) is written in English; each of its lines is listed here for ``lupdate``, so
the ``.ts`` files carry their translations (context ``Catalog``). A line not listed (a catalog edited since) is shown
as the catalog gives it. UI thread only (after the translator is installed).
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from core.app.models.catalog import CatalogModel

__all__ = ["GOOD_FOR", "good_for_text"]

GOOD_FOR = (
    QT_TRANSLATE_NOOP(
        "Catalog",
        "Trying StudyJobs without a download: it works offline; its guides quote key passages instead of summaries.",
    ),
    QT_TRANSLATE_NOOP(
        "Catalog",
        "Laptops with 8 GB of RAM: clear guides in Portuguese and English, never stops to think aloud.",
    ),
    QT_TRANSLATE_NOOP(
        "Catalog",
        "Lighter laptops: the smallest download here, the maker's own file, lists Portuguese.",
    ),
    QT_TRANSLATE_NOOP(
        "Catalog",
        "Computers with 8 GB of RAM or more: a newer Qwen, run with its thinking turned off.",
    ),
    QT_TRANSLATE_NOOP(
        "Catalog",
        "Computers with 16 GB of RAM: the best guides of this list, slower on a laptop.",
    ),
)
"""The catalog's lines, as ``lupdate`` must see them."""


def good_for_text(model: CatalogModel) -> str:
    """``model``'s "good for" line in the window's language."""
    return QCoreApplication.translate("Catalog", model.good_for)

"""Translations: the app's ``.qm`` files (built from ``resources/translations/*.ts``) and Qt's own.

The language is the setting's (``pt_BR`` or ``en``), or the system locale's when the setting is ``system``.
:func:`install_translations` also sets the default :class:`QLocale`, so dates and numbers follow the language.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from core.app.settings.config import resolve_language

__all__ = ["ICONS_DIR", "TRANSLATIONS_DIR", "current_language", "install_translations", "remove_translations"]

log = logging.getLogger(__name__)

RESOURCES_DIR = Path(__file__).resolve().parents[1] / "resources"
TRANSLATIONS_DIR = RESOURCES_DIR / "translations"
ICONS_DIR = RESOURCES_DIR / "icons"
_installed: list[QTranslator] = []
_language: list[str] = []  # the language of the installed translators (empty: none, the source texts' English)


def install_translations(app: QCoreApplication, setting: str = "system", system_locale: str | None = None) -> str:
    """Load and install the translators for the language; returns ``"pt_BR"`` or ``"en"``.

    Args:
        app: The application.
        setting: The ``language`` setting (``system``, ``pt_BR`` or ``en``).
        system_locale: The system locale name (default: ``QLocale.system().name()``).
    """
    remove_translations(app)
    language = resolve_language(setting, system_locale if system_locale is not None else QLocale.system().name())
    QLocale.setDefault(QLocale(language))
    ours = QTranslator(app)
    if ours.load(f"studyjobs_{language}", str(TRANSLATIONS_DIR)):
        app.installTranslator(ours)
        _installed.append(ours)
    else:
        log.warning("no translation file for %s in %s", language, TRANSLATIONS_DIR)
    qt = QTranslator(app)
    if language != "en" and qt.load(f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        _installed.append(qt)
    _language[:] = [language]
    return language


def current_language() -> str:
    """The language :func:`install_translations` installed (``"pt_BR"`` or ``"en"``); ``"en"`` before that.

    The window translates what the worker stored (:func:`core.app.messages.sentences.render`) into this language, so a
    job's messages read in the same language as the rest of the window.
    """
    return _language[0] if _language else "en"


def remove_translations(app: QCoreApplication) -> None:
    """Uninstall the translators :func:`install_translations` installed."""
    while _installed:
        app.removeTranslator(_installed.pop())
    _language.clear()

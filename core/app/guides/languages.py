"""The languages a study guide can be written in, for the screens and the command line (plain data).

The daemon's prompts and checks exist for each of them (``daemon.guide_writer.prompts.LANGUAGES`` is the same tuple). A
job's ``params["language"]`` holds one of these codes when the user picked the guide's language; without it the
guide is written in the document's language.
"""

from __future__ import annotations

__all__ = ["GUIDE_LANGUAGES", "GUIDE_LANGUAGE_NAMES"]

GUIDE_LANGUAGES: tuple[str, ...] = ("pt", "en", "es", "fr", "de", "it")
"""ISO 639-1 codes, in the order a screen lists them."""

GUIDE_LANGUAGE_NAMES: dict[str, str] = {
    "pt": "Português",
    "en": "English",
    "es": "Español",
    "fr": "Français",
    "de": "Deutsch",
    "it": "Italiano",
}
"""Each language's name in that language (how a language is shown in a list of languages)."""

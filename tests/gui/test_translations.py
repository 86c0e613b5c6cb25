"""Translations: the committed .ts/.qm files are current, every string has a pt_BR translation, and they load."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from PySide6.QtCore import QCoreApplication

from devkit import build_translations
from gui.i18n import install_translations, remove_translations
from gui.texts import eta_text, status_label


def test_the_qm_files_are_up_to_date_with_the_ts_sources_and_the_code():
    assert build_translations.check() == []


def test_every_source_string_has_a_pt_br_translation():
    root = ET.parse(build_translations.ts_path("pt_BR")).getroot()
    messages = root.findall("context/message")
    assert len(messages) > 100
    untranslated = [
        m.findtext("source")
        for m in messages
        if not (m.findtext("translation") or "").strip()
        or m.find("translation").get("type") in ("unfinished", "vanished")
    ]
    assert untranslated == []
    for m in messages:  # placeholders survive translation
        source, translation = m.findtext("source"), m.findtext("translation")
        assert sorted(re.findall(r"\{[^}]*\}", source)) == sorted(re.findall(r"\{[^}]*\}", translation)), source


def test_the_language_follows_the_setting_and_the_system_locale(qapp):
    try:
        assert install_translations(qapp, "system", "pt_BR") == "pt_BR"
        assert status_label("running") == "Em andamento"
        assert QCoreApplication.translate("MainWindow", "&Retry") == "&Tentar de novo"
        assert install_translations(qapp, "system", "de_DE") == "en"
        assert status_label("running") == "Running"
        assert install_translations(qapp, "pt_BR", "en_US") == "pt_BR"
        assert status_label("cancelled") == "Cancelada"
    finally:
        remove_translations(qapp)
        install_translations(qapp, "en")
        remove_translations(qapp)


def test_a_running_job_without_an_estimate_reads_estimating_in_both_languages(qapp):
    try:
        install_translations(qapp, "en")
        assert (eta_text(None), eta_text(30), eta_text(600)) == ("estimating…", "less than a minute", "about 10 min")
        install_translations(qapp, "pt_BR")
        assert (eta_text(None), eta_text(30)) == ("calculando…", "menos de um minuto")
    finally:
        remove_translations(qapp)

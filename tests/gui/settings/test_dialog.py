"""The settings dialog, the tray notifications, pausing while hidden, the remembered layout and the error dialog."""

from __future__ import annotations

import http.server
import threading

from PySide6.QtWidgets import QApplication

from core.app.settings.config import load_settings
from gui.error_dialog import ErrorReporter
from gui.settings.dialog import SettingsDialog
from gui.tray import Tray


class _Models(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        ok = self.path == "/v1/models"
        self.send_response(200 if ok else 404)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b'{"data": [{"id": "qwen"}]}' if ok else b"{}")

    def log_message(self, *args: object) -> None:
        pass


def test_settings_are_saved(settings, qtbot, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    dialog.open()
    assert not dialog.general.autostart.isHidden() and not dialog.general.autostart.isChecked()
    assert dialog.bundled.isChecked() and not dialog.endpoint.isEnabled()
    dialog.http.setChecked(True)
    assert dialog.endpoint.isEnabled()
    dialog.endpoint.setText("http://127.0.0.1:8080/v1")
    dialog.model_name.setText("qwen")
    dialog.general.threads.setValue(3)
    dialog.general.language.setCurrentIndex(dialog.general.language.findData("pt_BR"))
    dialog.general.notifications.setChecked(False)
    with qtbot.waitSignal(dialog.saved, timeout=2000):
        dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
    loaded = load_settings(settings.settings_path)
    assert loaded.model.kind == "http" and loaded.model.endpoint == "http://127.0.0.1:8080/v1"
    assert loaded.worker_threads == 3 and loaded.language == "pt_BR" and loaded.notifications is False
    assert loaded.model.context == 0


def test_the_context_window_is_automatic_until_a_size_is_chosen_and_a_chosen_size_is_saved(settings, qtbot):
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    dialog.open()
    assert dialog.context.value() == 0 and dialog.context.text() == "Automatic"
    dialog.context.setValue(6144)
    with qtbot.waitSignal(dialog.saved, timeout=2000):
        dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
    assert load_settings(settings.settings_path).model.context == 6144
    again = SettingsDialog(load_settings(settings.settings_path))
    qtbot.addWidget(again)
    assert again.context.value() == 6144 and again.context.text() == "6144 tokens"
    again.context.setValue(0)
    with qtbot.waitSignal(again.saved, timeout=2000):
        again.buttons.button(again.buttons.StandardButton.Save).click()
    assert load_settings(settings.settings_path).model.context == 0


def test_the_start_at_login_box_registers_the_worker_and_unregisters_it(settings, qtbot, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    entry = tmp_path / "config" / "autostart" / "studyjobs-worker.desktop"
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    dialog.open()
    dialog.general.autostart.setChecked(True)
    with qtbot.waitSignal(dialog.saved, timeout=2000):
        dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
    assert entry.is_file() and "daemon.cli.main daemon --autostart" in entry.read_text(encoding="utf-8")
    assert load_settings(settings.settings_path).autostart is True
    again = SettingsDialog(load_settings(settings.settings_path))
    qtbot.addWidget(again)
    again.open()
    assert again.general.autostart.isChecked()
    again.general.autostart.setChecked(False)
    with qtbot.waitSignal(again.saved, timeout=2000):
        again.buttons.button(again.buttons.StandardButton.Save).click()
    assert not entry.exists()


def test_a_bad_setting_is_shown_and_nothing_is_saved(settings, qtbot):
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    dialog.open()
    dialog.gguf.setChecked(True)
    dialog.gguf_path.setText("")
    dialog.accept()
    assert "gguf_path" in dialog.error.text()
    assert dialog.isVisible()
    assert not settings.settings_path.exists()


def test_test_connection_asks_the_server_for_its_models(settings, qtbot):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Models)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        dialog = SettingsDialog(settings)
        qtbot.addWidget(dialog)
        dialog.http.setChecked(True)
        dialog.endpoint.setText(f"http://127.0.0.1:{server.server_address[1]}/v1")
        with qtbot.waitSignal(dialog.connection_tested, timeout=10000) as ok:
            dialog.test_button.click()
        assert ok.args[0] is True
        dialog.endpoint.setText(f"http://127.0.0.1:{server.server_address[1]}/nothing")
        with qtbot.waitSignal(dialog.connection_tested, timeout=10000) as bad:
            dialog.test_button.click()
        assert bad.args[0] is False and "404" in bad.args[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_finished_and_failed_jobs_notify_and_cancelled_ones_do_not(make_window, store, run, wait_until, qapp):
    tray = Tray(qapp.windowIcon(), notifications=True)
    window = make_window(tray=tray)

    async def scenario() -> None:
        text_only = {"only_extract": True}  # the reading is the whole document
        jobs = [await store.enqueue("ingest", title=f"doc{i}.pdf", params=text_only) for i in range(3)]
        for job in jobs:
            await store.claim(job.id)
        await wait_until(lambda: [r.status for r in window.model.rows] == ["running"] * 3, what="running rows")
        await store.succeed(jobs[0].id)
        await store.fail(jobs[1].id, "O arquivo está corrompido.")
        await store.cancel(jobs[2].id)
        await wait_until(lambda: len(tray.sent) == 2, what="two notifications")

    try:
        run(scenario())
        titles = sorted(t for t, _m in tray.sent)
        assert titles == ["Finished: doc0.pdf", "Stopped: doc1.pdf"]
        assert ("Stopped: doc1.pdf", "O arquivo está corrompido.") in tray.sent
    finally:
        tray.close()


def test_polling_pauses_while_the_window_is_hidden(window, run):
    assert window.feed.polling
    window.hide()
    assert not window.feed.polling and not window.daemon_bar.timer.isActive()
    window.show()
    assert window.feed.polling


def test_the_window_remembers_its_size_and_columns(make_window, run):
    first = make_window()
    first.resize(700, 450)
    first.view.setColumnWidth(1, 177)
    run(first.shutdown())
    second = make_window()
    assert (second.size().width(), second.size().height()) == (700, 450)
    assert second.view.columnWidth(1) == 177


def test_an_unexpected_error_is_logged_and_shown_once_with_copy_details(qtbot, caplog):
    reporter = ErrorReporter()
    for _ in range(2):
        try:
            raise RuntimeError("disk on fire")
        except RuntimeError as exc:
            reporter.report(exc)
    assert reporter.dialog is not None and reporter.dialog.isVisible()
    qtbot.addWidget(reporter.dialog)
    assert "disk on fire" in reporter.dialog.message_label.text()
    assert "Traceback" in reporter.dialog.details
    reporter.dialog.copy_button.click()
    assert "RuntimeError: disk on fire" in QApplication.clipboard().text()
    assert len([r for r in caplog.records if "disk on fire" in r.getMessage()]) == 2
    first = reporter.dialog
    assert reporter.dialog is first  # the same error twice in a row is one dialog

"""Settings: the model servers found (fake Ollama and LM Studio on loopback) fill the server and model when one is
chosen, a port that never answers leaves the window responsive, and the API key field keeps its key in a keyring
(the test's, never the developer's) — or says plainly that there is none."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit

from core.app.models.api_keys import SERVICE, account_for
from core.app.models.servers import ServerTarget
from core.app.settings.config import load_settings
from gui.settings.dialog import SettingsDialog
from tests.fakeservers import SilentPort, fake_lmstudio, fake_ollama, keyed_server


def _model_item(dialog: SettingsDialog, name: str):
    tree = dialog.servers.tree
    for index in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(index)
        for child in (top.child(i) for i in range(top.childCount())):
            if child.text(0) == name:
                return child
    raise AssertionError(f"{name} is not listed")


def test_the_servers_found_are_listed_and_choosing_a_model_fills_the_server_and_model_name(settings, qtbot, run):
    with fake_ollama() as ollama, fake_lmstudio() as lmstudio, SilentPort() as silent:
        dialog = SettingsDialog(settings)
        qtbot.addWidget(dialog)
        dialog.servers.targets = (
            ServerTarget("ollama", "Ollama", ollama.address),
            ServerTarget("lmstudio", "LM Studio", lmstudio.address),
            ServerTarget("llamacpp", "llama.cpp server", silent.address),
        )
        dialog.servers.timeout = 1.0
        ticks: list[int] = []

        async def scenario() -> None:
            dialog.open()  # the search starts as the dialog is shown, on the running loop (the window's)
            search = dialog.servers.task
            assert search is not None
            while not search.done():  # the loop goes on turning while the silent port is waited for
                ticks.append(1)
                await asyncio.sleep(0.05)

        run(scenario())
        tree = dialog.servers.tree
        assert [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())] == [
            f"Ollama — {ollama.address}/v1",
            f"LM Studio — {lmstudio.address}/v1",
        ]
        # The silent port held the search for its timeout; the window's loop kept turning meanwhile.
        assert len(ticks) >= 5, f"the event loop stalled during the search ({len(ticks)} ticks)"
        assert dialog.bundled.isChecked() and not dialog.endpoint.isEnabled()
        item = _model_item(dialog, "llama3.2:latest")
        tree.scrollToItem(item)
        qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualItemRect(item).center())
        assert dialog.http.isChecked() and dialog.endpoint.isEnabled()
        assert (dialog.endpoint.text(), dialog.model_name.text()) == (f"{ollama.address}/v1", "llama3.2:latest")
        with qtbot.waitSignal(dialog.saved, timeout=2000):
            dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
    model = load_settings(settings.settings_path).model
    assert (model.kind, model.endpoint, model.model_name) == ("http", f"{ollama.address}/v1", "llama3.2:latest")


def test_a_typed_address_is_asked_too_and_nothing_found_is_said_plainly(settings, qtbot, run):
    with fake_lmstudio() as lmstudio:
        dialog = SettingsDialog(settings)
        qtbot.addWidget(dialog)
        dialog.servers.targets = ()
        dialog.servers.address.setText(lmstudio.address)
        found = run(dialog.servers.search())
        assert [f.models for f in found] == [("gemma-3-4b-it",)]
        assert dialog.servers.tree.topLevelItemCount() == 1
    dialog.servers.address.setText("")
    run(dialog.servers.search())
    assert dialog.servers.tree.topLevelItemCount() == 0
    assert "No model server answered" in dialog.servers.status.text()


def test_the_api_key_is_saved_to_the_keyring_not_the_file_and_shown_masked_next_time(settings, qtbot, memory_keyring):
    endpoint = "https://llm.example.org/v1"
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    dialog.http.setChecked(True)
    dialog.endpoint.setText(endpoint)
    dialog.model_name.setText("big-model")
    assert dialog.api_key.edit.isEnabled() and "keyring" in dialog.api_key.note.text()
    assert dialog.api_key.edit.echoMode() is QLineEdit.EchoMode.Password
    qtbot.keyClicks(dialog.api_key.edit, "sk-gui-secret-31")
    with qtbot.waitSignal(dialog.saved, timeout=2000):
        dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
    assert memory_keyring.passwords == {(SERVICE, account_for(endpoint)): "sk-gui-secret-31"}
    assert "sk-gui-secret" not in settings.settings_path.read_text(encoding="utf-8")
    again = SettingsDialog(load_settings(settings.settings_path))
    qtbot.addWidget(again)
    assert again.api_key.key() == "sk-gui-secret-31"


def test_with_no_keyring_the_key_field_is_locked_and_says_to_use_the_environment_variable(settings, qtbot, monkeypatch):
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    dialog.http.setChecked(True)
    assert not dialog.api_key.edit.isEnabled()
    assert "no system keyring" in dialog.api_key.note.text() and "STUDYJOBS_API_KEY" in dialog.api_key.note.text()
    monkeypatch.setenv("STUDYJOBS_API_KEY", "sk-env-0001")
    dialog.api_key.show_key_of("https://llm.example.org/v1")
    assert "comes from the environment variable STUDYJOBS_API_KEY" in dialog.api_key.note.text()
    assert dialog.api_key.key() == ""  # the variable's value is never put in the field


def test_test_connection_sends_the_typed_key_to_a_server_that_wants_one(settings, qtbot, memory_keyring):
    with keyed_server("sk-typed-for-test-5") as server:
        dialog = SettingsDialog(settings)
        qtbot.addWidget(dialog)
        dialog.http.setChecked(True)
        dialog.endpoint.setText(f"{server.address}/v1")
        with qtbot.waitSignal(dialog.connection_tested, timeout=10000) as refused:
            dialog.test_button.click()
        dialog.api_key.edit.setText("sk-typed-for-test-5")
        with qtbot.waitSignal(dialog.connection_tested, timeout=10000) as accepted:
            dialog.test_button.click()
    assert refused.args[0] is False and "401" in refused.args[1]
    assert accepted.args[0] is True


def test_a_keyring_that_waits_leaves_the_window_answering_with_the_field_locked_until_the_key_is_there(
    settings, qtbot, run, wait_until, waiting_keyring
):
    waiting_keyring.passwords[(SERVICE, account_for(settings.model.endpoint))] = "sk-slow-77"

    async def scenario() -> SettingsDialog:
        dialog = SettingsDialog(settings)  # made on the running loop, as the window makes it
        qtbot.addWidget(dialog)
        dialog.http.setChecked(True)
        await wait_until(waiting_keyring.asked.is_set, timeout=10, what="the keyring to be asked")
        ticks = 0
        while ticks < 5:  # the loop turns while the keyring has not answered
            await asyncio.sleep(0.02)
            ticks += 1
        assert waiting_keyring.waiting == 1 and dialog.api_key.reading is not None
        assert not dialog.api_key.edit.isEnabled() and dialog.api_key.key() == ""
        assert "Reading the API key" in dialog.api_key.note.text()
        assert dialog.api_key.save(settings.model.endpoint) is False  # nothing read, nothing stored
        waiting_keyring.answer.set()
        await wait_until(lambda: dialog.api_key.reading is None, timeout=10, what="the key's read to end")
        return dialog

    dialog = run(scenario())
    assert dialog.api_key.key() == "sk-slow-77" and dialog.api_key.edit.isEnabled()
    assert "keyring" in dialog.api_key.note.text() and "Reading" not in dialog.api_key.note.text()
    assert waiting_keyring.passwords == {(SERVICE, account_for(settings.model.endpoint)): "sk-slow-77"}


def test_a_server_chosen_while_the_keyring_is_read_shows_its_own_key_and_closing_drops_a_read(
    settings, qtbot, run, wait_until, waiting_keyring
):
    remote = "https://llm.example.org/v1"
    waiting_keyring.passwords[(SERVICE, account_for(settings.model.endpoint))] = "sk-first-11"
    waiting_keyring.passwords[(SERVICE, account_for(remote))] = "sk-remote-22"

    async def scenario() -> None:
        dialog = SettingsDialog(settings)
        qtbot.addWidget(dialog)
        await wait_until(waiting_keyring.asked.is_set, timeout=10, what="the keyring to be asked")
        dialog.use_server(remote, "big-model")  # the first read is dropped, the remote server's is asked
        await wait_until(lambda: waiting_keyring.waiting == 2, timeout=10, what="two reads waiting on the keyring")
        waiting_keyring.answer.set()
        await wait_until(
            lambda: dialog.api_key.reading is None and waiting_keyring.waiting == 0,
            timeout=10,
            what="every read to end",
        )
        assert dialog.api_key.edit.isEnabled() and dialog.api_key.key() == "sk-remote-22"
        waiting_keyring.answer.clear()
        closing = SettingsDialog(settings)
        qtbot.addWidget(closing)
        await wait_until(lambda: waiting_keyring.waiting == 1, timeout=10, what="one read waiting on the keyring")
        read = closing.api_key.reading
        assert read is not None
        closing.reject()  # the read under way is dropped with the dialog
        assert closing.api_key.reading is None
        waiting_keyring.answer.set()
        await wait_until(lambda: read.done() and waiting_keyring.waiting == 0, timeout=10, what="the read to end")
        assert read.cancelled() and closing.api_key.key() == ""

    run(scenario())

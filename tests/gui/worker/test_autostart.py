"""Login autostart: each OS's entry rendered exactly as that OS documents, and the XDG adapter for real."""

from __future__ import annotations

import plistlib
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.app.workers.launch import worker_command
from gui.worker import autostart
from gui.worker.autostart import AutostartStatus

WORKER_ARGS = ["daemon", "--autostart"]
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the XDG adapter is the Linux one")


def _unescape_string(value: str) -> str:
    """The Desktop Entry spec's string unescaping (``\\s \\n \\t \\r \\\\``), done first when reading."""
    out, i = [], 0
    while i < len(value):
        if value[i] == "\\" and i + 1 < len(value):
            out.append({"s": " ", "n": "\n", "t": "\t", "r": "\r", "\\": "\\"}.get(value[i + 1], "\\" + value[i + 1]))
            i += 2
        else:
            out.append(value[i])
            i += 1
    return "".join(out)


def _parse_exec(value: str) -> list[str]:
    """Split an ``Exec`` value the way the spec's readers do: unescape the string, undo the quoting, ``%%``."""
    text, words, i = _unescape_string(value), [], 0
    while i < len(text):
        if text[i] == " ":
            i += 1
            continue
        word = []
        if text[i] == '"':
            i += 1
            while text[i] != '"':
                if text[i] == "\\" and text[i + 1] in '"`$\\':
                    i += 1
                word.append(text[i])
                i += 1
            i += 1
        else:
            while i < len(text) and text[i] != " ":
                word.append(text[i])
                i += 1
        words.append("".join(word).replace("%%", "%"))
    return words


def _exec_line(entry: str) -> str:
    return next(line.removeprefix("Exec=") for line in entry.splitlines() if line.startswith("Exec="))


def test_a_plain_command_is_written_without_quotes() -> None:
    entry = autostart.render_desktop_entry("/opt/StudyJobs/studyjobs-worker", WORKER_ARGS)
    assert _exec_line(entry) == "/opt/StudyJobs/studyjobs-worker daemon --autostart"
    assert entry.startswith("[Desktop Entry]\n")
    assert "Type=Application\n" in entry
    assert "X-GNOME-Autostart-enabled=true\n" in entry


def test_the_entry_names_its_program_in_try_exec_so_a_removed_app_is_skipped_at_login() -> None:
    entry = autostart.render_desktop_entry("/home/ana maria/Study Jobs/studyjobs-worker", WORKER_ARGS)
    assert "TryExec=/home/ana maria/Study Jobs/studyjobs-worker\n" in entry
    assert "TryExec=/opt/a\\\\b/worker\n" in autostart.render_desktop_entry("/opt/a\\b/worker", [])  # \\ escaped


def test_a_path_with_spaces_is_quoted_and_percent_is_doubled() -> None:
    entry = autostart.render_desktop_entry("/home/ana maria/Study Jobs/studyjobs-worker", ["--note=100%"])
    assert _exec_line(entry) == '"/home/ana maria/Study Jobs/studyjobs-worker" --note=100%%'


def test_dollar_and_backslash_are_escaped_as_the_spec_examples_show() -> None:
    # The spec: a literal backslash in a quoted argument is four backslashes, a literal dollar is "\\$".
    exec_value = _exec_line(autostart.render_desktop_entry("/opt/a$b/worker", ["back\\slash", 'say "hi"', "`x`"]))
    assert exec_value == '"/opt/a\\\\$b/worker" "back\\\\\\\\slash" "say \\\\"hi\\\\"" "\\\\`x\\\\`"'


def test_every_reserved_character_forces_quotes() -> None:
    for reserved in " \t\n\"'\\><~|&;$*?#()`":
        assert autostart.quote_exec_argument(f"a{reserved}b").startswith('"'), repr(reserved)
    assert autostart.quote_exec_argument("") == '""'
    assert autostart.quote_exec_argument("plain-word_1.0") == "plain-word_1.0"


@given(
    st.lists(
        st.text(st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from('\t\n%\\$"`'), max_size=12),
        max_size=4,
    )
)
def test_any_arguments_read_back_unchanged(args: list[str]) -> None:
    exe = "/opt/Study Jobs/studyjobs-worker"
    assert _parse_exec(_exec_line(autostart.render_desktop_entry(exe, args))) == [exe, *args]


def test_the_desktop_entry_has_one_line_per_key_even_with_newlines_in_arguments() -> None:
    entry = autostart.render_desktop_entry("/opt/w", ["two\nlines"])
    assert _exec_line(entry) == '/opt/w "two\\nlines"'
    assert all("=" in line or line.startswith("[") for line in entry.splitlines())


def test_a_program_path_with_an_equal_sign_is_refused() -> None:
    with pytest.raises(ValueError, match="'='"):
        autostart.render_desktop_entry("/opt/a=b/worker", [])


def test_the_systemd_unit_quotes_every_word_and_doubles_specifiers() -> None:
    unit = autostart.render_systemd_unit("/opt/Study Jobs/worker", ["daemon", "100%", "$HOME", 'a"b\\c'])
    exec_start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    assert exec_start == 'ExecStart="/opt/Study Jobs/worker" "daemon" "100%%" "$$HOME" "a\\"b\\\\c"'
    assert "[Install]\nWantedBy=default.target\n" in unit
    with pytest.raises(ValueError, match="absolute"):
        autostart.render_systemd_unit("studyjobs-worker", [])


def test_the_launch_agent_keeps_each_argument_as_one_array_item() -> None:
    exe = "/Applications/StudyJobs.app/Contents/MacOS/studyjobs-worker"
    data = autostart.render_launch_agent("com.studyjobs.worker", exe, ["daemon", "--autostart", "a b $c"])
    agent = plistlib.loads(data)
    assert agent["Label"] == "com.studyjobs.worker"
    assert agent["ProgramArguments"] == [exe, "daemon", "--autostart", "a b $c"]
    assert agent["RunAtLoad"] is True
    assert data.startswith(b"<?xml")


def test_the_run_value_follows_windows_quoting() -> None:
    exe = r"C:\Users\Ana Maria\AppData\Local\Programs\StudyJobs\studyjobs-worker.exe"
    value = autostart.render_run_value(exe, ["daemon", "--autostart", 'say "hi"', "ends with\\"])
    assert value == (
        r'"C:\Users\Ana Maria\AppData\Local\Programs\StudyJobs\studyjobs-worker.exe" daemon --autostart '
        r'"say \"hi\"" "ends with\\"'
    )
    assert value == subprocess.list2cmdline([exe, "daemon", "--autostart", 'say "hi"', "ends with\\"])
    assert autostart.render_run_value(r"C:\SJ\w.exe", ["daemon"]) == r"C:\SJ\w.exe daemon"


def test_a_string_instead_of_a_list_of_arguments_is_refused() -> None:
    with pytest.raises(TypeError):
        autostart.render_run_value(r"C:\SJ\w.exe", "daemon --autostart")  # type: ignore[arg-type]


def test_startup_approved_bytes_say_when_task_manager_disabled_the_entry() -> None:
    assert autostart.startup_approved_disabled(bytes([3, 0, 0, 0, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x01]))
    assert not autostart.startup_approved_disabled(bytes([2] + [0] * 11))
    assert not autostart.startup_approved_disabled(bytes([6] + [0] * 11))
    assert not autostart.startup_approved_disabled(None)
    assert not autostart.startup_approved_disabled(b"")


def test_launchctl_output_says_when_login_items_disabled_the_agent() -> None:
    output = 'disabled services = {\n\t"com.apple.x" => enabled\n\t"com.studyjobs.worker" => disabled\n}\n'
    assert autostart.launchctl_says_disabled(output, "com.studyjobs.worker")
    assert not autostart.launchctl_says_disabled(output, "com.apple.x")
    assert autostart.launchctl_says_disabled('\t"com.studyjobs.worker" => true\n', "com.studyjobs.worker")
    assert not autostart.launchctl_says_disabled("", "com.studyjobs.worker")


def test_the_worker_command_from_source_runs_the_daemon_module_quietly() -> None:
    exe, args = worker_command()
    assert Path(exe).parent == Path(sys.executable).parent
    assert args == ["-m", "daemon.cli.main", "daemon", "--autostart", "--watch"]


@pytest.fixture
def xdg_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary HOME with XDG_CONFIG_HOME unset: the entry goes to ``<HOME>/.config/autostart``."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    return tmp_path


@linux_only
def test_enable_writes_the_entry_under_home_and_status_reads_it_back(xdg_home: Path) -> None:
    entry = xdg_home / ".config" / "autostart" / "studyjobs-worker.desktop"
    assert autostart.desktop_entry_path() == entry
    assert autostart.status() is AutostartStatus.DISABLED
    autostart.enable("/opt/StudyJobs/studyjobs-worker", WORKER_ARGS)
    assert entry.read_text("utf-8") == autostart.render_desktop_entry("/opt/StudyJobs/studyjobs-worker", WORKER_ARGS)
    assert autostart.status() is AutostartStatus.ENABLED
    assert [p.name for p in entry.parent.iterdir()] == ["studyjobs-worker.desktop"]  # no temporary file left
    autostart.disable()
    assert not entry.exists()
    assert autostart.status() is AutostartStatus.DISABLED
    autostart.disable()  # nothing to remove: no error


@linux_only
def test_xdg_config_home_is_honoured_when_absolute(xdg_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg_home / "cfg"))
    autostart.enable("/opt/w", WORKER_ARGS)
    assert (xdg_home / "cfg" / "autostart" / "studyjobs-worker.desktop").is_file()
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/cfg")  # the spec: a relative value is ignored
    assert autostart.desktop_entry_path() == xdg_home / ".config" / "autostart" / "studyjobs-worker.desktop"


@linux_only
def test_enabling_again_after_the_program_moved_rewrites_the_entry(xdg_home: Path) -> None:
    autostart.enable("/opt/old place/studyjobs-worker", WORKER_ARGS)
    autostart.enable("/home/ana/Apps/StudyJobs/studyjobs-worker", WORKER_ARGS)
    exec_value = _exec_line(autostart.desktop_entry_path().read_text("utf-8"))
    assert _parse_exec(exec_value) == ["/home/ana/Apps/StudyJobs/studyjobs-worker", *WORKER_ARGS]
    assert "old place" not in autostart.desktop_entry_path().read_text("utf-8")


@linux_only
@pytest.mark.parametrize("switch", ["Hidden=true", "X-GNOME-Autostart-enabled=false"])
def test_an_entry_the_desktop_switched_off_reads_as_disabled_by_the_user(xdg_home: Path, switch: str) -> None:
    autostart.enable("/opt/w", WORKER_ARGS)
    path = autostart.desktop_entry_path()
    key = switch.partition("=")[0]
    lines = [line for line in path.read_text("utf-8").splitlines() if not line.startswith(key + "=")]
    path.write_text("\n".join([*lines, switch]) + "\n", "utf-8")  # what GNOME Tweaks / KDE settings write
    assert autostart.status() is AutostartStatus.DISABLED_BY_USER
    autostart.enable("/opt/w", WORKER_ARGS)  # the user's explicit "on" in StudyJobs wins
    assert autostart.status() is AutostartStatus.ENABLED


@linux_only
def test_a_switch_in_another_group_is_not_ours(xdg_home: Path) -> None:
    autostart.enable("/opt/w", WORKER_ARGS)
    path = autostart.desktop_entry_path()
    path.write_text(path.read_text("utf-8") + "\n[Desktop Action x]\nHidden=true\n", "utf-8")
    assert autostart.status() is AutostartStatus.ENABLED

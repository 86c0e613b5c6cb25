"""Files written whole or not at all (:mod:`core.app.storage.files`), on the real file system."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from core.app.storage.files import write_atomically, write_whole


def _hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_a_text_is_written_as_given_in_a_new_folder_and_no_temporary_file_stays(tmp_path: Path) -> None:
    path = tmp_path / "new" / "guia.md"
    write_atomically(path, "# Título\r\nlinha\n")
    assert path.read_bytes() == "# Título\r\nlinha\n".encode()
    write_atomically(path, "outro\n")
    assert path.read_text(encoding="utf-8") == "outro\n"
    assert _hidden(path.parent) == []


def test_a_text_that_cannot_be_written_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text("old = 1\n", encoding="utf-8")
    with pytest.raises(UnicodeEncodeError):
        write_atomically(path, "new = '\ud800'\n")
    assert path.read_text(encoding="utf-8") == "old = 1\n"
    assert _hidden(tmp_path) == []


def test_a_rename_onto_a_folder_fails_and_removes_the_temporary_file(tmp_path: Path) -> None:
    taken = tmp_path / "guide.md"
    taken.mkdir()
    with pytest.raises(OSError):
        write_atomically(taken, "text\n")
    assert taken.is_dir() and _hidden(tmp_path) == []


def test_the_writer_gets_a_hidden_temporary_path_with_the_suffix_asked(tmp_path: Path) -> None:
    seen: list[Path] = []

    def write(temporary: Path) -> None:
        seen.append(temporary)
        temporary.write_text("x", encoding="utf-8")

    write_whole(tmp_path / "deck.apkg", write)
    write_whole(tmp_path / "entry.desktop", write, suffix="")
    assert [p.parent for p in seen] == [tmp_path, tmp_path]
    assert seen[0].name.startswith(".deck.apkg.") and seen[0].suffix == ".apkg"
    assert seen[1].name.startswith(".entry.desktop.") and not seen[1].name.endswith(".desktop")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.apkg", "entry.desktop"]


def test_what_the_writer_wrote_is_flushed_to_the_disk_before_it_takes_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every file written whole (guides, cards, tables, settings) is ``fsync``-ed while it is still the temporary
    file: after a power cut the path holds the old file or the whole new one, never an empty one."""
    events: list[tuple[str, str]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(descriptor: int) -> None:
        events.append(("fsync", os.readlink(f"/proc/self/fd/{descriptor}")))
        real_fsync(descriptor)

    def replace(source: str, target: Path) -> None:
        events.append(("rename", str(source)))
        real_replace(source, target)

    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc to name a descriptor's file")
    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    write_whole(tmp_path / "cards.csv", lambda temporary: temporary.write_text("a;b\n", encoding="utf-8"))
    write_atomically(tmp_path / "guide.md", "# Guia\n")
    assert [kind for kind, _path in events] == ["fsync", "rename", "fsync", "rename"]
    assert events[0][1] == events[1][1] and events[2][1] == events[3][1]  # the temporary file, flushed, then renamed
    assert (tmp_path / "cards.csv").read_text(encoding="utf-8") == "a;b\n"
    assert (tmp_path / "guide.md").read_text(encoding="utf-8") == "# Guia\n"


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_a_file_gets_the_permissions_the_umask_gives_any_new_file(tmp_path: Path, umask: int) -> None:
    old = os.umask(umask)
    try:
        write_atomically(tmp_path / "guide.md", "text\n")
        write_whole(tmp_path / "deck.apkg", lambda temporary: temporary.write_bytes(b"x"))
    finally:
        os.umask(old)
    for name in ("guide.md", "deck.apkg"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o666 & ~umask

"""Hostile archives are refused quickly, within bounded memory, with a plain sentence — and fetch nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from core.app.messages.sentences import message
from daemon.readers import ExtractionError, read_document
from daemon.readers.formats.archive import MAX_ENTRIES
from tests.daemon.readers.hostile import (
    CHAPTERS,
    RawEntry,
    build_hostile_inputs,
    external_entity_docx,
    external_entity_epub,
    replace_entries,
)
from tests.daemon.readers.samples import PORTUGUESE, write_docx, write_epub
from tests.daemon.readers.support import BadInput

ROOT = Path(__file__).resolve().parents[3]
MAX_SECONDS = 2.0
MAX_PEAK_GROWTH_MIB = 64.0


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> list[BadInput]:
    return build_hostile_inputs(tmp_path_factory.mktemp("hostile"))


def refusal(path: Path) -> ExtractionError:
    with pytest.raises(ExtractionError) as caught:
        read_document(path)
    return caught.value


def probe(warm_up: list[Path], files: list[Path]) -> list[dict[str, object]]:
    """Read ``files`` in a fresh process (:mod:`tests.daemon.readers.rss_probe`): one row per file, then the
    control row."""
    command = [sys.executable, "-m", "tests.daemon.readers.rss_probe", *map(str, warm_up), "--", *map(str, files)]
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT, env=environment, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in KiB on Linux (bytes on macOS)")
def test_every_hostile_archive_ends_quickly_within_bounded_memory(hostile: list[BadInput]) -> None:
    folder = hostile[0].path.parent
    warm_up = [folder / "good-for-hostile.epub", folder / "good-for-hostile.docx"]
    rows = probe(warm_up, [item.path for item in hostile])
    print(f"\n{'file':<28} {'expected':<18} {'outcome':<18} {'seconds':>8} {'peak growth MiB':>16}")
    for row in rows:
        expected = next((item.code for item in hostile if item.path.name == row["name"]), "-")
        seconds, growth = float(str(row["seconds"])), float(str(row["peak_growth_mib"]))
        print(f"{row['name']:<28} {expected:<18} {row['outcome']:<18} {seconds:>8.3f} {growth:>16.1f}")
    *files, control = rows
    assert [row["outcome"] for row in files] == [item.code for item in hostile]
    assert max(float(str(row["seconds"])) for row in files) < MAX_SECONDS
    assert max(float(str(row["peak_growth_mib"])) for row in files) < MAX_PEAK_GROWTH_MIB
    assert float(str(control["peak_growth_mib"])) > 90  # the gauge sees memory that is really used


def test_every_hostile_archive_is_refused_with_a_plain_sentence(hostile: list[BadInput]) -> None:
    for item in hostile:
        error = refusal(item.path)
        assert error.code == item.code, (item.name, error.detail)
        assert error.transient is False
        for language in ("pt_BR", "en"):
            sentence = error.user_message(language)
            assert sentence == message(item.code, language, **error.values)
            assert "{" not in sentence and "zip" not in sentence.lower() and "xml" not in sentence.lower()


def test_the_messages_say_what_is_wrong(hostile: list[BadInput]) -> None:
    paths = {item.name: item.path for item in hostile}
    bomb = refusal(paths["zip-bomb.epub"])
    assert bomb.user_message("en").startswith("This file would unpack to more than 128 MB")
    assert bomb.user_message("pt_BR").startswith("Este arquivo se expandiria para mais de 128 MB")
    crowd = refusal(paths["too-many-entries.epub"])
    assert crowd.values["max_count"] == MAX_ENTRIES and int(crowd.values["count"]) > MAX_ENTRIES
    assert f"mais do que as {MAX_ENTRIES} que um documento tem" in crowd.user_message("pt_BR")
    assert "outside of it" in refusal(paths["dot-dot-names.epub"]).user_message("en")
    assert "web addresses" in refusal(paths["external-entity.docx"]).user_message("en")


class _Recorder(BaseHTTPRequestHandler):
    requests: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        _Recorder.requests.append(self.path)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"fetched from the network")

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def web_server() -> Iterator[str]:
    """A real HTTP server on this machine that records every request; yields its address."""
    _Recorder.requests = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


def test_an_external_entity_is_refused_and_nothing_is_fetched(web_server: str, tmp_path: Path) -> None:
    good_docx = write_docx(tmp_path / "good.docx", paragraphs=PORTUGUESE)
    good_epub = write_epub(tmp_path / "good.epub", title="Água", language="pt-BR", chapters=CHAPTERS)
    docx = external_entity_docx(good_docx, tmp_path / "remote.docx", f"{web_server}/document")
    epub = external_entity_epub(good_epub, tmp_path / "remote.epub", f"{web_server}/package")
    assert refusal(docx).code == "unsafe_xml"
    assert refusal(epub).code == "unsafe_xml"
    assert _Recorder.requests == []


def test_a_chapter_reference_that_climbs_out_of_the_book_is_never_followed(tmp_path: Path) -> None:
    good = write_epub(tmp_path / "good.epub", title="Água", language="pt-BR", chapters=CHAPTERS)
    outside = tmp_path / "outside.xhtml"
    outside.write_text("<html><body><p>Texto de fora do livro.</p></body></html>", encoding="utf-8")
    with zipfile.ZipFile(good) as archive:
        package = archive.read("OEBPS/content.opf").replace(b"text/ch1.xhtml", b"../../../../outside.xhtml")
    climbing = replace_entries(
        good, tmp_path / "climbing.epub", {"OEBPS/content.opf": RawEntry.deflated("OEBPS/content.opf", package)}
    )
    error = refusal(climbing)
    assert error.code == "corrupt_file"
    assert "outside.xhtml" in error.detail

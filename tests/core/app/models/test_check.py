"""``studyjobs models check`` against a hub on 127.0.0.1 that answers the Hugging Face model API.

The hub serves ``/api/models/{repo}/revision/{commit}`` from the real catalog's entries, as the Hugging Face hub
answers with ``?blobs=true`` (``siblings`` with ``size`` and ``lfs.sha256``, ``gated``, ``cardData.license``, the
``license:`` tag); each test changes what it says of some entries and runs the real command line in a process of
its own, with the settings' ``hub_url`` on the loopback hub.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
import tomli_w

from core.app.models.catalog import CatalogModel, load_catalog
from core.app.models.check import licence_tag
from tests.loopback import LoopbackServer, send_json

ROOT = Path(__file__).resolve().parents[4]
DOWNLOADS = [model for model in load_catalog() if not model.bundled]


def _answer(model: CatalogModel, changes: dict[str, Any]) -> dict[str, Any]:
    """The API's answer for ``model``, as the hub gives it when it agrees with the catalog, then ``changes``."""
    size = model.size_bytes or model.approx_bytes
    sha = model.sha256 or "ab" * 32
    tag = licence_tag(model.licence)
    answer = {
        "id": model.repo,
        "sha": model.revision,
        "gated": changes.get("gated", False),
        "private": False,
        "tags": ["gguf", f"license:{tag}"],
        "cardData": {"license": tag},
        "siblings": [
            {"rfilename": "README.md", "size": 1200},
            {
                "rfilename": model.filename,
                "size": changes.get("size", size),
                "lfs": {"sha256": changes.get("sha256", sha), "size": changes.get("size", size), "pointerSize": 135},
            },
        ],
    }
    return answer


class ApiHub:
    """A loopback hub answering the model API for the catalog's downloads; ``changes[id]`` alters one answer,
    ``missing`` lists entries whose repository it does not have (404)."""

    def __init__(self) -> None:
        self.changes: dict[str, dict[str, Any]] = {}
        self.missing: set[str] = set()
        self.asked: list[str] = []
        self.server = LoopbackServer(self._answer, methods=("GET",), name="api-hub")

    def _answer(self, handler: BaseHTTPRequestHandler) -> None:
        address = urlsplit(handler.path)
        self.asked.append(handler.path)
        for model in DOWNLOADS:
            if unquote(address.path) == f"/api/models/{model.repo}/revision/{model.revision}":
                if model.id in self.missing:
                    send_json(handler, 404, {"error": "Repository not found"})
                elif "blobs=true" not in address.query:
                    send_json(handler, 400, {"error": "no blobs asked"})
                else:
                    send_json(handler, 200, _answer(model, self.changes.get(model.id, {})))
                return
        send_json(handler, 404, {"error": "Repository not found"})


@pytest.fixture
def hub() -> Iterator[ApiHub]:
    served = ApiHub()
    try:
        yield served
    finally:
        served.server.close()


def check(tmp_path: Path, hub: ApiHub, *extra: str, language: str = "en") -> subprocess.CompletedProcess[str]:
    """``studyjobs models check`` with the settings' ``hub_url`` on ``hub`` (a process of its own)."""
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    doc = {"language": language, "hub_url": hub.server.url}
    (data / "settings.toml").write_text(tomli_w.dumps(doc), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("STUDYJOBS_")}
    env.update({"STUDYJOBS_DATA_DIR": str(data), "PYTHONPATH": str(ROOT)})
    return subprocess.run(
        [sys.executable, "-m", "daemon.cli.documents", "models", "check", *extra],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_hub_that_agrees_with_every_entry_passes_with_a_table_row_each(tmp_path: Path, hub: ApiHub) -> None:
    done = check(tmp_path, hub)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split()[:3] == ["model", "hub", "answer"]
    for model in load_catalog():
        (row,) = [line for line in lines if line.startswith(model.id + " ")]
        assert ("skipped" in row) if model.bundled else ("✗" not in row and row.count("✓") >= 4), row
    assert lines[-1] == f"All {len(DOWNLOADS)} downloadable entries match the hub."
    assert len(hub.asked) == len(DOWNLOADS)  # one request per download, none for the bundled demo


def catalog_test_example(hub: ApiHub) -> tuple[CatalogModel, CatalogModel, CatalogModel]:
    """The run shown in ``tests/core/app/models/test_catalog.py``'s docstring: the first download's size, the second's
    sha256 and the third's gate differ from the catalog."""
    sized, hashed, gated = DOWNLOADS[:3]
    assert sized.size_bytes is not None and hashed.sha256 is not None
    hub.changes = {sized.id: {"size": 1_234}, hashed.id: {"sha256": "0" * 64}, gated.id: {"gated": "manual"}}
    return sized, hashed, gated


def test_a_size_a_sha256_and_a_gate_each_fail_with_a_line_as_the_catalog_test_shows(
    tmp_path: Path, hub: ApiHub
) -> None:
    sized, hashed, gated = catalog_test_example(hub)
    done = check(tmp_path, hub)
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout
    assert f"{sized.id}: the hub says the file has 1234 bytes; the catalog says {sized.size_bytes}." in out
    assert f"{hashed.id}: the sha256 differs.\n    hub     {'0' * 64}\n    catalog {hashed.sha256}\n" in out
    assert f"{gated.id}: the repository is gated (manual): it cannot be downloaded without an account." in out
    assert out.splitlines()[-1] == "3 mismatch(es) between the catalog and the hub."
    (row,) = [line for line in out.splitlines() if line.startswith(sized.id + " ")]
    assert "1234 ✗" in row and "✓" in row  # its other facts still agree
    assert out.rstrip("\n") == _docstring_example(), "update tests/core/app/models/test_catalog.py's docstring"


def _docstring_example() -> str:
    """The output quoted in ``tests/core/app/models/test_catalog.py``'s docstring (its indented block after ``::``)."""
    text = (ROOT / "tests" / "core" / "app" / "models" / "test_catalog.py").read_text(encoding="utf-8")
    after = text.split("the loopback hub of ``tests/core/app/models/test_check.py``", 1)[1]
    lines = after.split("::\n\n", 1)[1].splitlines()
    block: list[str] = []
    for line in lines:
        if line and not line.startswith("    "):
            break
        block.append(line[4:])
    return "\n".join(block).rstrip("\n")


def test_a_repository_missing_at_its_commit_fails_with_a_line(tmp_path: Path, hub: ApiHub) -> None:
    gone = DOWNLOADS[-1]
    hub.missing = {gone.id}
    done = check(tmp_path, hub)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"{gone.id}: the hub has no repository {gone.repo} at commit {gone.revision} (answer 404)" in done.stdout
    assert done.stdout.splitlines()[-1] == "1 mismatch(es) between the catalog and the hub."


def test_a_licence_the_hub_tags_otherwise_fails_and_json_and_portuguese_say_the_same(
    tmp_path: Path, hub: ApiHub
) -> None:
    model = DOWNLOADS[0]

    def other_licence(handler: BaseHTTPRequestHandler) -> None:
        answer = _answer(model, {})
        answer["cardData"] = {"license": "other"}
        send_json(handler, 200, answer)

    hub.server.close()
    hub.server = LoopbackServer(other_licence, methods=("GET",), name="api-hub")
    done = check(tmp_path, hub, "--json")
    assert done.returncode == 1
    entries = {entry["id"]: entry for entry in json.loads(done.stdout)}
    assert entries[model.id]["mismatches"] == [
        {"code": "model_check_licence", "values": {"model": model.id, "expected": "apache-2.0", "actual": "other"}}
    ]
    portuguese = check(tmp_path, hub, language="pt_BR")
    assert portuguese.returncode == 1
    assert f"{model.id}: a licença marcada no hub é other; o catálogo diz apache-2.0." in portuguese.stdout
    assert portuguese.stdout.splitlines()[0].startswith("modelo")


def test_a_hub_that_cannot_be_reached_is_a_mismatch_not_a_crash(tmp_path: Path, hub: ApiHub) -> None:
    hub.server.close()  # nothing listens on its port any more
    done = check(tmp_path, hub)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"{DOWNLOADS[0].id}: the hub could not be asked (ConnectError)." in done.stdout

"""The worker and a model server's API key: a key written in settings.toml moves to the keyring (a test backend in a
file, never the developer's), the worker sends it, and when the server refuses it (HTTP 401, quoting the key back)
the job fails with a plain reason while neither the log files nor anything stored on the job show the key."""

from __future__ import annotations

import http.server
import json
from pathlib import Path
from typing import Any

import pytest

from core.app.models.api_keys import SERVICE, account_for
from core.stored_messages import encode
from daemon.jobs.ingest import generate_job_id_for
from tests.daemon.worker.faults import add, wait_ended, write_documents
from tests.daemon.worker.workerhome import DaemonHome
from tests.fakeservers import FakeServer
from tests.keyringtesting import FILE_VARIABLE

KEY = "sk-test-never-logged-5d1c9e77"
FAST = {"STUDYJOBS_BACKOFF": "0.5,0.5", "STUDYJOBS_REDISPATCH_AFTER": "2", "STUDYJOBS_LOG_LEVEL": "DEBUG"}


def _refuse(handler: http.server.BaseHTTPRequestHandler) -> tuple[int, Any]:
    """What OpenAI-compatible servers do with a wrong key, at its worst: quote it back in the error."""
    sent = (handler.headers.get("Authorization") or "").removeprefix("Bearer ")
    return 401, {"error": {"message": f"Incorrect API key provided: {sent}.", "code": "invalid_api_key"}}


def test_a_refused_api_key_fails_the_job_plainly_and_no_log_line_or_stored_field_shows_it(
    home: DaemonHome, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    keyring_file = tmp_path / "keyring.json"
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "tests.keyringtesting.FileKeyring")  # for every process started
    monkeypatch.setenv(FILE_VARIABLE, str(keyring_file))
    with FakeServer({"/v1/models": _refuse, "/v1/chat/completions": _refuse}) as server:
        endpoint = f"{server.address}/v1"
        home.settings["model"] = {"kind": "http", "endpoint": endpoint, "model_name": "test-model", "api_key": KEY}
        home.write_settings()
        (document,) = write_documents(tmp_path / "docs", 1)
        daemon = home.start(**FAST)
        (ingest,) = add(home, document)
        generate = generate_job_id_for(ingest)
        final = wait_ended(home, [ingest, generate], timeout=180)  # a loaded machine takes its time
    row = final.jobs[generate]
    assert (row.status, row.error) == ("failed", encode("unauthorized")), row.error
    assert f"Bearer {KEY}" in {auth for _, _, auth in server.requests}, "the worker did not send the key"
    settings_text = (home.data_dir / "settings.toml").read_text(encoding="utf-8")
    assert KEY not in settings_text and "api_key =" not in settings_text and endpoint in settings_text
    assert json.loads(keyring_file.read_text(encoding="utf-8")) == {f"{SERVICE}\n{account_for(endpoint)}": KEY}
    logs = "".join(p.read_text(encoding="utf-8") for p in sorted((home.data_dir / "logs").glob("*.log*")))
    assert "401" in logs and "unauthorized" in logs, "the refusal was not logged at all"
    assert KEY not in logs
    stored = [repr(job) for job in final.jobs.values()] + [repr(final.guides)]
    assert not any(KEY in text for text in stored)
    assert daemon.poll() is None, "the daemon died"

"""The daemon and its model: a model server that rate-limits or is down (retried on the backoff, then failed with
the reason), and a cancel in every phase of ``generate`` (the model's thread stops; no guide is written)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from core.app.documents.job_ids import generate_job_id_for
from core.app.messages.sentences import message, render
from core.app.storage.schema import Job
from core.stored_messages import encode
from devkit.tiny_gguf import TinyModelShape, write_tiny_model
from tests.daemon.worker.faults import (
    RateLimitingServer,
    add,
    cancel_when,
    free_port,
    guide_files,
    wait_ended,
    wait_job,
    write_documents,
)
from tests.daemon.worker.workerhome import DaemonHome

FAST = {"STUDYJOBS_BACKOFF": "0.5,0.5", "STUDYJOBS_REDISPATCH_AFTER": "2"}


@pytest.fixture(scope="module")
def slow_gguf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny model made wider and deeper: same answers, but prompt processing of a long chunk takes seconds."""
    shape = TinyModelShape(n_embd=768, n_layer=4, n_head=6, n_ff=1536)
    return write_tiny_model(tmp_path_factory.mktemp("slow-model") / "slow.gguf", shape)


@pytest.mark.parametrize("problem", ["rate_limited", "server_unreachable"])
def test_a_model_server_that_refuses_is_retried_on_the_backoff_then_fails_with_the_reason(
    home: DaemonHome, tmp_path: Path, problem: str
):
    with contextlib.ExitStack() as stack:
        server = stack.enter_context(RateLimitingServer()) if problem == "rate_limited" else None
        endpoint = server.endpoint if server else f"http://127.0.0.1:{free_port()}/v1"
        home.settings["model"] = {"kind": "http", "endpoint": endpoint, "model_name": "test-model"}
        home.write_settings()
        (document,) = write_documents(tmp_path / "docs", 1)
        daemon = home.start(**FAST)
        (ingest,) = add(home, document)
        generate = generate_job_id_for(ingest)
        final = wait_ended(home, [ingest, generate], timeout=90)
        row = final.jobs[generate]
        assert final.jobs[ingest].status == "done"
        assert (row.status, row.attempts, row.max_attempts) == ("failed", 3, 3), row.error
        assert row.error == encode(problem)
        assert render(row.error, "pt_BR") == message(problem, "pt_BR")
        # Three attempts with the two 0.5 s waits of the shortened schedule between them.
        assert (row.finished_at - final.jobs[ingest].finished_at).total_seconds() >= 1.0
        if server is not None:
            assert server.chat_requests >= 3
        assert not final.guides and not guide_files(home)
        assert daemon.poll() is None, "the daemon died"


def _in_phase(phase: str) -> Callable[[Job], bool]:
    if phase == "prompt processing":  # the outline's first chunk, before its first generated token
        return lambda j: j.status == "running" and j.stage == "outline" and not j.detail.get("tokens")
    if phase == "sections":  # a section being written, past its first tokens
        return lambda j: j.status == "running" and j.stage == "sections" and (j.detail.get("tokens") or 0) > 0
    return lambda j: j.status == "running" and j.stage == phase


@pytest.mark.parametrize("phase", ["prompt processing", "outline", "sections"])
def test_a_cancel_in_each_phase_of_generate_stops_the_model_and_writes_no_guide(
    home: DaemonHome, tmp_path: Path, request: pytest.FixtureRequest, phase: str
):
    # Prompt processing needs the slower model to last seconds; the other phases run on the tiny one.
    model = request.getfixturevalue("slow_gguf" if phase == "prompt processing" else "tiny_gguf")
    home.settings["model"] = {"kind": "gguf", "gguf_path": str(model), "n_threads": 1}
    home.write_settings()
    (long,) = write_documents(tmp_path / "long", 1, prefix="long", repeat=10)
    (short,) = write_documents(tmp_path / "short", 1, prefix="short")
    daemon = home.start(**FAST)
    (ingest,) = add(home, long)
    generate = generate_job_id_for(ingest)
    wait_job(home, generate, lambda j: j.status in ("running", "done"), timeout=60, what="the generate job")
    seen = cancel_when(home, generate, _in_phase(phase), timeout=120)
    cancelled_at = time.monotonic()
    assert seen.stage == ("outline" if phase == "prompt processing" else phase)
    row = wait_job(home, generate, lambda j: j.status != "running", timeout=30, what="the job to stop")
    stopped_after = time.monotonic() - cancelled_at
    assert row.status == "cancelled"
    # The model's thread stopped: the next job, which needs the same model, runs and finishes promptly.
    (following,) = add(home, short)
    following_generate = generate_job_id_for(following)
    final = wait_ended(home, [following, following_generate], timeout=60)
    assert final.jobs[following_generate].status == "done", final.jobs[following_generate].error
    assert final.jobs[generate].status == "cancelled"
    assert [g.job_id for g in final.guides] == [following_generate]
    assert len(guide_files(home)) == 1
    assert stopped_after < 5, f"the job took {stopped_after:.1f} s to stop"
    assert daemon.poll() is None

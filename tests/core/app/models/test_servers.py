"""Finding model servers: fake Ollama, LM Studio and llama.cpp servers on loopback, a port that never answers,
one where nothing listens, and a typed address that wants an API key."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.app.models.servers import ProbeStatus, ServerTarget, custom_target, find_servers, openai_base_url
from tests.fakeservers import SilentPort, closed_port, fake_llamacpp, fake_lmstudio, fake_ollama, keyed_server

ROOT = Path(__file__).resolve().parents[4]


async def test_ollama_lm_studio_and_a_llama_cpp_server_are_found_with_their_models_and_endpoints():
    with fake_ollama() as ollama, fake_lmstudio() as lmstudio, fake_llamacpp() as llamacpp:
        targets = [
            ServerTarget("ollama", "Ollama", ollama.address),
            ServerTarget("lmstudio", "LM Studio", lmstudio.address),
            ServerTarget("llamacpp", "llama.cpp server", llamacpp.address),
        ]
        found = await find_servers(targets)
    assert [f.status for f in found] == [ProbeStatus.FOUND] * 3
    assert found[0].endpoint == f"{ollama.address}/v1"
    assert found[0].models == ("qwen2.5:3b", "llama3.2:latest")
    assert found[1].endpoint == f"{lmstudio.address}/v1" and found[1].models == ("gemma-3-4b-it",)
    assert found[2].models == ("phi-4-mini-instruct-q4_k_m.gguf",) and found[2].context == 8192
    assert ollama.requests == [("GET", "/api/tags", None)]


async def test_silent_ports_cost_one_timeout_in_all_and_a_closed_port_nothing_all_asked_at_once():
    with SilentPort() as silent, SilentPort() as other_silent, fake_lmstudio() as lmstudio:
        targets = [
            ServerTarget("ollama", "Ollama", silent.address),
            ServerTarget("llamacpp", "llama.cpp server", closed_port()),
            ServerTarget("lmstudio", "LM Studio", lmstudio.address),
        ]
        started = time.monotonic()
        found = await find_servers(targets, extra=[custom_target(other_silent.address)], timeout=2.0)
        took = time.monotonic() - started
    statuses = [f.status for f in found]
    assert statuses == [ProbeStatus.NO_ANSWER, ProbeStatus.NO_ANSWER, ProbeStatus.FOUND, ProbeStatus.NO_ANSWER]
    # One after the other, the two silent ports would take 4 s at least (the margin is for a loaded machine).
    assert 1.9 < took < 3.6, f"the probes took {took:.2f} s: they were not asked at once, or a timeout was not kept"


async def test_a_typed_address_that_wants_a_key_says_so_and_answers_with_the_key_which_the_usual_ports_never_get():
    with keyed_server("sk-typed-secret") as remote, fake_lmstudio() as local:
        targets = [ServerTarget("lmstudio", "LM Studio", local.address)]
        without = await find_servers(targets, extra=[custom_target(remote.address)])
        with_key = await find_servers(targets, extra=[custom_target(remote.address)], api_key="sk-typed-secret")
    assert without[1].status is ProbeStatus.NEEDS_KEY
    assert with_key[1].status is ProbeStatus.FOUND and with_key[1].models == ("gemma-3-4b-it",)
    assert all(auth is None for _, _, auth in local.requests)


async def test_a_typed_address_of_an_ollama_server_is_found_through_its_own_list():
    with fake_ollama() as ollama:
        (found,) = await find_servers([], extra=[custom_target(ollama.address.removeprefix("http://"))])
    assert found.status is ProbeStatus.FOUND and found.endpoint == f"{ollama.address}/v1"
    assert found.models[0] == "qwen2.5:3b"


async def test_something_that_answers_without_a_model_list_is_not_a_model_server():
    with fake_ollama() as ollama:  # it has no /v1/models: as a llama.cpp server it is not one
        (found,) = await find_servers([ServerTarget("llamacpp", "llama.cpp server", ollama.address)])
    assert found.status is ProbeStatus.NOT_A_SERVER


@pytest.mark.parametrize("address", ["", "ftp://example.org", "http://", "http://host:99999"])
def test_a_typed_text_that_is_no_server_address_is_refused_with_an_example(address):
    with pytest.raises(ValueError, match=r"e\.g\. http://"):
        custom_target(address)


def test_the_openai_base_gets_v1_only_when_the_address_has_no_path():
    assert openai_base_url("http://h:1/") == "http://h:1/v1"
    assert openai_base_url("http://h:1/api/v2/") == "http://h:1/api/v2"


def _servers_cli(tmp_path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("STUDYJOBS_")}
    env.update(STUDYJOBS_DATA_DIR=str(tmp_path / "data"), PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "daemon.cli.main", "servers", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)


def test_the_servers_command_prints_the_endpoint_and_model_names_the_settings_need(tmp_path):
    with fake_ollama() as ollama, fake_llamacpp() as llamacpp:
        shown = _servers_cli(tmp_path, "--address", ollama.address, "--address", llamacpp.address)
        as_json = _servers_cli(tmp_path, "--json", "--address", llamacpp.address)
    assert shown.returncode == 0, shown.stderr
    assert f"{ollama.address}: endpoint = {ollama.address}/v1\n    model_name = qwen2.5:3b\n" in shown.stdout
    assert "model_name = phi-4-mini-instruct-q4_k_m.gguf" in shown.stdout
    answers = json.loads(as_json.stdout)
    assert [a["kind"] for a in answers] == ["ollama", "lmstudio", "llamacpp", "custom"]
    assert answers[-1]["status"] == "found" and answers[-1]["context"] == 8192
    assert _servers_cli(tmp_path, "--address", "ftp://nowhere").returncode == 2

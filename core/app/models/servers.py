"""Model servers on this computer (or at an address the user types): which answer, and with which models.

:func:`find_servers` asks every target at once with short timeouts and never blocks a thread: await it on any event
loop (the window's qasync loop; the CLI's ``asyncio.run``). Qt-free. What is asked: docs/design/models.md.
"""

from __future__ import annotations

import asyncio
import enum
import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx

__all__ = [
    "DEFAULT_TARGETS",
    "FoundServer",
    "ProbeStatus",
    "ServerTarget",
    "custom_target",
    "find_servers",
    "openai_base_url",
    "probe",
]

PROBE_TIMEOUT = 1.5
"""Seconds one question to one server may take (connect, then read)."""


def openai_base_url(address: str) -> str:
    """The OpenAI-compatible base of ``address``: ``http://host:port`` → ``http://host:port/v1``; an address with a
    path is kept as given (without a final ``/``)."""
    address = address.strip().rstrip("/")
    if urlsplit(address).path in ("", "/"):
        address += "/v1"
    return address


class ProbeStatus(enum.Enum):
    """What asking one target gave."""

    FOUND = "found"
    """It answered with a model list."""
    NO_ANSWER = "no_answer"
    """Nothing listens there, or it did not answer in time."""
    NEEDS_KEY = "needs_key"
    """It answered HTTP 401 or 403: a server that wants an API key (or a different one)."""
    NOT_A_SERVER = "not_a_server"
    """Something answered, but not with a model list."""


@dataclass(frozen=True)
class ServerTarget:
    """Where to look.

    Attributes:
        kind: ``"ollama"``, ``"lmstudio"``, ``"llamacpp"`` or ``"custom"`` (an address the user typed).
        name: What the window shows ("Ollama", "LM Studio", "llama.cpp server", or the address).
        address: ``http(s)://host:port`` (a custom address may have a path, e.g. ``…/v1``).
    """

    kind: str
    name: str
    address: str


DEFAULT_TARGETS: tuple[ServerTarget, ...] = (
    ServerTarget("ollama", "Ollama", "http://127.0.0.1:11434"),
    ServerTarget("lmstudio", "LM Studio", "http://127.0.0.1:1234"),
    ServerTarget("llamacpp", "llama.cpp server", "http://127.0.0.1:8080"),
)
"""The servers people run on their own computer, at their default ports."""


@dataclass(frozen=True)
class FoundServer:
    """The answer of one target.

    Attributes:
        target: Who was asked.
        status: What came back.
        endpoint: The OpenAI-compatible endpoint to store as ``model.endpoint`` (set for every status).
        models: The model names it offers (``model.model_name``), in its order; empty unless found.
        context: The context size in tokens the server runs with, where it tells (llama.cpp's ``/props``).
    """

    target: ServerTarget
    status: ProbeStatus
    endpoint: str
    models: tuple[str, ...] = ()
    context: int | None = None

    @property
    def found(self) -> bool:
        """Whether it answered with a model list."""
        return self.status is ProbeStatus.FOUND


def custom_target(address: str) -> ServerTarget:
    """A target for an address the user typed (``http://`` is assumed when no scheme is given).

    Raises:
        ValueError: not an http(s) address with a host.
    """
    text = address.strip()
    if text and "://" not in text:
        text = f"http://{text}"
    parts = urlsplit(text)
    try:
        valid = parts.scheme in ("http", "https") and bool(parts.hostname)
        _ = parts.port
    except ValueError:
        valid = False
    if not valid:
        raise ValueError(f"{address!r} is not a server address (e.g. http://192.168.0.10:11434)")
    return ServerTarget("custom", text.rstrip("/"), text.rstrip("/"))


def _root(address: str) -> str:
    parts = urlsplit(address)
    return f"{parts.scheme}://{parts.netloc}"


def _is_loopback(address: str) -> bool:
    host = urlsplit(address).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class _Refused(Exception):
    """The server answered 401/403."""


async def _get_json(client: httpx.AsyncClient, url: str) -> tuple[bool, Any]:
    """``(answered, json)``: whether anything answered at ``url``, and its JSON (``None``: not JSON, or an error
    status). 401/403 raise :class:`_Refused`."""
    try:
        response = await client.get(url)
    except (httpx.HTTPError, OSError):
        return False, None
    if response.status_code in (401, 403):
        raise _Refused
    if response.status_code != 200:
        return True, None
    try:
        return True, response.json()
    except ValueError:
        return True, None


def _openai_models(payload: Any) -> tuple[str, ...] | None:
    try:
        return tuple(str(item["id"]) for item in payload["data"])
    except (KeyError, TypeError):
        return None


def _ollama_models(payload: Any) -> tuple[str, ...] | None:
    try:
        return tuple(str(item.get("name") or item["model"]) for item in payload["models"])
    except (KeyError, TypeError, AttributeError):
        return None


def _props_context(payload: Any) -> int | None:
    if not isinstance(payload, dict):
        return None
    settings = payload.get("default_generation_settings")
    for source in (settings, payload):
        value = source.get("n_ctx") if isinstance(source, dict) else None
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return None


async def _ask(client: httpx.AsyncClient, target: ServerTarget) -> FoundServer:
    endpoint = openai_base_url(target.address)
    root = _root(target.address)
    if target.kind == "ollama":
        answered, payload = await _get_json(client, f"{root}/api/tags")
        models = _ollama_models(payload)
    else:
        answered, payload = await _get_json(client, f"{endpoint}/models")
        models = _openai_models(payload)
        if models is None and answered and target.kind == "custom":
            _, tags = await _get_json(client, f"{root}/api/tags")
            models = _ollama_models(tags)
            endpoint = f"{root}/v1" if models is not None else endpoint
    if models is None:
        status = ProbeStatus.NOT_A_SERVER if answered else ProbeStatus.NO_ANSWER
        return FoundServer(target, status, endpoint)
    context = None
    if target.kind in ("llamacpp", "custom"):
        context = _props_context((await _get_json(client, f"{root}/props"))[1])
    return FoundServer(target, ProbeStatus.FOUND, endpoint, models, context)


async def probe(target: ServerTarget, *, timeout: float = PROBE_TIMEOUT, api_key: str | None = None) -> FoundServer:
    """Ask one target; never raises for a network problem (that is :attr:`ProbeStatus.NO_ANSWER`).

    Args:
        target: Where to ask.
        timeout: Seconds for each question (connect and read); the whole probe takes at most three of them.
        api_key: Sent as a bearer token (a remote server may want one even for its model list).
    """
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    limits = httpx.Timeout(timeout)
    try:
        async with httpx.AsyncClient(
            timeout=limits, headers=headers, trust_env=not _is_loopback(target.address)
        ) as client:
            async with asyncio.timeout(timeout * 3):
                return await _ask(client, target)
    except _Refused:
        return FoundServer(target, ProbeStatus.NEEDS_KEY, openai_base_url(target.address))
    except TimeoutError:
        return FoundServer(target, ProbeStatus.NO_ANSWER, openai_base_url(target.address))


async def find_servers(
    targets: Sequence[ServerTarget] = DEFAULT_TARGETS,
    *,
    extra: Iterable[ServerTarget] = (),
    timeout: float = PROBE_TIMEOUT,
    api_key: str | None = None,
) -> list[FoundServer]:
    """Ask every target at once; one answer per target, in the order given.

    Args:
        targets: The usual places (tests pass their own servers' ports).
        extra: Addresses the user typed; ``api_key`` is sent to these only (never to the usual local ones).
        timeout: Seconds per question.
        api_key: The key for the typed addresses.
    """
    extra = list(extra)
    asks = [probe(t, timeout=timeout) for t in targets]
    asks += [probe(t, timeout=timeout, api_key=api_key) for t in extra]
    return list(await asyncio.gather(*asks))

"""The context size an OpenAI-compatible server runs a model with, asked where the server tells it.

Asked once per generator, before the first guide, each request under :data:`REQUEST_SECONDS`; any failure falls
back. Runs on the caller's event loop. Which server is asked how: docs/design/model-backends.md.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

import httpx

__all__ = ["DEFAULT_SERVER_CONTEXT", "REQUEST_SECONDS", "server_context", "server_root"]

log = logging.getLogger(__name__)

DEFAULT_SERVER_CONTEXT = 4096
"""The context assumed for a server that does not tell (LM Studio's and Ollama's default load context)."""
_TIMEOUT = httpx.Timeout(5.0, connect=2.0)
REQUEST_SECONDS = 5.0
"""The longest one question to the server may take, its whole answer included."""


def server_root(base_url: str) -> str:
    """``http://host:port/v1`` → ``http://host:port`` (the native endpoints live at the root)."""
    parts = urlsplit(base_url)
    path = parts.path.rstrip("/")
    if path.endswith("/v1"):
        path = path[: -len("/v1")]
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def _positive(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        return None
    return int(value)


async def _json(client: httpx.AsyncClient, method: str, url: str, body: Any = None) -> Any:
    try:
        async with asyncio.timeout(REQUEST_SECONDS):
            response = await client.request(method, url, json=body, timeout=_TIMEOUT)
    except (httpx.HTTPError, TimeoutError):
        return None
    if response.status_code != 200:
        return None
    try:
        return response.json()
    except ValueError:
        return None


async def _llama_cpp(client: httpx.AsyncClient, root: str, _model: str) -> tuple[int | None, bool]:
    data = await _json(client, "GET", f"{root}/props")
    if not isinstance(data, dict):
        return None, False
    settings = data.get("default_generation_settings")
    n_ctx = _positive(settings.get("n_ctx")) if isinstance(settings, dict) else None
    return n_ctx or _positive(data.get("n_ctx")), True


async def _lm_studio(client: httpx.AsyncClient, root: str, model: str) -> tuple[int | None, bool]:
    data = await _json(client, "GET", f"{root}/api/v0/models/{quote(model, safe='')}")
    if not isinstance(data, dict) or ("max_context_length" not in data and "loaded_context_length" not in data):
        return None, False
    loaded = _positive(data.get("loaded_context_length"))
    if loaded is not None:
        return loaded, True
    return _positive(data.get("max_context_length")), False


def _num_ctx(parameters: Any) -> int | None:
    for line in str(parameters or "").splitlines():
        words = line.split()
        if len(words) == 2 and words[0] == "num_ctx" and words[1].isdigit():
            return int(words[1])
    return None


async def _ollama(client: httpx.AsyncClient, root: str, model: str) -> tuple[int | None, bool]:
    data = await _json(client, "POST", f"{root}/api/show", {"model": model})
    if not isinstance(data, dict):
        return None, False
    configured = _num_ctx(data.get("parameters"))
    if configured is not None:
        return configured, True
    info = data.get("model_info")
    if isinstance(info, dict):
        for key, value in info.items():
            if str(key).endswith(".context_length"):
                return _positive(value), False
    return None, False


async def _model_list(client: httpx.AsyncClient, base_url: str, model: str) -> tuple[int | None, bool]:
    data = await _json(client, "GET", f"{base_url}/models")
    entries = data.get("data") if isinstance(data, dict) else None
    for entry in entries if isinstance(entries, list) else ():
        if isinstance(entry, dict) and entry.get("id") in (model, f"{model}:latest"):
            return _positive(entry.get("max_model_len")) or _positive(entry.get("context_length")), True
    return None, False


async def server_context(client: httpx.AsyncClient, base_url: str, model: str, *, setting: int = 0) -> tuple[int, str]:
    """The context (tokens) the server at ``base_url`` runs ``model`` with, and where that came from
    (``"server"``, ``"trained"`` or ``"setting"``); see docs/design/model-backends.md. Never raises."""
    fallback = setting if setting > 0 else DEFAULT_SERVER_CONTEXT
    root = server_root(base_url)
    trained: int | None = None
    for ask in (_llama_cpp, _lm_studio, _ollama):
        found, running = await ask(client, root, model)
        if found is not None and running:
            return (min(found, setting) if setting > 0 else found), "server"
        trained = trained or found
    found, running = await _model_list(client, base_url, model)
    if found is not None and running:
        return (min(found, setting) if setting > 0 else found), "server"
    if trained is not None:
        return min(trained, fallback), "trained"
    return fallback, "setting"

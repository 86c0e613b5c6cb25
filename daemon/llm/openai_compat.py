"""A text generator on any OpenAI-compatible HTTP server: Ollama, LM Studio, llama.cpp's server, vLLM, …

Keeps :mod:`daemon.llm.base`'s contract by streaming only: a stop or a cancel closes the socket at once. The API key
never appears in a log line or an error. Errors are transient or permanent as docs/design/model-backends.md says.
"""

from __future__ import annotations

import asyncio
import json
import math
import threading
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

from core.app.logs import redact
from core.app.settings.config import redact_url
from daemon.llm.base import ChatRequest, ModelT, TextGenerator, TokenProgress, parse_structured, schema_for
from daemon.llm.errors import (
    BadRequestError,
    GenerationStoppedError,
    LLMError,
    RateLimitedError,
    ServerError,
    ServerTimeoutError,
    ServerUnreachableError,
    UnauthorizedError,
    UnknownModelError,
)
from daemon.llm.server_context import DEFAULT_SERVER_CONTEXT, server_context

__all__ = ["OpenAICompatibleGenerator", "normalize_base_url"]

_STOP_POLL_SECONDS = 0.01
_BYTES_PER_TOKEN = 3.5  # conservative for English and Portuguese with BPE vocabularies


def normalize_base_url(endpoint: str) -> str:
    """``http://host:port`` → ``http://host:port/v1``; a URL with a path is kept as given (without a final
    ``/``)."""
    endpoint = endpoint.strip().rstrip("/")
    if urlsplit(endpoint).path in ("", "/"):
        endpoint += "/v1"
    return endpoint


@dataclass
class _StreamState:
    parts: list[str] = field(default_factory=list)
    chunks: int = 0

    @property
    def text(self) -> str:
        return "".join(self.parts)


class OpenAICompatibleGenerator(TextGenerator):
    """A :class:`~daemon.llm.base.TextGenerator` talking to ``POST {base}/chat/completions``.

    One instance owns one :class:`httpx.AsyncClient`, created on first use inside the running event loop; use
    it from that loop only and :meth:`aclose` it when done.

    Args:
        endpoint: Server URL, e.g. ``http://127.0.0.1:11434`` (Ollama) or ``http://127.0.0.1:1234/v1`` (LM
            Studio).
        model_name: The model as the server names it.
        api_key: Sent as a bearer token when given.
        context_window: The ``context`` setting in tokens (``None`` or 0: automatic). :meth:`load` asks the
            server for the context it runs the model with (:mod:`daemon.llm.server_context`); the setting caps it,
            and stands in (4,096 when automatic) for a server that does not tell.
        connect_timeout: Seconds to establish the connection.
        read_timeout: Longest silence, in seconds, between two pieces of the answer (a CPU server can think
            for minutes over a long prompt before the first token).
        total_timeout: Longest time, in seconds, one request may take from its start to its last byte (a server
            that trickles bytes never trips ``read_timeout``); past it the request ends with
            :class:`ServerTimeoutError`.
    """

    def __init__(
        self,
        endpoint: str,
        model_name: str,
        *,
        api_key: str | None = None,
        context_window: int | None = None,
        connect_timeout: float = 5.0,
        read_timeout: float = 300.0,
        total_timeout: float = 900.0,
    ) -> None:
        self.base_url = normalize_base_url(endpoint)
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise BadRequestError(f"The server address {endpoint!r} is not a valid http(s) URL.")
        self.model_name = model_name
        self._context_setting = context_window or 0
        self._context_window = self._context_setting or DEFAULT_SERVER_CONTEXT
        self._context_source: str | None = None
        self._api_key = api_key or None
        if api_key:
            redact(api_key)
        self._shown_url = redact_url(self.base_url)
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._timeout = httpx.Timeout(connect=connect_timeout, read=read_timeout, write=30.0, pool=connect_timeout)
        self.total_timeout = total_timeout
        self._client: httpx.AsyncClient | None = None
        self._model_checked = False
        self._schema_style = "json_schema"

    @property
    def context_window(self) -> int:
        """The server's context for the model once :meth:`load` asked it; until then the setting (or 4,096)."""
        return self._context_window

    @property
    def context_source(self) -> str | None:
        """Where :attr:`context_window` came from (``"server"``, ``"trained"``, ``"setting"``); ``None`` before
        :meth:`load`."""
        return self._context_source

    async def load(self) -> None:
        """Ask the server, once, for the context size it runs the model with (never raises; a few requests)."""
        if self._context_source is not None:
            return
        size, source = await server_context(self._http(), self.base_url, self.model_name, setting=self._context_setting)
        self._context_window, self._context_source = size, source

    async def count_tokens(self, text: str) -> int:
        """An estimate from the UTF-8 size (OpenAI's API has no tokenizer endpoint); errs on the high side."""
        return math.ceil(len(text.encode("utf-8")) / _BYTES_PER_TOKEN)

    async def aclose(self) -> None:
        """Close the connection pool."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def _http(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=self._timeout, headers=self._headers)
        return self._client

    async def generate(self, request: ChatRequest) -> str:
        """See :meth:`daemon.llm.base.TextGenerator.generate`."""
        return await self._run(self._body(request), request)

    async def generate_structured(self, request: ChatRequest, schema: type[ModelT]) -> ModelT:
        """See :meth:`daemon.llm.base.TextGenerator.generate_structured`.

        Asks for OpenAI's ``json_schema`` response format (Ollama, LM Studio, llama.cpp's server); a server
        that rejects it (llama-cpp-python's) is asked again with ``json_object`` + ``schema``, and the style
        that worked is remembered. The answer is validated either way.
        """
        json_schema = schema_for(schema)
        body = self._body(request)
        for style in dict.fromkeys((self._schema_style, "json_object")):
            if style == "json_schema":
                body["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {"name": schema.__name__, "schema": json_schema, "strict": True},
                }
            else:
                body["response_format"] = {"type": "json_object", "schema": json_schema}
            try:
                text = await self._run(body, request)
            except (BadRequestError, ServerError) as exc:
                # llama-cpp-python answers an unknown response_format with HTTP 500, others with 400/422.
                rejected_format = isinstance(exc, BadRequestError) or "response_format" in exc.detail
                if style == "json_object" or not rejected_format:
                    raise
                continue
            self._schema_style = style
            return parse_structured(text, schema)
        raise AssertionError("unreachable")  # pragma: no cover

    def _body(self, request: ChatRequest) -> dict[str, Any]:
        return {
            "model": self.model_name,
            "messages": [dict(message) for message in request.messages],
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "stream": True,
        }

    async def _run(self, body: dict[str, Any], request: ChatRequest) -> str:
        """Stream the answer to ``body``; a set ``request.stop_event`` closes the stream within a poll."""
        state = _StreamState()
        request.refuse_if_stopped()
        stop_event = request.stop_event
        if stop_event is None:
            return await self._stream(body, state, request)
        stream = asyncio.create_task(self._stream(body, state, request))
        watcher = asyncio.create_task(_wait_for_event(stop_event))
        try:
            await asyncio.wait({stream, watcher}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (stream, watcher):
                task.cancel()
            await asyncio.gather(stream, watcher, return_exceptions=True)
        if not stream.cancelled() and stream.exception() is None:
            return stream.result()
        if stop_event.is_set():
            raise GenerationStoppedError(
                state.text, completion_tokens=state.chunks, phase="generation" if state.chunks else "prompt"
            )
        exc = stream.exception()
        assert exc is not None
        raise exc

    async def _stream(self, body: dict[str, Any], state: _StreamState, request: ChatRequest) -> str:
        """One request, model check included, within :attr:`total_timeout`; its errors carry no secret."""
        try:
            async with asyncio.timeout(self.total_timeout):
                return await self._stream_answer(body, state, request)
        except TimeoutError:
            seconds = f"{self.total_timeout:g}"
            message = f"The server at {self._shown_url} did not finish its answer within {seconds} s."
            raise ServerTimeoutError(message) from None
        except LLMError as exc:
            raise self._scrubbed(exc) from exc.__cause__

    def _scrubbed(self, exc: LLMError) -> LLMError:
        """``exc`` with the API key and the address's password replaced by ``***`` in its message and detail."""
        secrets = [s for s in (self._api_key, urlsplit(self.base_url).password) if s]
        for secret in secrets:
            exc.message = exc.message.replace(secret, "***")
            exc.detail = exc.detail.replace(secret, "***")
        exc.message = exc.message.replace(self.base_url, self._shown_url)
        exc.args = (exc.message,)
        return exc

    async def _stream_answer(self, body: dict[str, Any], state: _StreamState, request: ChatRequest) -> str:
        await self._check_model()
        url = f"{self.base_url}/chat/completions"
        try:
            async with self._http().stream("POST", url, json=body) as response:
                if response.status_code >= 400:
                    await response.aread()
                    raise _error_for_status(response, self.model_name, self._shown_url)
                async for line in response.aiter_lines():
                    if not line.startswith("data:"):
                        continue
                    data = line[5:].strip()
                    if data == "[DONE]":
                        break
                    text = _chunk_text(data)
                    if not text:  # role-only, keep-alive, usage or final chunk
                        continue
                    state.chunks += 1
                    state.parts.append(text)
                    if request.on_token is not None:
                        request.on_token(TokenProgress(completion_tokens=state.chunks, prompt_tokens=0, text=text))
                    if request.stop_requested():
                        raise GenerationStoppedError(state.text, completion_tokens=state.chunks)
        except httpx.HTTPError as exc:
            raise _error_for_transport(exc, self._shown_url) from exc
        return state.text

    async def _check_model(self) -> None:
        """Fail early, and permanently, when the server's model list does not have :attr:`model_name`."""
        if self._model_checked:
            return
        try:
            response = await self._http().get(f"{self.base_url}/models")
        except httpx.HTTPError as exc:
            raise _error_for_transport(exc, self._shown_url) from exc
        if response.status_code in (401, 403, 429) or response.status_code >= 500:
            raise _error_for_status(response, self.model_name, self._shown_url)
        if response.status_code == 200:
            try:
                ids = {str(item["id"]) for item in response.json()["data"]}
            except (ValueError, KeyError, TypeError):
                ids = set()  # not the standard shape: let the chat request decide
            names = {self.model_name, f"{self.model_name}:latest"}
            if ids and not ids & names:
                raise UnknownModelError(f"The server at {self._shown_url} does not have the model {self.model_name!r}.")
        self._model_checked = True


async def _wait_for_event(event: threading.Event) -> None:
    """Return once ``event`` (a thread event) is set; polls, since a thread event cannot wake a loop."""
    while not event.is_set():  # noqa: ASYNC110 - a threading.Event: no asyncio.Event to await
        await asyncio.sleep(_STOP_POLL_SECONDS)


def _chunk_text(data: str) -> str:
    try:
        payload = json.loads(data)
    except ValueError as exc:
        raise ServerError("The server sent an answer that is not valid JSON.") from exc
    if isinstance(payload, dict) and "error" in payload:
        message = _error_message(payload)
        raise ServerError(f"The server reported an error while answering: {message}")
    try:
        choice = payload["choices"][0]
    except (KeyError, IndexError, TypeError):
        return ""  # usage-only or keep-alive chunk
    delta = choice.get("delta") or {}
    return str(delta.get("content") or "")


def _error_message(payload: Any) -> str:
    error = payload.get("error") if isinstance(payload, dict) else None
    if isinstance(error, dict):
        return str(error.get("message") or error)
    if error:
        return str(error)
    detail = payload.get("detail") if isinstance(payload, dict) else None
    return str(detail) if detail else ""


def _error_for_status(response: httpx.Response, model_name: str, base_url: str) -> LLMError:
    status = response.status_code
    try:
        detail = _error_message(response.json())
    except ValueError:
        detail = response.text[:200]
    if status == 429:
        return RateLimitedError(f"The server at {base_url} is rate-limiting requests; try again later.", detail=detail)
    if status >= 500:
        return ServerError(f"The server at {base_url} had an internal problem (HTTP {status}).", detail=detail)
    if status in (401, 403):
        return UnauthorizedError(f"The server at {base_url} refused the API key (HTTP {status}).", detail=detail)
    if status == 404 and "model" in detail.lower():
        return UnknownModelError(f"The server at {base_url} does not have the model {model_name!r}.", detail=detail)
    return BadRequestError(f"The server at {base_url} rejected the request (HTTP {status}).", detail=detail)


def _error_for_transport(exc: httpx.HTTPError, base_url: str) -> LLMError:
    if isinstance(exc, httpx.TimeoutException):
        return ServerTimeoutError(f"The server at {base_url} did not answer in time.")
    if isinstance(exc, httpx.UnsupportedProtocol):
        return BadRequestError(f"The server address {base_url} is not a valid http(s) URL.")
    return ServerUnreachableError(f"Could not reach the server at {base_url}.")

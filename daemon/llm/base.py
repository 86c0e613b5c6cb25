"""The contract every text generator keeps, the one request every call is, and helpers shared by the backends.

:class:`TextGenerator` is the contract: callers use ``chat`` and ``chat_structured``, backends implement
``generate`` and ``generate_structured`` on a :class:`ChatRequest`. :class:`WrappingGenerator` is a generator
around another one (tests and benchmarks): it passes on every call it does not override.

Threading rules: ``chat`` and ``chat_structured`` are coroutines called from one event loop; ``on_token`` runs on
that loop's thread, in order, never after the call ended. ``stop_event`` may be set from any thread and ends the
call quickly with :class:`~daemon.llm.errors.GenerationStoppedError`; an event set before the call stops it before
any work. A backend that generates in a thread of its own stops that thread through the same
``threading.Event``; a wrapper hands the request, event included, to its inner generator. Cancelling the task
re-raises :class:`asyncio.CancelledError`. Details and targets: docs/design/model-backends.md."""

from __future__ import annotations

import copy
import json
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Self, TypedDict, TypeVar, final

from pydantic import BaseModel, ValidationError

from daemon.llm.errors import GenerationStoppedError, InvalidOutputError

__all__ = [
    "ChatMessage",
    "ChatRequest",
    "ModelT",
    "TextGenerator",
    "TokenCallback",
    "TokenProgress",
    "WrappingGenerator",
    "parse_structured",
    "schema_for",
]

ModelT = TypeVar("ModelT", bound=BaseModel)


class ChatMessage(TypedDict):
    """One chat turn, in the OpenAI shape."""

    role: Literal["system", "user", "assistant"]
    content: str


@dataclass(frozen=True, slots=True)
class TokenProgress:
    """Reported once per generated token (HTTP backends: once per streamed chunk, usually one token), and by a local
    model once per batch of the prompt read.

    Attributes:
        completion_tokens: Tokens generated so far in this call, this one included.
        prompt_tokens: Size of the prompt in tokens (0 when the backend cannot tell).
        text: The text this token added (may be empty: part of a multi-byte character, or held back).
        prompt_read: Of the prompt, the tokens the model has read so far. A local model reports it between the
            batches it reads the prompt in, before the first token (``completion_tokens`` is then 0); 0 where the
            backend cannot tell.
    """

    completion_tokens: int
    prompt_tokens: int
    text: str
    prompt_read: int = 0


TokenCallback = Callable[[TokenProgress], None]


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """One call to a generator: the conversation and how to answer it.

    Attributes:
        messages: The conversation, oldest first.
        max_tokens: Upper bound of generated tokens; the answer is cut there.
        temperature: 0 means greedy decoding (deterministic).
        stop_event: Set from any thread to stop; the call raises ``GenerationStoppedError`` with the partial text.
        on_token: Progress callback, on the event loop's thread.
    """

    messages: Sequence[ChatMessage]
    max_tokens: int
    temperature: float = 0.0
    stop_event: threading.Event | None = None
    on_token: TokenCallback | None = None

    def stop_requested(self) -> bool:
        """Whether :attr:`stop_event` is set (safe from any thread)."""
        return self.stop_event is not None and self.stop_event.is_set()

    def refuse_if_stopped(self) -> None:
        """Stop before any work when :attr:`stop_event` is set already.

        Raises:
            GenerationStoppedError: With no text, in the prompt phase.
        """
        if self.stop_requested():
            raise GenerationStoppedError("", phase="prompt")


class TextGenerator(ABC):
    """A chat model that can be stopped at any moment. See the module docstring for the threading rules.

    Callers use :meth:`chat` and :meth:`chat_structured`; a backend implements :meth:`generate` and
    :meth:`generate_structured`, which get the call as one :class:`ChatRequest`. A backend that generates in a
    thread of its own stops that thread through the request's ``stop_event``, the ``threading.Event`` shared
    with the caller.
    """

    @property
    @abstractmethod
    def context_window(self) -> int:
        """How many tokens the model can see at once (prompt and answer together)."""

    @abstractmethod
    async def count_tokens(self, text: str) -> int:
        """Tokens ``text`` takes in this model (an estimate for backends that cannot tokenize)."""

    @abstractmethod
    async def generate(self, request: ChatRequest) -> str:
        """Answer ``request``; what :meth:`chat` returns and raises."""

    @abstractmethod
    async def generate_structured(self, request: ChatRequest, schema: type[ModelT]) -> ModelT:
        """Answer ``request`` with JSON constrained to ``schema``; what :meth:`chat_structured` returns and
        raises."""

    @abstractmethod
    async def aclose(self) -> None:
        """Release connections; a shared local model stays loaded for the next generator."""

    @final
    async def chat(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int,
        temperature: float = 0.0,
        stop_event: threading.Event | None = None,
        on_token: TokenCallback | None = None,
    ) -> str:
        """Answer the conversation; return the assistant's text.

        Args:
            messages, max_tokens, temperature, stop_event, on_token: As the fields of :class:`ChatRequest`.

        Raises:
            GenerationStoppedError: ``stop_event`` was set.
            LLMError: The generation failed; ``transient`` says whether to try again later.
        """
        return await self.generate(ChatRequest(messages, max_tokens, temperature, stop_event, on_token))

    @final
    async def chat_structured(
        self,
        messages: Sequence[ChatMessage],
        schema: type[ModelT],
        *,
        max_tokens: int = 1024,
        temperature: float = 0.0,
        stop_event: threading.Event | None = None,
        on_token: TokenCallback | None = None,
    ) -> ModelT:
        """Answer with JSON constrained to ``schema`` and return it validated.

        Raises:
            InvalidOutputError: The answer does not validate (for example, cut by ``max_tokens``).
            GenerationStoppedError: ``stop_event`` was set.
            LLMError: As for :meth:`chat`.
        """
        request = ChatRequest(messages, max_tokens, temperature, stop_event, on_token)
        return await self.generate_structured(request, schema)


class WrappingGenerator(TextGenerator):
    """``inner``, with what a subclass overrides changed: every other call, and every attribute this class does not
    have (``model_name``, ``model_path``, ``load``, ``sampling`` …), is the inner generator's.

    :meth:`with_sampling` wraps the inner generator's retry generator in a copy of this wrapper (this wrapper
    itself when the inner generator has none), so a retry passes through the same wrapper.
    """

    def __init__(self, inner: TextGenerator) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        if name == "inner" or (name.startswith("__") and name.endswith("__")):
            raise AttributeError(name)  # not set yet (a copy being made), or a protocol Python asks the class for
        return getattr(self.inner, name)

    @property
    def context_window(self) -> int:
        return self.inner.context_window

    async def count_tokens(self, text: str) -> int:
        return await self.inner.count_tokens(text)

    async def generate(self, request: ChatRequest) -> str:
        return await self.inner.generate(request)

    async def generate_structured(self, request: ChatRequest, schema: type[ModelT]) -> ModelT:
        return await self.inner.generate_structured(request, schema)

    async def aclose(self) -> None:
        await self.inner.aclose()

    def with_sampling(self, sampling: Any) -> Self:
        """This wrapper around the inner generator's ``with_sampling(sampling)``; itself when the inner generator
        has no such method."""
        resample = getattr(self.inner, "with_sampling", None)
        if resample is None:
            return self
        twin = copy.copy(self)
        twin.inner = resample(sampling)
        return twin


def schema_for(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema a backend constrains the output with."""
    return model.model_json_schema()


def parse_structured(text: str, model: type[ModelT]) -> ModelT:
    """Validate a model's JSON answer.

    Raises:
        InvalidOutputError: Not JSON, or not matching the schema.
    """
    try:
        return model.model_validate_json(text.strip())
    except ValidationError as exc:
        try:
            json.loads(text)
        except ValueError:
            reason = "it is not complete JSON"
        else:
            reason = f"it does not match the expected form ({exc.error_count()} problem(s))"
        raise InvalidOutputError(f"The model's answer could not be used: {reason}.") from exc

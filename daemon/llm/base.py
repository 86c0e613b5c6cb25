"""The contract every text generator keeps, and helpers shared by the backends.

Threading rules: ``chat`` and ``chat_structured`` are coroutines called from one event loop; ``on_token`` runs on
that loop's thread, in order, never after the call ended. ``stop_event`` may be set from any thread and ends the
call quickly with :class:`~daemon.llm.errors.GenerationStoppedError`; cancelling the task re-raises
:class:`asyncio.CancelledError`. Details and targets: docs/design/model-backends.md.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypedDict, TypeVar, runtime_checkable

from pydantic import BaseModel, ValidationError

from daemon.llm.errors import InvalidOutputError

__all__ = [
    "ChatMessage",
    "ModelT",
    "TextGenerator",
    "TokenCallback",
    "TokenProgress",
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


@runtime_checkable
class TextGenerator(Protocol):
    """A chat model that can be stopped at any moment. See the module docstring for the threading rules."""

    @property
    def context_window(self) -> int:
        """How many tokens the model can see at once (prompt and answer together)."""
        ...

    async def count_tokens(self, text: str) -> int:
        """Tokens ``text`` takes in this model (an estimate for backends that cannot tokenize)."""
        ...

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
            messages: The conversation, oldest first.
            max_tokens: Upper bound of generated tokens; the answer is cut there.
            temperature: 0 means greedy decoding (deterministic).
            stop_event: Set from any thread to stop; raises ``GenerationStoppedError`` with the partial text.
            on_token: Progress callback, on the event loop's thread.

        Raises:
            GenerationStoppedError: ``stop_event`` was set.
            LLMError: The generation failed; ``transient`` says whether to try again later.
        """
        ...

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
        ...

    async def aclose(self) -> None:
        """Release connections; a shared local model stays loaded for the next generator."""
        ...


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

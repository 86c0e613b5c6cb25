"""A generator that records what is asked of another one: the messages sent, the calls and the tokens written.

:class:`RecordingGenerator` passes every call through unchanged, retries included, into one :class:`CallRecord`.
Used on the caller's event loop by benchmarks and tests.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from daemon.llm.base import ChatMessage, ModelT, TextGenerator, TokenCallback, TokenProgress

__all__ = ["CallRecord", "RecordingGenerator"]


@dataclass
class CallRecord:
    """What was asked of a generator.

    Attributes:
        sent: The messages of each call, in order (``chat`` and ``chat_structured``).
        chats: ``chat`` calls.
        structured: ``chat_structured`` calls.
        completion_tokens: Tokens written over all calls (each call's last reported count).
    """

    sent: list[Sequence[ChatMessage]] = field(default_factory=list)
    chats: int = 0
    structured: int = 0
    completion_tokens: int = 0

    @property
    def calls(self) -> int:
        """Every call made."""
        return self.chats + self.structured


class RecordingGenerator:
    """``inner``, with each call recorded into ``record`` (a new one by default)."""

    def __init__(self, inner: TextGenerator, record: CallRecord | None = None) -> None:
        self.inner = inner
        self.record = record if record is not None else CallRecord()

    @property
    def context_window(self) -> int:
        return self.inner.context_window

    @property
    def sampling(self) -> Any:
        """The inner generator's sampling settings (``None`` for one without any)."""
        return getattr(self.inner, "sampling", None)

    def with_sampling(self, sampling: Any) -> RecordingGenerator:
        """The inner generator's retry generator (itself when it has none), recording into the same record."""
        resample = getattr(self.inner, "with_sampling", None)
        return self if resample is None else RecordingGenerator(resample(sampling), self.record)

    async def count_tokens(self, text: str) -> int:
        return await self.inner.count_tokens(text)

    def _counting(self, on_token: TokenCallback | None) -> TokenCallback:
        written = [0]

        def counted(progress: TokenProgress) -> None:
            if progress.completion_tokens > written[0]:
                self.record.completion_tokens += progress.completion_tokens - written[0]
                written[0] = progress.completion_tokens
            if on_token is not None:
                on_token(progress)

        return counted

    async def chat(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int,
        temperature: float = 0.0,
        stop_event: threading.Event | None = None,
        on_token: TokenCallback | None = None,
    ) -> str:
        self.record.sent.append(messages)
        self.record.chats += 1
        return await self.inner.chat(
            messages, max_tokens=max_tokens, temperature=temperature, stop_event=stop_event,
            on_token=self._counting(on_token),
        )  # fmt: skip

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
        self.record.sent.append(messages)
        self.record.structured += 1
        return await self.inner.chat_structured(
            messages, schema, max_tokens=max_tokens, temperature=temperature, stop_event=stop_event,
            on_token=self._counting(on_token),
        )  # fmt: skip

    async def aclose(self) -> None:
        await self.inner.aclose()

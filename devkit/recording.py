"""A generator that records what is asked of another one: the messages sent, the calls and the tokens written.

:class:`RecordingGenerator` passes every call through unchanged, retries included, into one :class:`CallRecord`.
Used on the caller's event loop by benchmarks and tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from daemon.llm.base import ChatMessage, ChatRequest, ModelT, TextGenerator, TokenProgress, WrappingGenerator

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


class RecordingGenerator(WrappingGenerator):
    """``inner``, with each call recorded into ``record`` (a new one by default); its retry generator
    (:meth:`~daemon.llm.base.WrappingGenerator.with_sampling`) records into the same record."""

    def __init__(self, inner: TextGenerator, record: CallRecord | None = None) -> None:
        super().__init__(inner)
        self.record = record if record is not None else CallRecord()

    async def generate(self, request: ChatRequest) -> str:
        self.record.chats += 1
        return await super().generate(self._recorded(request))

    async def generate_structured(self, request: ChatRequest, schema: type[ModelT]) -> ModelT:
        self.record.structured += 1
        return await super().generate_structured(self._recorded(request), schema)

    def _recorded(self, request: ChatRequest) -> ChatRequest:
        """Note ``request``'s messages; the request, with its tokens counted before its own ``on_token`` hears
        them."""
        self.record.sent.append(request.messages)
        written = [0]

        def counted(progress: TokenProgress) -> None:
            if progress.completion_tokens > written[0]:
                self.record.completion_tokens += progress.completion_tokens - written[0]
                written[0] = progress.completion_tokens
            if request.on_token is not None:
                request.on_token(progress)

        return replace(request, on_token=counted)

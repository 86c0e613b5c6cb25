"""A generator that hangs as native code can, for the tests of the time limits (never chosen by a user's settings).

A worker uses it when started with :func:`hang_on` in its environment (the worker's generator-wrapper knob and
``STUDYJOBS_HANG_ON``, the marker). The two ways it hangs:
docs/design/model-backends.md.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Sequence
from typing import NoReturn

from daemon.llm.base import ChatMessage, ChatRequest, ModelT, TextGenerator, WrappingGenerator
from daemon.runtime import GENERATOR_WRAPPER_ENV

__all__ = ["ENV_HANG_ON", "HangingGenerator", "hang_on", "hanging_from_env"]

ENV_HANG_ON = "STUDYJOBS_HANG_ON"
"""A text that makes the daemon's generator hang on every conversation that contains it (tests)."""


class HangingGenerator(WrappingGenerator):
    """``inner``, except that a conversation containing ``marker`` hangs for ever (see docs/design/model-backends.md).

    Attributes:
        hung: How many conversations hung so far.
    """

    def __init__(self, inner: TextGenerator, marker: str, how: str = "thread") -> None:
        if not marker or how not in ("thread", "loop"):
            raise ValueError("a marker is needed, and how is 'thread' or 'loop'")
        super().__init__(inner)
        self.marker = marker
        self.how = how
        self.hung = 0

    async def generate(self, request: ChatRequest) -> str:
        if self._marked(request.messages):
            await self._hang()
        return await super().generate(request)

    async def generate_structured(self, request: ChatRequest, schema: type[ModelT]) -> ModelT:
        if self._marked(request.messages):
            await self._hang()
        return await super().generate_structured(request, schema)

    def _marked(self, messages: Sequence[ChatMessage]) -> bool:
        return any(self.marker in str(message.get("content", "")) for message in messages)

    async def _hang(self) -> NoReturn:
        self.hung += 1
        if self.how == "loop":
            _spin_for_ever()  # on the loop's thread: every task of this loop stops with it
        loop = asyncio.get_running_loop()
        finished: asyncio.Future[None] = loop.create_future()
        threading.Thread(target=_spin_for_ever, name="llm-hanging", daemon=True).start()
        try:
            await asyncio.shield(finished)
        except asyncio.CancelledError:
            await asyncio.shield(finished)  # the thread must end before the model is free: it never does
        raise AssertionError("unreachable: the hanging thread never ends")


def _spin_for_ever() -> None:
    """Busy in "native code": never returns, never looks at a stop event."""
    while True:
        time.sleep(0.05)


def hanging_from_env(generator: TextGenerator) -> TextGenerator:
    """``generator`` wrapped in a :class:`HangingGenerator` when ``STUDYJOBS_HANG_ON`` is set, else itself."""
    marker = os.environ.get(ENV_HANG_ON, "")
    how, _, rest = marker.partition(":")
    if how == "loop" and rest:
        return HangingGenerator(generator, rest, "loop")
    return HangingGenerator(generator, marker) if marker else generator


def hang_on(marker: str) -> dict[str, str]:
    """The environment of a worker whose model hangs on ``marker`` (``loop:<text>`` for the busy kind)."""
    return {ENV_HANG_ON: marker, GENERATOR_WRAPPER_ENV: "devkit.hanging:hanging_from_env"}

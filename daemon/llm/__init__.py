"""Local and remote language models for the daemon: generation that stops the moment it is asked.

No Qt here. Entry point: :func:`create_generator` (from a :class:`ModelChoice`). The guide writer that uses them is
:mod:`daemon.guide_writer`.
"""

from daemon.llm.base import ChatMessage, TextGenerator, TokenCallback, TokenProgress
from daemon.llm.errors import (
    BadRequestError,
    ContextOverflowError,
    CPUUnsupportedError,
    GenerationFailedError,
    GenerationStoppedError,
    InvalidOutputError,
    LLMError,
    ModelMissingError,
    ModelUnreadableError,
    PermanentLLMError,
    RateLimitedError,
    ServerError,
    ServerTimeoutError,
    ServerUnreachableError,
    TransientLLMError,
    UnauthorizedError,
    UnknownModelError,
)
from daemon.llm.llamacpp import LlamaCppGenerator
from daemon.llm.models import ModelChoice, bundled_model_path, create_generator
from daemon.llm.openai_compat import OpenAICompatibleGenerator

__all__ = [
    "BadRequestError",
    "CPUUnsupportedError",
    "ChatMessage",
    "ContextOverflowError",
    "GenerationFailedError",
    "GenerationStoppedError",
    "InvalidOutputError",
    "LLMError",
    "LlamaCppGenerator",
    "ModelChoice",
    "ModelMissingError",
    "ModelUnreadableError",
    "OpenAICompatibleGenerator",
    "PermanentLLMError",
    "RateLimitedError",
    "ServerError",
    "ServerTimeoutError",
    "ServerUnreachableError",
    "TextGenerator",
    "TokenCallback",
    "TokenProgress",
    "TransientLLMError",
    "UnauthorizedError",
    "UnknownModelError",
    "bundled_model_path",
    "create_generator",
]

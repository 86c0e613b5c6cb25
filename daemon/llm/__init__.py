"""Local and remote language models for the daemon: generation that stops the moment it is asked.

No Qt here. Entry points: :func:`create_generator` (from a :class:`ModelChoice`) and :class:`GuideWriter`.
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
from daemon.llm.guide import GuideProgress, GuideWriter, StudyGuide
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
    "GuideProgress",
    "GuideWriter",
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
    "StudyGuide",
    "TextGenerator",
    "TokenCallback",
    "TokenProgress",
    "TransientLLMError",
    "UnauthorizedError",
    "UnknownModelError",
    "bundled_model_path",
    "create_generator",
]

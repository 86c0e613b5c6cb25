"""Errors of the language-model layer.

Every error is a :class:`~core.app.messages.sentences.CodedError`: a plain English sentence, a stable ``code`` with its
``values`` and ``transient`` (the daemon maps it onto ``fail(transient=…)``). :class:`GenerationStoppedError` is a
:class:`~core.app.messages.sentences.StoppedOnRequest`, not a failure: it keeps the text written so far.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from core.app.messages.sentences import CodedError, StoppedOnRequest

__all__ = [
    "BadRequestError",
    "CPUUnsupportedError",
    "ContextOverflowError",
    "GenerationFailedError",
    "GenerationStoppedError",
    "InvalidOutputError",
    "LLMError",
    "ModelMissingError",
    "ModelTooBigError",
    "ModelUnreadableError",
    "ModelUnsupportedError",
    "PermanentLLMError",
    "RateLimitedError",
    "ServerError",
    "ServerTimeoutError",
    "ServerUnreachableError",
    "TransientLLMError",
    "UnauthorizedError",
    "UnknownModelError",
]


class LLMError(CodedError):
    """Base class: a generation could not be done.

    Attributes:
        code: Stable identifier for translation and logs (``"model_missing"``, ``"rate_limited"``, …); the class's,
            unless ``code`` is given.
        values: The sentence's placeholder values.
        transient: Whether the same request may succeed later without anyone changing anything.
        detail: The server's or library's own message, for logs (not shown to the user).
    """

    code: str = "llm_error"
    transient: bool = False

    def __init__(
        self, message: str, *, detail: str = "", code: str | None = None, values: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(code, detail=detail, **(values or {}))
        self.message = message
        self.args = (message,)


class TransientLLMError(LLMError):
    """Trying again later may work (the daemon fails the job with ``transient=True``)."""

    code = "llm_transient"
    transient = True


class PermanentLLMError(LLMError):
    """Trying again will fail the same way until the user changes a setting or the input."""

    code = "llm_permanent"
    transient = False


class ModelMissingError(PermanentLLMError):
    """The model file (or the bundled model package) is not there."""

    code = "model_missing"


class ModelUnreadableError(PermanentLLMError):
    """The model file exists but cannot be read or is not a GGUF model llama.cpp can load."""

    code = "model_unreadable"


class ModelUnsupportedError(PermanentLLMError):
    """The GGUF file's architecture is not one the bundled llama.cpp can run: refused before loading.

    ``values``: ``architecture`` (the file's ``general.architecture``) and ``file`` (its name).
    """

    code = "model_architecture_unsupported"

    def __init__(self, message: str, *, architecture: str, file: str) -> None:
        super().__init__(message, values={"architecture": architecture, "file": file})


class ModelTooBigError(PermanentLLMError):
    """The model needs more memory than is available: refused before llama.cpp loads it.

    ``code`` and ``values`` are :func:`core.app.models.fit.refusal`'s: both numbers, the context and a smaller model.
    """

    code = "model_too_big"

    def __init__(self, message: str, *, code: str, values: dict[str, object]) -> None:
        super().__init__(message, code=code, values=values)


class CPUUnsupportedError(PermanentLLMError):
    """This processor lacks an instruction set the local model's llama.cpp was compiled for (AVX2 …)."""

    code = "cpu_unsupported"


class ContextOverflowError(PermanentLLMError):
    """The prompt does not fit the model's context window."""

    code = "context_overflow"


class InvalidOutputError(PermanentLLMError):
    """The model's structured answer did not match the requested schema."""

    code = "invalid_output"


class GenerationFailedError(PermanentLLMError):
    """llama.cpp itself failed while computing (not a stop)."""

    code = "generation_failed"


class BadRequestError(PermanentLLMError):
    """The server rejected the request as malformed (HTTP 400, 401, 403, 404, 422, …)."""

    code = "bad_request"


class UnauthorizedError(PermanentLLMError):
    """The server refused the API key (HTTP 401 or 403)."""

    code = "unauthorized"


class UnknownModelError(PermanentLLMError):
    """The server does not have the model the settings name."""

    code = "unknown_model"


class ServerUnreachableError(TransientLLMError):
    """Nothing answers at the endpoint (connection refused, DNS, reset)."""

    code = "server_unreachable"


class ServerTimeoutError(TransientLLMError):
    """The server took too long to answer."""

    code = "server_timeout"


class RateLimitedError(TransientLLMError):
    """The server answered HTTP 429."""

    code = "rate_limited"


class ServerError(TransientLLMError):
    """The server answered with a 5xx status."""

    code = "server_error"


class GenerationStoppedError(StoppedOnRequest):
    """The stop event was set: generation ended early on purpose. Not a failure (code ``stopped``).

    Attributes:
        partial_text: What the model had written before the stop (may be empty).
        completion_tokens: How many tokens had been generated.
        phase: ``"prompt"`` if the stop came before the first generated token (prompt processing, or waiting
            for the model), ``"generation"`` otherwise.
    """

    def __init__(
        self,
        partial_text: str = "",
        *,
        completion_tokens: int = 0,
        phase: Literal["prompt", "generation"] = "generation",
    ) -> None:
        super().__init__("The generation was stopped on request.")
        self.partial_text = partial_text
        self.completion_tokens = completion_tokens
        self.phase = phase

"""A llama.cpp model loaded once per process and shared: the model file checks, the cache, the abort hook.

Threading: a :class:`SharedModel` is used by one thread at a time (hold :attr:`SharedModel.lock`), except
:meth:`SharedModel.tokenize`. :func:`shared_model` and :func:`unload_all` are safe from any thread but block for
seconds: call them from a worker thread, not the event loop. ``llama_cpp`` is imported only when a model loads.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from core.app.models.fit import Fit, ModelFileError, fit_at, fit_model, refusal
from core.app.timing.model_speed import default_threads
from daemon.llm.base import ChatMessage
from daemon.llm.cpu import missing_cpu_features
from daemon.llm.errors import CPUUnsupportedError, ModelMissingError, ModelTooBigError, ModelUnreadableError

__all__ = [
    "SharedModel",
    "check_fits",
    "check_model_file",
    "context_for",
    "default_n_threads",
    "is_loaded",
    "loaded_models",
    "model_loading",
    "shared_model",
    "unload_all",
]

_CHATML = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def default_n_threads() -> int:
    """Cores − 1, at least 1 (:func:`core.app.timing.model_speed.default_threads`)."""
    return default_threads()


def check_model_file(path: Path) -> None:
    """Check that ``path`` is a readable GGUF file, without loading it.

    Raises:
        ModelMissingError: Nothing at ``path`` (or a directory).
        ModelUnreadableError: Not readable, or not a GGUF file.
    """
    if not path.is_file():
        raise ModelMissingError(f"The model file {path} does not exist.")
    try:
        with path.open("rb") as handle:
            magic = handle.read(4)
    except OSError as exc:
        raise ModelUnreadableError(f"The model file {path} cannot be read ({exc.strerror}).") from exc
    if magic != b"GGUF":
        raise ModelUnreadableError(f"The file {path} is not a GGUF model.")


def _file_error(error: ModelFileError) -> ModelMissingError | ModelUnreadableError:
    if error.code == "model_missing":
        return ModelMissingError(f"The model file {error.path} does not exist.")
    return ModelUnreadableError(f"The file {error.path} is not a GGUF model StudyJobs can read.", detail=error.detail)


def check_fits(path: Path, *, n_ctx: int, n_batch: int) -> Fit:
    """Refuse, before llama.cpp loads anything, a model that needs more memory than is available now.

    Raises:
        ModelTooBigError: With :func:`core.app.models.fit.refusal`'s code and values (both numbers, a smaller model).
        ModelMissingError, ModelUnreadableError: The file is missing or its header is not a GGUF header.
    """
    try:
        fit = fit_at(path, n_ctx, n_batch=n_batch)
    except ModelFileError as error:
        raise _file_error(error) from error
    if not fit.fits:
        code, values = refusal(fit)
        raise ModelTooBigError(
            f"The model {path.name} needs {values['needed_mb']} MB of memory at {n_ctx} tokens of context; "
            f"{values['available_mb']} MB are available.",
            code=code,
            values=values,
        )
    return fit


_CONTEXTS: dict[tuple[str, int, int], int] = {}


def context_for(path: Path, *, setting: int, n_batch: int) -> int:
    """The context size ``path`` is loaded with: :func:`core.app.models.fit.fit_model`'s choice for the ``context``
    ``setting`` (``0``: automatic, from the trained context and the memory available), decided once per process
    for these arguments so that every generator on the model shares one loaded copy. Reads the file's header.

    Raises:
        ModelMissingError, ModelUnreadableError: The file is missing or its header is not a GGUF header.
    """
    key = (str(path.resolve()), setting, n_batch)
    with _MODELS_LOCK:
        found = _CONTEXTS.get(key)
    if found is not None:
        return found
    try:
        chosen = fit_model(path, context=setting, n_batch=n_batch).n_ctx
    except ModelFileError as error:
        raise _file_error(error) from error
    with _MODELS_LOCK:
        return _CONTEXTS.setdefault(key, chosen)


class SharedModel:
    """One loaded model and its context. Use only while holding :attr:`lock` (except for :meth:`tokenize`).

    Attributes:
        llama: The llama-cpp-python model.
        lock: Held for the whole of a generation.
        abort_checks: How many times llama.cpp asked the abort callback (diagnostics and tests).
    """

    def __init__(self, path: Path, *, n_ctx: int, n_threads: int, n_batch: int) -> None:
        check_model_file(path)
        missing = missing_cpu_features()
        if missing:  # llama.cpp would kill the whole process with SIGILL on its first prompt
            features = ", ".join(missing)
            raise CPUUnsupportedError(f"This processor cannot run the local model: it lacks {features}.")
        import llama_cpp
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        try:
            self.llama = llama_cpp.Llama(
                model_path=str(path),
                n_ctx=n_ctx,
                n_threads=n_threads,
                n_threads_batch=n_threads,
                n_batch=n_batch,
                n_ubatch=n_batch,
                verbose=False,
            )
        except (ValueError, RuntimeError, OSError) as exc:
            raise ModelUnreadableError(f"The model file {path} could not be loaded by llama.cpp.") from exc
        self.path = path
        self.n_ctx = self.llama.n_ctx()
        self.lock = threading.Lock()
        self.abort_checks = 0
        self.prompt_tokens_sent = 0
        """Prompt tokens of every request so far."""
        self.prompt_tokens_processed = 0
        """Of those, the tokens llama.cpp evaluated: the rest was the KV cache's prefix from the request before."""
        self._should_abort: Any = None
        # Keep references: a ctypes callback collected while C holds its pointer crashes the process.
        self._callback = llama_cpp.ggml_abort_callback(self._abort_check)
        self._no_callback = llama_cpp.ggml_abort_callback()  # NULL: ggml skips the check entirely
        meta = self.llama.metadata
        vocab_text = self.llama._model.token_get_text
        self._formatter = Jinja2ChatFormatter(
            template=meta.get("tokenizer.chat_template") or _CHATML,
            eos_token=vocab_text(self.llama.token_eos()),
            bos_token=vocab_text(self.llama.token_bos()) if self.llama.token_bos() >= 0 else "",
            add_generation_prompt=True,
        )

    def _abort_check(self, _data: ctypes.c_void_p) -> bool:
        self.abort_checks += 1
        check = self._should_abort
        return bool(check is not None and check())

    def set_abort_check(self, check: Callable[[], bool] | None) -> None:
        """Install the predicate llama.cpp asks between graph nodes (``None``: remove the callback).

        The callback costs a GIL round-trip per graph node (~600 per token for SmolLM2, up to a quarter of
        decode speed on 2 threads), so it is installed only for prompt processing, where one ``llama_decode``
        call can take seconds; between generated tokens the stopping criterion is as fast. Call with
        :attr:`lock` held and no decode running.
        """
        import llama_cpp

        self._should_abort = check
        callback = self._callback if check is not None else self._no_callback
        llama_cpp.llama_set_abort_callback(self.llama.ctx, callback, None)

    def tokenize(self, text: str) -> list[int]:
        """Tokens of plain text (special tokens are not parsed). Thread-safe: reads the vocabulary only."""
        return self.llama.tokenize(text.encode("utf-8"), add_bos=False, special=False)

    def prompt_tokens(
        self, messages: Sequence[ChatMessage], template_kwargs: dict[str, Any] | None = None
    ) -> list[int]:
        """The chat template applied to ``messages`` (with ``template_kwargs`` as its extra variables, such as
        ``enable_thinking=False``), tokenized, ready for the assistant's turn."""
        formatted = self._formatter(messages=list(messages), **(template_kwargs or {}))  # type: ignore[arg-type]
        return self.llama.tokenize(formatted.prompt.encode("utf-8"), add_bos=False, special=True)

    def count_prompt(self, prompt: Sequence[int]) -> None:
        """Count ``prompt`` before it is sent, as llama-cpp-python will evaluate it: the longest prefix it shares
        with the tokens in the context is reused (at least its last token is evaluated). Call with :attr:`lock`
        held."""
        cached = self.llama.input_ids[: self.llama.n_tokens]
        shared = 0
        for held, wanted in zip(cached, prompt[:-1], strict=False):
            if held != wanted:
                break
            shared += 1
        self.prompt_tokens_sent += len(prompt)
        self.prompt_tokens_processed += len(prompt) - shared

    def recover(self) -> None:
        """Forget the half-computed state after an aborted or failed decode. Call with :attr:`lock` held."""
        self.llama.reset()  # type: ignore[no-untyped-call]
        self.llama._ctx.kv_cache_clear()  # type: ignore[no-untyped-call]

    def close(self) -> None:
        """Free the model (no generation may be running)."""
        self.llama.close()


_MODELS: dict[tuple[str, int, int, int], SharedModel] = {}
_MODELS_LOCK = threading.Lock()
_LOADING = threading.Event()


def shared_model(path: Path, *, n_ctx: int, n_threads: int, n_batch: int) -> SharedModel:
    """The loaded model for these settings, loading it on first use (blocking: call from a worker thread).

    Raises:
        ModelMissingError: No file at ``path``.
        ModelUnreadableError: The file is not a loadable GGUF model.
        ModelTooBigError: The model at ``n_ctx`` needs more memory than is available (:func:`check_fits`).
        CPUUnsupportedError: This processor lacks an instruction set llama.cpp was compiled for.
    """
    key = (str(path.resolve()), n_ctx, n_threads, n_batch)
    with _MODELS_LOCK:
        model = _MODELS.get(key)
        if model is None:
            check_model_file(path)
            check_fits(path, n_ctx=n_ctx, n_batch=n_batch)
            _LOADING.set()
            try:
                model = SharedModel(path, n_ctx=n_ctx, n_threads=n_threads, n_batch=n_batch)
            finally:
                _LOADING.clear()
            _MODELS[key] = model
        return model


def model_loading() -> bool:
    """Whether :func:`shared_model` is loading a model now (any thread)."""
    return _LOADING.is_set()


def loaded_models() -> int:
    """How many models are in memory. Takes no lock (a load holds it for seconds): a snapshot."""
    return len(_MODELS)


def is_loaded(path: Path, *, n_ctx: int, n_threads: int, n_batch: int) -> bool:
    """Whether :func:`shared_model` would answer at once for these settings (the model is in memory)."""
    with _MODELS_LOCK:
        return (str(path.resolve()), n_ctx, n_threads, n_batch) in _MODELS


def unload_all() -> int:
    """Free every loaded model (idle worker, tests, shutdown). Waits for running generations to finish. Returns
    how many were loaded; on Linux the C heap's free pages then go back to the system (``malloc_trim``)."""
    with _MODELS_LOCK:
        models = list(_MODELS.values())
        _MODELS.clear()
    for model in models:
        with model.lock:
            model.close()
    if models:
        _trim_heap()
    return len(models)


def _trim_heap() -> None:
    """Give the C allocator's free memory back to the system where glibc allows it (elsewhere: nothing)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.malloc_trim(0)
    except (OSError, AttributeError):
        return

"""Local inference with llama.cpp (llama-cpp-python) that stops the moment it is asked.

Each generation runs in its own thread, one at a time per model (the model's lock): llama.cpp is never entered from
two threads at once. A stop ends every phase within one step. Where the stop is checked:
docs/design/model-backends.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from core.app.models.fit import DAEMON_N_BATCH
from daemon.llm.base import ChatRequest, ModelT, TextGenerator, TokenProgress, parse_structured, schema_for
from daemon.llm.errors import ContextOverflowError, GenerationFailedError, GenerationStoppedError
from daemon.llm.local_model import (
    SharedModel,
    check_model_file,
    context_for,
    default_n_threads,
    is_loaded,
    shared_model,
    unload_all,
)
from daemon.llm.sampling import DEFAULT_SAMPLING, SamplingSettings

if TYPE_CHECKING:  # llama_cpp itself is imported where a model is used (daemon.llm.local_model)
    from llama_cpp.llama_grammar import LlamaGrammar

__all__ = [
    "LlamaCppGenerator",
    "SharedModel",
    "check_model_file",
    "default_n_threads",
    "shared_model",
    "unload_all",
]

_LOCK_POLL_SECONDS = 0.02


@dataclass(eq=False)
class _Request:
    """One generation, shared between the event loop and its worker thread."""

    chat: ChatRequest
    grammar: LlamaGrammar | None
    loop: asyncio.AbstractEventLoop
    result: asyncio.Future[str]
    finished: asyncio.Future[None]
    cancel: threading.Event = field(default_factory=threading.Event)
    closed: bool = False
    callback_error: BaseException | None = None

    def should_stop(self) -> bool:
        return self.cancel.is_set() or self.chat.stop_requested()

    def post(self, func: Any, *args: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is waiting any more
            self.loop.call_soon_threadsafe(func, *args)


def _settle(future: asyncio.Future[Any], value: Any = None, error: BaseException | None = None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(value)


class LlamaCppGenerator(TextGenerator):
    """A :class:`~daemon.llm.base.TextGenerator` on a local GGUF model.

    Construction is cheap; the model is loaded (once per process, shared) on first use or by :meth:`load`.

    Args:
        model_path: The GGUF file.
        n_ctx: Context window in tokens, exactly; ``None`` decides it from ``context`` (:func:`context_for`).
        context: The ``context`` setting used when ``n_ctx`` is ``None``: ``0`` is automatic (the model's trained
            context, at most :data:`core.app.models.fit.MAX_AUTO_CONTEXT`, lowered to fit the memory available), a
            number is kept up to the trained context.
        n_threads: CPU threads for prompt and generation; ``None`` means cores − 1 (at least 1).
        n_batch: Prompt tokens per ``llama_decode`` call.
        sampling: Top-p, top-k, min-p, repetition penalty and seed (:mod:`daemon.llm.sampling`); the
            temperature is each call's own. Small models loop without a repetition penalty.
        max_context: The most context the model may be loaded with (a catalog model's cap: llama.cpp misbehaves
            above it for some models); ``None``: no cap.
        max_output_tokens: A bound on every answer, below each call's own ``max_tokens`` (a model known to
            repeat itself); ``None``: the call's.
        template_kwargs: Extra variables for the model's chat template (``enable_thinking=False``).
    """

    def __init__(
        self,
        model_path: Path,
        *,
        n_ctx: int | None = None,
        context: int = 0,
        n_threads: int | None = None,
        n_batch: int = DAEMON_N_BATCH,
        sampling: SamplingSettings = DEFAULT_SAMPLING,
        max_context: int | None = None,
        max_output_tokens: int | None = None,
        template_kwargs: dict[str, Any] | None = None,
    ) -> None:
        self.model_path = Path(model_path)
        self.max_context = max_context
        self.max_output_tokens = max_output_tokens
        self.template_kwargs = dict(template_kwargs or {})
        self._n_ctx = n_ctx
        self.context_setting = context
        self._loaded_ctx: int | None = None
        self.n_threads = n_threads if n_threads is not None else default_n_threads()
        self.n_batch = n_batch
        self.sampling = sampling
        self._grammars: dict[type[BaseModel], LlamaGrammar] = {}

    @property
    def n_ctx(self) -> int:
        """The context size this generator loads the model with (decided on first use: reads the file's header)."""
        if self._n_ctx is None:
            chosen = context_for(self.model_path, setting=self.context_setting, n_batch=self.n_batch)
            self._n_ctx = min(chosen, self.max_context) if self.max_context else chosen
        return self._n_ctx

    @property
    def context_window(self) -> int:
        """The loaded model's context size (:attr:`SharedModel.n_ctx`); before loading, :attr:`n_ctx`."""
        return self._loaded_ctx or self.n_ctx

    def with_sampling(self, sampling: SamplingSettings) -> LlamaCppGenerator:
        """The same model (shared, not loaded twice) with other sampling settings."""
        return LlamaCppGenerator(
            self.model_path,
            n_ctx=self.n_ctx,
            n_threads=self.n_threads,
            n_batch=self.n_batch,
            sampling=sampling,
            max_context=self.max_context,
            max_output_tokens=self.max_output_tokens,
            template_kwargs=self.template_kwargs,
        )

    def _model(self) -> SharedModel:
        model = shared_model(self.model_path, n_ctx=self.n_ctx, n_threads=self.n_threads, n_batch=self.n_batch)
        self._loaded_ctx = model.n_ctx
        return model

    @property
    def loaded(self) -> bool:
        """Whether the model is in memory already (then :meth:`load` returns at once). Reads no file: a generator
        whose context is not decided yet has not loaded its model."""
        if self._n_ctx is None:
            return False
        return is_loaded(self.model_path, n_ctx=self._n_ctx, n_threads=self.n_threads, n_batch=self.n_batch)

    async def load(self) -> SharedModel:
        """Load the model now (in a worker thread) instead of on the first request.

        Raises:
            ModelMissingError, ModelUnreadableError, ModelTooBigError: As :func:`shared_model`.
        """
        return await asyncio.to_thread(self._model)

    async def count_tokens(self, text: str) -> int:
        """Exact token count of ``text`` for this model."""
        model = await self.load()
        return len(await asyncio.to_thread(model.tokenize, text))

    async def aclose(self) -> None:
        """Nothing to release: the shared model stays loaded (see :func:`unload_all`)."""

    async def generate(self, request: ChatRequest) -> str:
        """See :meth:`daemon.llm.base.TextGenerator.generate`."""
        return await self._run(request, None)

    async def generate_structured(self, request: ChatRequest, schema: type[ModelT]) -> ModelT:
        """See :meth:`daemon.llm.base.TextGenerator.generate_structured`. The output is grammar-constrained."""
        grammar = self._grammars.get(schema)
        if grammar is None:
            from llama_cpp.llama_grammar import LlamaGrammar

            grammar = LlamaGrammar.from_json_schema(json.dumps(schema_for(schema)), verbose=False)
            self._grammars[schema] = grammar
        text = await self._run(request, grammar)
        return parse_structured(text, schema)

    async def _run(self, chat: ChatRequest, grammar: LlamaGrammar | None) -> str:
        """Generate ``chat`` in a thread of its own, which stops through ``chat.stop_event`` or, when this task is
        cancelled, through the request's own event (waited for before the cancellation goes on)."""
        chat.refuse_if_stopped()
        model = await self.load()
        loop = asyncio.get_running_loop()
        if self.max_output_tokens is not None:
            chat = replace(chat, max_tokens=min(chat.max_tokens, self.max_output_tokens))
        request = _Request(
            chat=chat, grammar=grammar, loop=loop, result=loop.create_future(), finished=loop.create_future()
        )
        thread = threading.Thread(target=self._work, args=(model, request), name="llm-generate", daemon=True)
        thread.start()
        try:
            return await request.result
        except asyncio.CancelledError:
            request.cancel.set()
            await asyncio.shield(request.finished)
            raise
        finally:
            request.closed = True
            if request.finished.done():
                thread.join(timeout=1.0)  # it has posted its last call and is exiting: microseconds

    def _deliver(self, request: _Request, progress: TokenProgress) -> None:
        """On the loop thread: call the user's ``on_token``; a raising callback stops the generation."""
        on_token = request.chat.on_token
        if request.closed or on_token is None or request.callback_error is not None:
            return
        try:
            on_token(progress)
        except Exception as exc:
            request.callback_error = exc
            request.cancel.set()

    def _work(self, model: SharedModel, request: _Request) -> None:
        """The worker thread: wait for the model, generate, report. Never raises."""
        outcome: tuple[Literal["ok", "error"], Any]
        try:
            outcome = ("ok", self._locked_generate(model, request))
        except BaseException as exc:
            outcome = ("error", exc)
        request.post(self._finish, request, *outcome)

    @staticmethod
    def _finish(request: _Request, kind: str, value: Any) -> None:
        """On the loop thread, the worker's last act: settle the result, then mark the thread finished."""
        if kind == "ok":
            _settle(request.result, value)
        else:
            _settle(request.result, error=request.callback_error or value)
        _settle(request.finished)

    def _locked_generate(self, model: SharedModel, request: _Request) -> str:
        while not model.lock.acquire(timeout=_LOCK_POLL_SECONDS):
            if request.should_stop():
                raise GenerationStoppedError("", phase="prompt")
        try:
            return self._generate_with_lock(model, request)
        finally:
            model.lock.release()

    def _generate_with_lock(self, model: SharedModel, request: _Request) -> str:
        """Generate ``request``'s completion on ``model`` (its lock held): the prompt must fit the context; a stop
        before the first token aborts the prompt's processing, a later one ends the stream between tokens."""
        prompt = model.prompt_tokens(request.chat.messages, self.template_kwargs)
        if len(prompt) >= model.n_ctx:
            raise ContextOverflowError(
                f"The text sent to the model ({len(prompt)} tokens) is longer than its context window "
                f"({model.n_ctx} tokens)."
            )
        parts: list[str] = []
        generated = 0

        def count_and_check(_ids: Any, _logits: Any) -> bool:
            # Called once per sampled token, before it is streamed. llama-cpp-python samples one token past
            # max_tokens before noticing the limit, hence the cap.
            nonlocal generated
            generated = min(generated + 1, request.chat.max_tokens)
            if generated == 1:  # the prompt is processed: from here on, stop between tokens
                model.set_abort_check(None)
            return request.should_stop()

        def stopped() -> GenerationStoppedError:
            return GenerationStoppedError(
                "".join(parts), completion_tokens=generated, phase="generation" if generated else "prompt"
            )

        if request.should_stop():
            raise stopped()
        model.set_abort_check(self._prompt_check(model, request, len(prompt)))
        model.llama.last_n_tokens_size = self.sampling.repeat_last_n  # read per generation, under the lock
        model.count_prompt(prompt)
        try:
            stream = self._completion(model, request, prompt, count_and_check)
            try:
                self._stream_tokens(stream, request, len(prompt), parts, lambda: generated)
            finally:
                stream.close()
        except RuntimeError as exc:  # llama_decode returned non-zero: aborted by us, or a real failure
            model.recover()
            if request.should_stop():
                raise stopped() from None
            raise GenerationFailedError("The local model failed while generating text.") from exc
        finally:
            model.set_abort_check(None)
        if request.should_stop():  # stopped between tokens: the context is consistent, its cache reusable
            raise stopped()
        return "".join(parts)

    def _prompt_check(self, model: SharedModel, request: _Request, prompt_tokens: int) -> Callable[[], bool]:
        """The abort check for ``request``'s prompt (on the generating thread, between graph nodes): whether to
        stop, and each time llama.cpp has read another batch of the prompt, a report of the tokens read so far
        (``completion_tokens`` 0; a prefix reused from the cache counts as read). A prompt read in one batch is
        not reported."""
        reported: int | None = None

        def check() -> bool:
            nonlocal reported
            read = model.llama.n_tokens  # the cached prefix, then one batch more after each llama_decode
            if reported is not None and read > reported:
                progress = TokenProgress(completion_tokens=0, prompt_tokens=prompt_tokens, text="", prompt_read=read)
                request.post(self._deliver, request, progress)
            reported = read  # it only grows while one prompt is read
            return request.should_stop()

        return check

    def _completion(
        self, model: SharedModel, request: _Request, prompt: list[int], check: Callable[[Any, Any], bool]
    ) -> Any:
        """llama.cpp's token stream for ``prompt`` with the request's limits and this model's sampling settings;
        ``check`` is called once per sampled token and stops the stream when it answers ``True``."""
        from llama_cpp import StoppingCriteriaList

        return model.llama.create_completion(
            prompt,
            max_tokens=request.chat.max_tokens,
            temperature=request.chat.temperature,
            top_k=self.sampling.top_k,
            top_p=self.sampling.top_p,
            min_p=self.sampling.min_p,
            repeat_penalty=self.sampling.repeat_penalty,
            seed=self.sampling.seed,
            stream=True,
            stopping_criteria=StoppingCriteriaList([check]),
            grammar=request.grammar,
        )

    def _stream_tokens(
        self, stream: Any, request: _Request, prompt_tokens: int, parts: list[str], generated: Callable[[], int]
    ) -> None:
        """Append each piece of text from ``stream`` to ``parts`` and post the count of tokens so far
        (``generated()``) to the loop whenever it grew or text came; return at the stream's end or a stop."""
        reported = 0
        for chunk in stream:
            text = chunk["choices"][0]["text"]
            if text:
                parts.append(text)
            count = generated()
            if count > reported or text:
                reported = count
                progress = TokenProgress(completion_tokens=count, prompt_tokens=prompt_tokens, text=text)
                request.post(self._deliver, request, progress)
            if request.should_stop():
                break

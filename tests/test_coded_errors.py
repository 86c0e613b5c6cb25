"""Every error that carries a message code derives from ``core.app.messages.sentences.CodedError`` and carries its code
and values the same way; the job boundary stores any of them as the job's error, and handles a stop as a stop."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from core.app.messages.sentences import CodedError, StoppedOnRequest
from core.app.models.fit import ModelFileError
from core.app.settings.config import Settings
from core.status import JobStatus
from core.stored_messages import decode
from daemon.downloads.hub import DownloadError
from daemon.downloads.partial import DownloadStopped
from daemon.jobs.context import JobContext, UserFacingError, run_job
from daemon.llm.errors import GenerationStoppedError, ModelTooBigError, ModelUnsupportedError, ServerTimeoutError
from daemon.readers.errors import ExtractionError, ExtractionStopped
from daemon.runtime import Runtime

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("core", "daemon", "gui")
_CARRIED = ("code", "values")
_BASE_MODULE = ROOT / "core" / "app" / "messages" / "sentences.py"


@dataclasses.dataclass(frozen=True)
class CodedClass:
    """A class of our packages that names a message code: where, and whether it sets ``self.code``/``self.values``."""

    path: Path
    name: str
    sets_on_instance: bool


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _coded_classes() -> Iterator[CodedClass]:
    """Every class in the packages with a ``code`` class attribute or one that sets ``self.code``/``self.values``."""
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.ClassDef):
                    continue
                on_class = any(
                    isinstance(target, ast.Name) and target.id == "code"
                    for statement in node.body
                    if isinstance(statement, ast.Assign | ast.AnnAssign)
                    for target in (statement.targets if isinstance(statement, ast.Assign) else [statement.target])
                )
                on_instance = any(
                    isinstance(sub, ast.Attribute)
                    and sub.attr in _CARRIED
                    and isinstance(sub.ctx, ast.Store)
                    and isinstance(sub.value, ast.Name)
                    and sub.value.id == "self"
                    for sub in ast.walk(node)
                )
                if on_class or on_instance:
                    yield CodedClass(path, node.name, on_instance)


def _our_exceptions(root: type[BaseException] = BaseException) -> Iterator[type[BaseException]]:
    for sub in root.__subclasses__():
        if sub.__module__.split(".")[0] in PACKAGES:
            yield sub
        yield from _our_exceptions(sub)


def test_every_exception_class_with_a_message_code_derives_from_coded_error() -> None:
    found = list(_coded_classes())
    assert {"CodedError", "StoppedOnRequest", "LLMError", "ServerTimeoutError"} <= {c.name for c in found}
    outside: list[str] = []
    for coded in found:
        cls = getattr(importlib.import_module(_module_name(coded.path)), coded.name)
        if isinstance(cls, type) and issubclass(cls, BaseException) and not issubclass(cls, CodedError):
            outside.append(f"{coded.path.relative_to(ROOT)}:{coded.name}")
    # Every loaded exception of ours that answers to ``code`` (inherited included) shares the base too.
    outside += [
        f"{cls.__module__}.{cls.__qualname__}"
        for cls in _our_exceptions()
        if hasattr(cls, "code") and not issubclass(cls, CodedError)
    ]
    assert not outside, f"derive these from core.app.messages.sentences.CodedError: {sorted(set(outside))}"


def test_only_the_base_sets_an_errors_code_and_values_on_the_instance() -> None:
    setters = [c for c in _coded_classes() if c.sets_on_instance]
    exceptions = [
        c for c in setters if issubclass(getattr(importlib.import_module(_module_name(c.path)), c.name), BaseException)
    ]
    assert [(c.path, c.name) for c in exceptions] == [(_BASE_MODULE, "CodedError")]


def test_every_stop_is_a_coded_stop_and_never_an_ordinary_coded_failure() -> None:
    for stop in (GenerationStoppedError(), ExtractionStopped(3, 10), DownloadStopped()):
        assert isinstance(stop, StoppedOnRequest) and stop.code == "stopped" and stop.values == {}
        assert "stopped on request" in str(stop)


# -- the boundary stores a coded error on its job ---------------------------------------------------------------


@pytest.fixture
async def runtime(tmp_path: Path) -> AsyncIterator[Runtime]:
    """A started worker runtime on a data folder of its own (its database closed afterwards)."""
    started = Runtime(Settings.defaults(tmp_path / "data"))
    await started.start()
    try:
        yield started
    finally:
        await started.close()


async def _run_raising(runtime: Runtime, error: BaseException) -> uuid.UUID:
    """Enqueue a job and run it through the worker's boundary with a handler that raises ``error``."""
    job = await runtime.store.enqueue("ingest", title="raises")

    async def handler(_ctx: JobContext) -> uuid.UUID | None:
        raise error

    await run_job(runtime, "ingest", job.id, handler)
    return job.id


CODED_FAILURES = [
    ExtractionError("encrypted", format="pdf"),
    ExtractionError("file_busy"),
    ModelTooBigError("too big", code="model_too_big", values={"needed_mb": 9000, "available_mb": 4000}),
    ModelUnsupportedError("not llama", architecture="mamba", file="a.gguf"),
    ServerTimeoutError("the server took too long", detail="read timeout"),
    DownloadError("model_no_space", transient=True, needed_mb=2000, free_mb=10),
    ModelFileError("model_unreadable", Path("broken.gguf"), "not a GGUF file"),
    UserFacingError("no_text"),
]


@pytest.mark.parametrize("error", CODED_FAILURES, ids=lambda e: f"{type(e).__name__}-{e.code}")
async def test_a_coded_error_raised_in_a_job_ends_it_with_that_code_and_its_values(
    runtime: Runtime, error: CodedError
) -> None:
    row = await runtime.store.get(await _run_raising(runtime, error))
    stored = decode(row.error)
    assert stored is not None and (stored.code, stored.values) == (error.code, error.values)
    assert row.error_transient == error.transient
    assert row.status == (JobStatus.QUEUED if error.transient else JobStatus.FAILED)


@pytest.mark.parametrize("stop", [GenerationStoppedError("half"), ExtractionStopped(2, 9), DownloadStopped()])
async def test_a_stop_raised_in_a_job_is_no_failure_and_leaves_the_row_to_its_cause(
    runtime: Runtime, stop: StoppedOnRequest
) -> None:
    row = await runtime.store.get(await _run_raising(runtime, stop))
    assert row.status == JobStatus.RUNNING and row.error is None  # nobody asked: the lease decides, not a failure


async def test_a_stop_after_a_cancel_leaves_the_job_cancelled_without_an_error(runtime: Runtime) -> None:
    job = await runtime.store.enqueue("ingest", title="cancelled")

    async def handler(ctx: JobContext) -> uuid.UUID | None:
        await ctx.runtime.store.cancel(ctx.job.id)
        raise GenerationStoppedError("half", completion_tokens=3)

    await run_job(runtime, "ingest", job.id, handler)
    row = await runtime.store.get(job.id)
    assert row.status == JobStatus.CANCELLED and row.error is None

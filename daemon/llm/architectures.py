"""Which GGUF architectures the bundled llama.cpp runs, asked of llama.cpp itself, and the refusal of any other.

:func:`check_architecture` refuses an unknown architecture with
:class:`~daemon.llm.errors.ModelUnsupportedError` before anything is loaded. Safe from any thread (the answer is
computed once under a lock). How llama.cpp is asked: docs/design/model-backends.md.
"""

from __future__ import annotations

import ctypes
import functools
from pathlib import Path

from core.app.models.gguf_header import GGUFHeaderError, read_metadata
from daemon.llm.errors import ModelUnreadableError, ModelUnsupportedError

__all__ = ["check_architecture", "file_architecture", "supported_architectures"]

_NAME_SYMBOL = "_Z13llm_arch_name8llm_arch"
_MAX_ARCHITECTURES = 10_000
"""A bound on the walk, far above the table's size (about 130 names in 2026)."""
_NOT_MODELS = frozenset({"clip", "(unknown)"})
"""Names in the table that are no language model (``clip``: a placeholder for llama-quantize; the unknown one)."""


@functools.cache
def supported_architectures() -> frozenset[str]:
    """Every ``general.architecture`` the bundled llama.cpp can load, from its own table of names."""
    import llama_cpp.llama_cpp as llama_lib  # loads the shared library: only when a model is checked

    name_of = getattr(llama_lib._lib, _NAME_SYMBOL)
    name_of.argtypes = [ctypes.c_int]
    name_of.restype = ctypes.c_char_p
    names: set[str] = set()
    for value in range(_MAX_ARCHITECTURES):
        raw = name_of(value)
        name = raw.decode("utf-8") if raw else "unknown"
        if name == "unknown":
            break
        names.add(name)
    return frozenset(names - _NOT_MODELS)


def file_architecture(path: Path) -> str:
    """The GGUF file's ``general.architecture``.

    Raises:
        ModelUnreadableError: The header cannot be read or names no architecture.
    """
    try:
        # llama.cpp's writers put the architecture first: the walk stops there, before the vocabulary (about
        # 0.2 s of the first job after a worker starts, with a 50,000-token vocabulary).
        value = read_metadata(path, until="general.architecture").get("general.architecture")
    except (OSError, GGUFHeaderError) as error:
        raise ModelUnreadableError(f"The model file {path} cannot be read.", detail=str(error)) from error
    if not isinstance(value, str) or not value:
        raise ModelUnreadableError(f"The file {path} is not a GGUF model StudyJobs can read.", detail="no architecture")
    return value


def check_architecture(path: Path) -> str:
    """``path``'s architecture when the bundled llama.cpp runs it.

    Raises:
        ModelUnsupportedError: llama.cpp has no such architecture (the message names it).
        ModelUnreadableError: The header cannot be read.
    """
    architecture = file_architecture(path)
    if architecture not in supported_architectures():
        raise ModelUnsupportedError(
            f"The model {path.name} is a {architecture} model, which this version of llama.cpp cannot run.",
            architecture=architecture,
            file=path.name,
        )
    return architecture

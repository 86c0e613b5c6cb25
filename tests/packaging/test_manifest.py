"""The bundle's recipe, checked without building: every data entry points at a file that exists, and the names the
spec uses agree with the code that looks for them at run time."""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"


def _load(name: str) -> ModuleType:
    """Load a module of ``packaging/`` by path (the folder is no package: ``packaging`` is a PyPI name)."""
    spec = importlib.util.spec_from_file_location(f"studyjobs_packaging_{name}", PACKAGING / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def manifest() -> ModuleType:
    return _load("bundle_manifest")


def test_every_data_entry_is_an_existing_file(manifest: ModuleType) -> None:
    entries = manifest.data_files()
    assert entries
    for source, folder in entries:
        assert Path(source).is_file(), source
        assert not Path(folder).is_absolute() and ".." not in Path(folder).parts, folder


def test_the_resources_the_app_loads_are_all_bundled(manifest: ModuleType) -> None:
    bundled = {(Path(source).name, folder) for source, folder in manifest.data_files()}
    expected = {
        ("studyjobs.svg", "resources/icons"),
        ("studyjobs_pt_BR.qm", "resources/translations"),
        ("studyjobs_en.qm", "resources/translations"),
        ("ingest.json", "resources/plans"),
        ("generate.json", "resources/plans"),
        ("env.py", "core/app/storage/migrations"),
        ("script.py.mako", "core/app/storage/migrations"),
        (manifest.MODEL_FILENAME, manifest.MODEL_PACKAGE_DIR),
    }
    assert expected <= bundled
    migrations = {p.name for p in (ROOT / "core" / "app" / "storage" / "migrations" / "versions").glob("*.py")}
    assert migrations and {(name, "core/app/storage/migrations/versions") for name in migrations} <= bundled


def test_all_of_resources_is_bundled_except_the_translation_sources(manifest: ModuleType) -> None:
    bundled = {Path(source) for source, _ in manifest.data_files()}
    every = {p for p in (ROOT / "resources").rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert {p for p in every if p.suffix != ".ts"} <= bundled
    assert not {p for p in bundled if p.suffix == ".ts"}
    for source, folder in manifest.resource_files():
        assert Path(source).parent.relative_to(ROOT).as_posix() == folder  # the same place as in the source tree


def test_the_spelling_dictionaries_and_dramatiqs_redis_scripts_are_bundled(manifest: ModuleType) -> None:
    bundled = {(Path(source).name, folder) for source, folder in manifest.data_files()}
    assert {("en.json.gz", "spellchecker/resources"), ("pt.json.gz", "spellchecker/resources")} <= bundled
    assert ("dispatch.lua", "dramatiq/brokers/redis") in bundled


def test_the_bundled_folders_match_where_the_code_looks(manifest: ModuleType) -> None:
    from core.app.storage.database import MIGRATIONS_DIR
    from core.app.timing.document_time import PLANS_DIR

    # In the bundle each module's __file__ lies under sys._MEIPASS, so these relative paths are where it looks.
    assert MIGRATIONS_DIR.relative_to(ROOT).as_posix() == "core/app/storage/migrations"
    assert PLANS_DIR.relative_to(ROOT).as_posix() == "resources/plans"


def test_the_model_names_agree_with_the_daemon(manifest: ModuleType) -> None:
    from daemon.llm import models

    assert manifest.MODEL_DISTRIBUTION == models.BUNDLED_DISTRIBUTION
    assert manifest.MODEL_FILENAME == models.BUNDLED_FILENAME
    assert manifest.MODEL_PACKAGE_DIR == models._BUNDLED_PACKAGE_DIR
    assert manifest.bundled_model_file() == models.bundled_model_path()
    assert manifest.bundled_model_file().stat().st_size > 50 * 2**20
    assert manifest.MODEL_DISTRIBUTION in manifest.METADATA_DISTRIBUTIONS  # its RECORD leads to the file


def test_the_llama_libraries_exist_and_include_the_one_llama_cpp_loads(manifest: ModuleType) -> None:
    libraries = manifest.llama_libraries()
    names = {Path(source).name for source, _ in libraries}
    assert all(Path(source).exists() for source, _ in libraries)
    assert {folder for _, folder in libraries} == {"llama_cpp/lib"}
    if sys.platform.startswith("linux"):
        assert {"libllama.so", "libggml.so"} <= names


def test_the_hidden_imports_can_be_imported(manifest: ModuleType) -> None:
    for name in manifest.hidden_imports(worker=True):
        assert importlib.util.find_spec(name) is not None, name
    assert not any(name.startswith("daemon") for name in manifest.hidden_imports(worker=False))


def test_the_spec_names_two_executables_and_the_entry_scripts_exist(manifest: ModuleType) -> None:
    spec = (PACKAGING / "studyjobs.spec").read_text("utf-8")
    ast.parse(spec)  # valid Python
    assert "name=manifest.GUI_NAME" in spec and "name=manifest.WORKER_NAME" in spec
    assert "exclude_binaries=True" in spec and "COLLECT(" in spec  # onedir, shared libraries
    for script in ("entry_gui.py", "entry_worker.py"):
        assert (PACKAGING / script).is_file()
        assert f'"{script}"' in spec
    from core.app.workers.launch import WORKER_EXECUTABLE

    assert manifest.WORKER_NAME == WORKER_EXECUTABLE  # what the login entry starts


def test_the_installers_name_the_same_executables(manifest: ModuleType) -> None:
    nsi = (PACKAGING / "windows" / "studyjobs.nsi").read_text("utf-8")
    dmg = (PACKAGING / "macos" / "build_dmg.sh").read_text("utf-8")
    from gui.worker.autostart import LAUNCH_AGENT_LABEL, RUN_VALUE_NAME

    assert manifest.GUI_NAME == "StudyJobs" and '!define APP "StudyJobs"' in nsi  # StudyJobs.exe
    assert f"{manifest.WORKER_NAME}.exe" in nsi
    assert f'!define RUN_VALUE "{RUN_VALUE_NAME}"' in nsi  # the same Run value gui.worker.autostart manages
    assert manifest.WORKER_NAME in dmg and LAUNCH_AGENT_LABEL in (PACKAGING / "macos" / "uninstall.sh").read_text()


def test_the_files_read_from_package_folders_at_run_time_are_bundled(manifest: ModuleType) -> None:
    from daemon.guide_writer.checks import DICTIONARY_LANGUAGES

    bundled = {(Path(source).name, folder) for source, folder in manifest.data_files()}
    assert {(f"{lang}.json.gz", "spellchecker/resources") for lang in DICTIONARY_LANGUAGES} <= bundled
    assert {("dispatch.lua", "dramatiq/brokers/redis"), ("maxstack.lua", "dramatiq/brokers/redis")} <= bundled
    assert ("photosynthesis.pdf", "resources/selftest") in bundled


def test_the_windows_requirements_pin_every_runtime_dependency_of_the_project() -> None:
    """packaging/windows/requirements.txt is compiled by hand (its header says how): a dependency added to
    pyproject.toml and not compiled in would be missing from the Windows installer only. llama-cpp-python comes
    from build_llama_dlls.sh instead."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = {re.split(r"[\[<>=!~ ;]", requirement, maxsplit=1)[0] for requirement in project["dependencies"]}
    pinned_lines = (PACKAGING / "windows" / "requirements.txt").read_text(encoding="utf-8").splitlines()
    pinned = {line.split("==")[0] for line in pinned_lines if re.match(r"[A-Za-z0-9]", line) and "==" in line}

    def canonical(names: set[str]) -> set[str]:
        return {re.sub(r"[-_.]+", "-", name).lower() for name in names}

    missing = canonical(wanted) - canonical(pinned) - {"llama-cpp-python"}
    assert not missing, f"not in packaging/windows/requirements.txt: {sorted(missing)}"
    assert {"tesserocr", "pillow"} <= canonical(pinned)  # text recognition ships in the Windows installer too

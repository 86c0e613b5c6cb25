"""Gates on llama.cpp's Windows DLLs, cross-compiled by ``build_llama_dlls.sh``: a DLL that fails one fails the build.

Each catches a fault that Wine may not show and a user's Windows would:

* **imports**: every DLL imports only ``KERNEL32``, ``ADVAPI32``, ``msvcrt`` and its sibling DLLs (a mingw runtime
  DLL such as ``libwinpthread-1.dll`` or ``libgomp-1.dll`` would be missing on the user's machine);
* **exports**: every function that ``llama_cpp/llama_cpp.py`` binds through ctypes is exported by the DLL it loads
  (a missing one fails at import or at the first call); ``mtmd_cpp.py`` is not built (see build_llama_dlls.sh);
* **instructions**: ``ggml-cpu.dll`` holds no AVX-512 (``zmm``) or AMX (``tile``) instruction (the baseline is
  x86-64-v3), and no *aligned* 32-byte (``ymm``) load or store on the stack: Windows aligns the stack to 16 bytes
  only, GCC bug 54412 makes such code crash on real Windows, and Wine does not show it.

    python3 packaging/windows/check_dlls.py --llama DLL_FOLDER --bindings SDIST/llama_cpp
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

OBJDUMP = "x86_64-w64-mingw32-objdump"
SYSTEM_IMPORTS = {"kernel32.dll", "advapi32.dll", "msvcrt.dll"}
_BOUND = re.compile(r'@ctypes_function\(\s*"([A-Za-z_0-9]+)"')
_IMPORT = re.compile(r"^\s*DLL Name: (\S+)", re.MULTILINE)
_EXPORT_TABLE = re.compile(r"\[Ordinal/Name Pointer\] Table.*?\n((?:\s*\[\s*\d+\].*\n)+)", re.DOTALL)
_WIDE = re.compile(r"%zmm\d|\btile\w*\s|\b(ld|st)tilecfg\b")
_ALIGNED_STACK_YMM = re.compile(
    r"\bvmov(?:aps|apd|dqa|dqa32|dqa64)\s+"
    r"(?:%ymm\d+,\s*-?(?:0x[0-9a-f]+)?\(%r[sb]p[,)]|-?(?:0x[0-9a-f]+)?\(%r[sb]p[^)]*\),\s*%ymm\d+)"
)


def objdump(*args: str) -> str:
    """The output of ``x86_64-w64-mingw32-objdump`` (binutils-mingw-w64)."""
    return subprocess.run([OBJDUMP, *args], capture_output=True, text=True, check=True).stdout


def imports(dll: Path) -> set[str]:
    """The DLL names ``dll`` imports, lower-cased."""
    return {name.lower() for name in _IMPORT.findall(objdump("-p", str(dll)))}


def exports(dll: Path) -> set[str]:
    """The names ``dll`` exports."""
    table = _EXPORT_TABLE.search(objdump("-p", str(dll)))
    if table is None:
        return set()
    return {line.split()[-1] for line in table.group(1).splitlines() if line.strip()}


def bound_names(module: Path) -> set[str]:
    """The C functions a llama-cpp-python module binds with ``@ctypes_function("name", ...)``."""
    return set(_BOUND.findall(module.read_text(encoding="utf-8")))


def find_dll(folder: Path, stem: str) -> Path:
    """``<stem>.dll`` or ``lib<stem>.dll`` in ``folder`` (the names llama_cpp's loader tries)."""
    for name in (f"{stem}.dll", f"lib{stem}.dll"):
        if (folder / name).is_file():
            return folder / name
    raise SystemExit(f"check_dlls: no {stem}.dll or lib{stem}.dll in {folder}")


def check_imports(dlls: list[Path]) -> list[str]:
    """Failures of the imports gate."""
    allowed = SYSTEM_IMPORTS | {dll.name.lower() for dll in dlls}
    return [f"{dll.name} imports {', '.join(sorted(extra))}" for dll in dlls if (extra := imports(dll) - allowed)]


def check_exports(folder: Path, bindings: Path) -> tuple[list[str], str]:
    """Failures of the exports gate, and a summary of what was checked."""
    failures, counts = [], []
    for module, stem in (("llama_cpp.py", "llama"),):
        wanted = bound_names(bindings / module)
        dll = find_dll(folder, stem)
        missing = sorted(wanted - exports(dll))
        if not wanted:
            failures.append(f"no ctypes binding found in {module}")
        if missing:
            failures.append(f"{dll.name} lacks {len(missing)} of {module}'s functions: {', '.join(missing[:8])}")
        counts.append(f"{len(wanted)} {module} names in {dll.name}")
    return failures, ", ".join(counts)


def check_instructions(dll: Path) -> list[str]:
    """Failures of the instructions gate on one DLL."""
    wide, aligned = [], []
    for line in objdump("-d", "--no-show-raw-insn", str(dll)).splitlines():
        if _WIDE.search(line):
            wide.append(line.strip())
        elif _ALIGNED_STACK_YMM.search(line):
            aligned.append(line.strip())
    failures = []
    if wide:
        failures.append(f"{dll.name} has {len(wide)} AVX-512/AMX instructions, e.g. {wide[0]}")
    if aligned:
        failures.append(f"{dll.name} has {len(aligned)} aligned ymm stack accesses (GCC bug 54412), e.g. {aligned[0]}")
    return failures


def main(argv: list[str] | None = None) -> int:
    """Run the three gates; print what passed or every failure; exit 1 on any failure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llama", type=Path, required=True, help="folder with llama.cpp's DLLs")
    parser.add_argument("--bindings", type=Path, required=True, help="llama-cpp-python's llama_cpp package folder")
    args = parser.parse_args(argv)
    dlls = sorted(args.llama.glob("*.dll"))
    if not dlls:
        print(f"check_dlls: no DLL in {args.llama}", file=sys.stderr)
        return 1
    failures = check_imports(dlls)
    export_failures, summary = check_exports(args.llama, args.bindings)
    failures += export_failures
    failures += check_instructions(find_dll(args.llama, "ggml-cpu"))
    if failures:
        print("check_dlls: FAILED\n  " + "\n  ".join(failures), file=sys.stderr)
        return 1
    names = " ".join(dll.name for dll in dlls)
    print(f"check_dlls: passed: {names} import only system DLLs; {summary}; ggml-cpu has no zmm, AMX or aligned")
    print("  ymm stack access")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Pack llama-cpp-python's Python package and cross-compiled DLLs as a Windows wheel, for ``uv pip install``.

    python3 packaging/windows/pack_llama_wheel.py SDIST_FOLDER DLL_FOLDER OUT_FOLDER

The wheel holds ``llama_cpp/`` from the source distribution, the DLLs in ``llama_cpp/lib`` (where its ctypes loader
looks), and a ``.dist-info`` whose METADATA is the source distribution's PKG-INFO. Tagged ``py3-none-win_amd64``:
the package is pure Python around the DLLs. File times are fixed, so the same inputs give the same bytes.
"""

from __future__ import annotations

import base64
import hashlib
import sys
import zipfile
from pathlib import Path

_STAMP = (2020, 1, 1, 0, 0, 0)


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def pack(sdist: Path, dlls: Path, out: Path) -> Path:
    """Write ``llama_cpp_python-<version>-py3-none-win_amd64.whl`` into ``out`` and return its path."""
    metadata = (sdist / "PKG-INFO").read_bytes()
    version = next(
        line.split(":", 1)[1].strip() for line in metadata.decode().splitlines() if line.startswith("Version:")
    )
    info = f"llama_cpp_python-{version}.dist-info"
    files: list[tuple[str, bytes]] = []
    package = sdist / "llama_cpp"
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in {".so", ".dylib", ".dll"}:
            files.append((path.relative_to(sdist).as_posix(), path.read_bytes()))
    files += [(f"llama_cpp/lib/{dll.name}", dll.read_bytes()) for dll in sorted(dlls.glob("*.dll"))]
    wheel_info = (
        "Wheel-Version: 1.0\nGenerator: studyjobs pack_llama_wheel\nRoot-Is-Purelib: false\nTag: py3-none-win_amd64\n"
    )
    files += [(f"{info}/METADATA", metadata), (f"{info}/WHEEL", wheel_info.encode())]
    license_file = sdist / "LICENSE.md"
    if license_file.is_file():
        files.append((f"{info}/licenses/LICENSE.md", license_file.read_bytes()))
    record = [_record_line(name, data) for name, data in files] + [f"{info}/RECORD,,"]
    files.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode()))
    target = out / f"llama_cpp_python-{version}-py3-none-win_amd64.whl"
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files:
            entry = zipfile.ZipInfo(name, date_time=_STAMP)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(entry, data)
    return target


def main(argv: list[str]) -> int:
    """Pack the wheel named by the three folder arguments; print its path."""
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    print(pack(Path(argv[0]), Path(argv[1]), Path(argv[2])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

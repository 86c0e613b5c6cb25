#!/usr/bin/env bash
# Cross-compile llama.cpp for Windows x64 with Debian's mingw-w64 and pack it as a Windows wheel of
# llama-cpp-python (the version pyproject.toml pins), for packaging/windows/build.sh.
#
#   packaging/windows/build_llama_dlls.sh    -> prints the path of llama_cpp_python-<v>-py3-none-win_amd64.whl
#
# Same CPU baseline as scripts/install_llama_cpp (x86-64-v3: AVX2, FMA, F16C, BMI2; no AVX-512, no AMX) and
# no OpenMP (libgomp would be one more DLL to ship). Built once per version and flags into
# ~/.cache/studyjobs/windows/llama-cpp-python-<v>-<tag>/ (about 5 minutes on 2 idle cores), then reused.
# Three changes make llama-cpp-python's vendored llama.cpp build with mingw-w64 10:
#   1. its headers lack THREAD_POWER_THROTTLING_STATE: compat.h, forced into every C file, defines it;
#   2. LLAMA_BUILD_TOOLS=OFF and LLAVA_BUILD=OFF (llama-cpp-python's CMakeLists adds tools/mtmd itself, and the app
#      never loads it);
#   3. libgcc, libstdc++ and winpthread linked statically and their symbols kept private (not --exclude-libs,ALL:
#      CMake links each DLL's own objects from an archive, which ALL would hide too), or _Unwind_Resume is
#      defined twice and the DLLs need mingw's DLLs at run time.
# The DLLs are checked by packaging/windows/check_dlls.py before the wheel is made; a failed check fails this script.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CACHE=${STUDYJOBS_WINDOWS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/studyjobs/windows}
PY=${PYTHON:-python3}

VERSION=$(sed -n 's/^ *"llama-cpp-python==\([0-9.]*\)",$/\1/p' "$ROOT/pyproject.toml" | head -n 1)
SDIST_SHA256=832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e
SDIST_URL=https://files.pythonhosted.org/packages/ec/e9/e7de2b0463ea3ffbf0ede6cb21b58c1258a8f6521aae45ca773a59fe7cf3/llama_cpp_python-0.3.36.tar.gz
case "$SDIST_URL" in
    */llama_cpp_python-"$VERSION".tar.gz) ;;
    *) echo "build_llama_dlls: pyproject.toml pins llama-cpp-python $VERSION; update SDIST_URL and SDIST_SHA256" >&2; exit 1 ;;
esac
CC=x86_64-w64-mingw32-gcc-posix
CXX=x86_64-w64-mingw32-g++-posix
FLAGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"
FLAGS="$FLAGS -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF -DGGML_OPENMP=OFF"
# Only what llama_cpp loads when the app imports it: llama.dll and the ggml DLLs it links. mtmd (multimodal, imported
# only by llama_cpp's llava chat handlers, which StudyJobs never uses), tools, examples and tests are not built.
FLAGS="$FLAGS -DLLAVA_BUILD=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF"
FLAGS="$FLAGS -DLLAMA_BUILD_SERVER=OFF -DLLAMA_BUILD_COMMON=OFF -DLLAMA_CURL=OFF"
LINK="-static-libgcc -static-libstdc++ -Wl,--whole-archive -l:libwinpthread.a -Wl,--no-whole-archive"
LINK="$LINK -Wl,--exclude-libs,libgcc.a:libgcc_eh.a:libstdc++.a:libwinpthread.a"
TAG=$("$PY" -c 'import hashlib, sys; print(hashlib.sha256(sys.argv[1].encode()).hexdigest()[:12])' \
    "$VERSION $FLAGS $LINK $($CC -dumpversion 2>/dev/null)")
OUT=$CACHE/llama-cpp-python-$VERSION-$TAG
WHEEL=$OUT/llama_cpp_python-$VERSION-py3-none-win_amd64.whl
if [ -f "$WHEEL" ]; then
    echo "$WHEEL"
    exit 0
fi
command -v "$CC" >/dev/null || { echo "build_llama_dlls: $CC is missing (apt-get install g++-mingw-w64-x86-64-posix)" >&2; exit 1; }

mkdir -p "$CACHE/downloads"
SDIST=$CACHE/downloads/llama_cpp_python-$VERSION.tar.gz
if ! echo "$SDIST_SHA256  $SDIST" | sha256sum --quiet -c - >/dev/null 2>&1; then
    curl -sSfL -o "$SDIST.partial" "$SDIST_URL"
    echo "$SDIST_SHA256  $SDIST.partial" | sha256sum --quiet -c -
    mv "$SDIST.partial" "$SDIST"
fi

WORK=$CACHE/llama-build-$VERSION  # kept after a failure: the next run compiles only what changed
SRC=$WORK/llama_cpp_python-$VERSION
[ -d "$SRC" ] || { mkdir -p "$WORK" && tar -xzf "$SDIST" -C "$WORK"; }
cat >"$WORK/compat.h" <<'H'
/* mingw-w64 10 lacks the thread power throttling declarations that ggml-cpu.c uses (Windows 8+ API). */
#include <windows.h>
#ifndef THREAD_POWER_THROTTLING_CURRENT_VERSION
#define THREAD_POWER_THROTTLING_CURRENT_VERSION 1
#define THREAD_POWER_THROTTLING_EXECUTION_SPEED 0x1
typedef struct _THREAD_POWER_THROTTLING_STATE {
    ULONG Version;
    ULONG ControlMask;
    ULONG StateMask;
} THREAD_POWER_THROTTLING_STATE;
#endif
H

echo "== cross-compiling llama.cpp $VERSION for Windows x64 (about 6 minutes on 2 cores; once per version)" >&2
started=$(date +%s)
# shellcheck disable=SC2086 # FLAGS is a list of arguments
cmake -S "$SRC" -B "$WORK/build" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_SYSTEM_NAME=Windows -DCMAKE_SYSTEM_PROCESSOR=AMD64 \
    -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_RC_COMPILER=x86_64-w64-mingw32-windres \
    -DCMAKE_FIND_ROOT_PATH=/usr/x86_64-w64-mingw32 -DCMAKE_FIND_ROOT_PATH_MODE_PROGRAM=NEVER \
    -DCMAKE_C_FLAGS="-include $WORK/compat.h" -DCMAKE_SHARED_LINKER_FLAGS="$LINK" \
    -DBUILD_SHARED_LIBS=ON $FLAGS >"$WORK/cmake.log" 2>&1 \
    || { tail -30 "$WORK/cmake.log" >&2; exit 1; }
cmake --build "$WORK/build" -j "$(nproc)" --target llama ggml ggml-base ggml-cpu >"$WORK/build.log" 2>&1 \
    || { grep -B2 -A8 -m3 -E 'error|Error' "$WORK/build.log" >&2; tail -20 "$WORK/build.log" >&2; exit 1; }
echo "== compiled in $(($(date +%s) - started)) s" >&2

DLLS=$WORK/dlls
mkdir -p "$DLLS"
find "$WORK/build" -name '*.dll' -exec cp {} "$DLLS/" \;
"$PY" "$ROOT/packaging/windows/check_dlls.py" --llama "$DLLS" --bindings "$SRC/llama_cpp" >&2
mkdir -p "$OUT.partial"
"$PY" "$ROOT/packaging/windows/pack_llama_wheel.py" "$SRC" "$DLLS" "$OUT.partial" >&2
rm -rf "$OUT" && mv "$OUT.partial" "$OUT"
rm -rf "$WORK"
echo "$WHEEL"

#!/usr/bin/env bash
# Make a 64-bit Wine prefix in which the Windows build of StudyJobs runs, for build.sh and tests/packaging:
#
#   packaging/windows/wine_prefix.sh DIR      (does nothing when DIR is already such a prefix)
#
# Wine 8 (Debian 12) lacks two DLLs that Windows 10 and 11 have and the bundle's wheels import: icuuc.dll
# (Qt 6 Core) and bcryptprimitives.dll (pydantic-core, Rust). wine/*.c are small stand-ins for them, compiled with
# mingw-w64 and put into the prefix's system32; they are never part of the installer (build.sh checks that).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PREFIX=${1:?usage: wine_prefix.sh DIR}
export WINEPREFIX=$PREFIX WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
SYSTEM=$PREFIX/drive_c/windows/system32
STAMP=$PREFIX/.studyjobs-standins
WANT=$(cat "$HERE"/wine/*.c | sha256sum | cut -c1-16)
if [ -f "$SYSTEM/kernel32.dll" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$WANT" ]; then
    exit 0
fi
if [ ! -f "$SYSTEM/kernel32.dll" ]; then
    mkdir -p "$PREFIX"
    WINEARCH=win64 wineboot -i </dev/null >/dev/null 2>&1 || true
    wineserver -w
    [ -f "$SYSTEM/kernel32.dll" ] || { echo "wine_prefix: wineboot did not create $PREFIX" >&2; exit 1; }
    # Wine links Documents, Desktop … to the Linux user's home folders: make them the prefix's own, so that what the
    # program writes there (study guides) stays inside the prefix and a test sees only its own files.
    for link in "$PREFIX"/drive_c/users/*/*; do
        if [ -L "$link" ]; then rm "$link" && mkdir "$link"; fi
    done
fi
for source in "$HERE"/wine/*.c; do
    name=$(basename "$source" .c)
    x86_64-w64-mingw32-gcc-posix -O2 -Wall -shared -s -static-libgcc -o "$SYSTEM/$name.dll" "$source" -ladvapi32
done
echo "$WANT" >"$STAMP"

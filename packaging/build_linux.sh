#!/usr/bin/env bash
# Build the Linux bundle of StudyJobs, self-test it, and pack it.
#
#   packaging/build_linux.sh            -> build/bundle/StudyJobs-<version>-linux-<arch>.tar.gz
#                                          build/bundle/studyjobs_<version>_amd64.deb (packaging/linux/build_deb.sh)
#
# Steps: install PyInstaller into the project's .venv when it is missing; build the onedir bundle from
# packaging/studyjobs.spec (two executables, StudyJobs and studyjobs-worker, sharing _internal/); run both
# executables' --self-test; make a .tar.gz holding the bundle, studyjobs.desktop, the icon and the
# install/uninstall scripts. An AppImage is made only when `appimagetool` is already on PATH (it is not on PyPI,
# and this build never downloads tools). Times and the bundle size are printed at the end.
#
# Environment: PYTHON (default .venv/bin/python), STUDYJOBS_BUILD_DIR (default build/bundle).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PY=${PYTHON:-$ROOT/.venv/bin/python}
OUT=${STUDYJOBS_BUILD_DIR:-$ROOT/build/bundle}
DIST=$OUT/dist/StudyJobs
VERSION=$(cd "$ROOT" && "$PY" -c 'import core; print(core.__version__)')
ARCH=$(uname -m)
NAME=StudyJobs-$VERSION-linux-$ARCH

if ! "$PY" -c 'import PyInstaller' 2>/dev/null; then
    echo "== installing PyInstaller into $("$PY" -c 'import sys; print(sys.prefix)')"
    "$PY" -m pip install --quiet 'pyinstaller>=6.10,<7'
fi

echo "== building $NAME"
start=$(date +%s)
(cd "$ROOT" && "$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath "$OUT/dist" --workpath "$OUT/work" packaging/studyjobs.spec)
built=$(date +%s)

echo "== self-tests"
"$DIST/studyjobs-worker" --self-test
QT_QPA_PLATFORM=offscreen "$DIST/StudyJobs" --self-test
tested=$(date +%s)

echo "== packing"
STAGE=$OUT/stage/$NAME
rm -rf "$OUT/stage" && mkdir -p "$STAGE"
cp -a "$DIST" "$STAGE/StudyJobs"
cp "$ROOT/packaging/linux/studyjobs.desktop" "$ROOT/resources/icons/studyjobs.svg" "$STAGE/"
cp "$ROOT/packaging/linux/install.sh" "$ROOT/packaging/linux/uninstall.sh" "$STAGE/"
cp "$ROOT/packaging/linux/README.txt" "$STAGE/"
chmod +x "$STAGE/install.sh" "$STAGE/uninstall.sh"
tar -C "$OUT/stage" -czf "$OUT/$NAME.tar.gz" "$NAME"
packed=$(date +%s)

if command -v dpkg-deb >/dev/null 2>&1 && command -v objdump >/dev/null 2>&1; then
    echo "== .deb"
    PYTHON=$PY bash "$ROOT/packaging/linux/build_deb.sh" "$DIST" "$OUT" | tee "$OUT/deb.txt"
else
    echo "== no .deb: dpkg-deb or objdump (binutils) is not on PATH"
fi
debbed=$(date +%s)

if command -v appimagetool >/dev/null 2>&1; then
    echo "== AppImage"
    APPDIR=$OUT/stage/StudyJobs.AppDir
    mkdir -p "$APPDIR/usr/lib"
    cp -a "$DIST" "$APPDIR/usr/lib/StudyJobs"
    cp "$ROOT/packaging/linux/studyjobs.desktop" "$ROOT/resources/icons/studyjobs.svg" "$APPDIR/"
    printf '#!/bin/sh\nexec "$(dirname "$(readlink -f "$0")")/usr/lib/StudyJobs/StudyJobs" "$@"\n' >"$APPDIR/AppRun"
    chmod +x "$APPDIR/AppRun"
    ARCH=$ARCH appimagetool --no-appstream "$APPDIR" "$OUT/$NAME.AppImage"
else
    echo "== no AppImage: appimagetool is not on PATH (not on PyPI; this build downloads no tools)"
fi

echo "== done"
echo "build:     $((built - start)) s"
echo "self-test: $((tested - built)) s"
echo "pack:      $((packed - tested)) s"
echo ".deb:      $((debbed - packed)) s"
echo "bundle:    $(du -sh "$DIST" | cut -f1) in $DIST"
echo "tarball:   $(du -sh "$OUT/$NAME.tar.gz" | cut -f1) $OUT/$NAME.tar.gz"
[ -f "$OUT/deb.txt" ] && cat "$OUT/deb.txt"

#!/usr/bin/env bash
# Build StudyJobs.app and a .dmg on macOS (run on a Mac or the macos runner of .github/workflows/release.yml).
#
#   packaging/macos/build_dmg.sh      -> build/bundle/StudyJobs-<version>-macos-<arch>.dmg
#
# The .app comes from packaging/studyjobs.spec (its BUNDLE step on macOS): Contents/MacOS/StudyJobs is the window
# and Contents/MacOS/studyjobs-worker the worker, a second executable sharing the same libraries, which
# gui.worker.autostart's LaunchAgent (com.studyjobs.worker) starts at login. Both --self-test's run before packing.
# The app is ad-hoc signed only (not notarized): on first open, right-click > Open.
# Not built or tested on the machine that wrote it (no macOS there).
set -euo pipefail

[ "$(uname -s)" = Darwin ] || { echo "build_dmg.sh runs on macOS only" >&2; exit 2; }
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PY=${PYTHON:-$ROOT/.venv/bin/python}
OUT=${STUDYJOBS_BUILD_DIR:-$ROOT/build/bundle}
VERSION=$(cd "$ROOT" && "$PY" -c 'import core; print(core.__version__)')
NAME=StudyJobs-$VERSION-macos-$(uname -m)
APP=$OUT/dist/StudyJobs.app

"$PY" -c 'import PyInstaller' 2>/dev/null || "$PY" -m pip install --quiet 'pyinstaller>=6.10,<7'
start=$(date +%s)
(cd "$ROOT" && "$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath "$OUT/dist" --workpath "$OUT/work" packaging/studyjobs.spec)
built=$(date +%s)

test -x "$APP/Contents/MacOS/StudyJobs" || { echo "missing $APP/Contents/MacOS/StudyJobs" >&2; exit 1; }
test -x "$APP/Contents/MacOS/studyjobs-worker" || { echo "missing the worker in Contents/MacOS" >&2; exit 1; }
"$APP/Contents/MacOS/studyjobs-worker" --self-test
QT_QPA_PLATFORM=offscreen "$APP/Contents/MacOS/StudyJobs" --self-test
tested=$(date +%s)

STAGE=$OUT/dmg-stage
rm -rf "$STAGE" && mkdir -p "$STAGE"
cp -R "$APP" "$STAGE/"
ln -s /Applications "$STAGE/Applications"
cp "$ROOT/packaging/macos/uninstall.sh" "$STAGE/Uninstall StudyJobs.command"
chmod +x "$STAGE/Uninstall StudyJobs.command"
hdiutil create -volname StudyJobs -srcfolder "$STAGE" -ov -format UDZO "$OUT/$NAME.dmg"
echo "build: $((built - start)) s; self-test: $((tested - built)) s"
echo "app: $(du -sh "$APP" | cut -f1); dmg: $(du -sh "$OUT/$NAME.dmg" | cut -f1) $OUT/$NAME.dmg"
